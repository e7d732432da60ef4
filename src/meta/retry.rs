//! [`RetryPolicy`]: how many times, and how long to wait in between; and
//! [`drive`], the one retry loop every routed request, coordinator lookup
//! and metadata fetch goes through, deciding by each failure's
//! [`Disposition`].

use std::time::Duration;

use rand::Rng;
use tokio::time::Instant;

use super::error::{Disposition, Error, Result};

/// How long [`drive_pending`] may keep asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// The policy's budget for failures of this disposition: attempts, or
    /// [`RetryPolicy::coordinator_timeout`] for a coordinator that moved.
    /// Known before each round, so the last round is told it is the last.
    For(Disposition),
    /// Until this instant: another round only when it can start, after its
    /// backoff, before then. Known only after a round, so no round is told
    /// it is the last: a round must leave every item it asks again with its
    /// outcome so far in the state, which stands when the time is up.
    Until(Instant),
}

impl From<Disposition> for Budget {
    fn from(disposition: Disposition) -> Self {
        Budget::For(disposition)
    }
}

/// Exponential backoff with jitter, bounded by attempts — and, for a
/// coordinator that is moving or loading, by time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// The wait before the second attempt.
    pub initial_backoff: Duration,
    /// The longest wait between two attempts.
    pub max_backoff: Duration,
    /// Each wait is moved by up to this fraction either way (0.0–1.0), so
    /// many clients retrying the same failure do not arrive in lockstep.
    pub jitter: f64,
    /// How long a coordinator lookup may keep retrying
    /// `COORDINATOR_NOT_AVAILABLE` / `COORDINATOR_LOAD_IN_PROGRESS` /
    /// `NOT_COORDINATOR`. Electing leaders for 50 `__consumer_offsets`
    /// partitions on a fresh cluster takes seconds, not one backoff curve.
    pub coordinator_timeout: Duration,
}

impl Default for RetryPolicy {
    /// Five attempts, 100 ms doubling to 1 s: about 1.5 s of waiting in all
    /// (the Java client's `retry.backoff.ms` is 100 ms too).
    fn default() -> Self {
        Self {
            max_attempts: 5,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(1),
            jitter: 0.2,
            coordinator_timeout: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt number `attempt` (1-based): none before the
    /// first, then `initial_backoff` doubling up to `max_backoff`, with jitter.
    pub fn delay(&self, attempt: u32) -> Duration {
        if attempt <= 1 {
            return Duration::ZERO;
        }
        let doublings = (attempt - 2).min(30);
        let base = self
            .initial_backoff
            .saturating_mul(1u32 << doublings)
            .min(self.max_backoff);
        let jitter = self.jitter.clamp(0.0, 1.0);
        if jitter == 0.0 {
            return base;
        }
        let factor = rand::rng().random_range((1.0 - jitter)..=(1.0 + jitter));
        base.mul_f64(factor)
    }

    /// Whether another attempt may follow attempt number `attempt`.
    pub fn should_retry(&self, attempt: u32) -> bool {
        attempt < self.max_attempts
    }

    /// Whether another attempt may follow failed attempt number `attempt`
    /// (the first made at `started`) whose failure called for
    /// `disposition`: a moved or loading coordinator is bounded by time (a
    /// handover is a cluster-side event whose length has nothing to do
    /// with the backoff curve), everything else by attempts.
    pub fn allows(&self, disposition: Disposition, attempt: u32, started: Instant) -> bool {
        match disposition {
            Disposition::Fatal => false,
            Disposition::RefreshCoordinator => started.elapsed() < self.coordinator_timeout,
            Disposition::Retry | Disposition::RefreshMetadata => self.should_retry(attempt),
        }
    }
}

/// The retry driver: run `attempt` until it succeeds or `policy` says
/// stop. Each failure is classified once (`classify`); anything not fatal
/// is handed to `recover` (refresh the metadata, forget a coordinator)
/// before the policy decides whether another attempt follows, so caches are
/// put right even when the caller gets the error. Waits `policy.delay`
/// before each attempt after the first.
pub async fn drive<T, A, R>(
    policy: &RetryPolicy,
    mut attempt: impl FnMut() -> A,
    classify: impl Fn(&Error) -> Disposition,
    mut recover: impl FnMut(Disposition, &Error) -> R,
) -> Result<T>
where
    A: Future<Output = Result<T>>,
    R: Future<Output = ()>,
{
    let started = Instant::now();
    let mut made: u32 = 1;
    loop {
        let delay = policy.delay(made);
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        let error = match attempt().await {
            Ok(value) => return Ok(value),
            Err(error) => error,
        };
        let disposition = classify(&error);
        if disposition != Disposition::Fatal {
            recover(disposition, &error).await;
        }
        if !policy.allows(disposition, made, started) {
            return Err(error);
        }
        tracing::debug!(attempt = made, ?disposition, %error, "retrying");
        made = made.saturating_add(1);
    }
}

/// The retry driver for a batch that is answered item by item (the
/// watermarks of many partitions, many groups' offsets): the same budget
/// and backoff as [`drive`], but an item answered stays answered and only
/// the rest is asked again.
///
/// Each round gets what is still pending and whether it is the last one the
/// `budget` allows (for [`Budget::For`], `policy.allows(…)`); it records
/// answers and final failures in the state and returns the items to ask
/// again, which a last round must not leave (it settles every item:
/// answered or failed). With [`Budget::Until`] the driver stops after a
/// round when the next could not start before the deadline, and what the
/// state holds then stands. `recover` puts right what made the items fail
/// (a topic-scoped refresh, a coordinator lookup) and returns what the next
/// round asks. Waits `policy.delay` before each round after the first. A
/// round's error ends the batch. The state is passed by value through each round and handed
/// back at the end (so the rounds' futures borrow nothing of the driver's
/// and stay `Send`).
pub async fn drive_pending<S, T, A, E, R, RF, V, VF>(
    policy: &RetryPolicy,
    budget: impl Into<Budget>,
    mut state: S,
    mut pending: Vec<T>,
    mut round: R,
    mut recover: V,
) -> (S, std::result::Result<(), E>)
where
    R: FnMut(S, Vec<T>, bool) -> RF,
    RF: Future<Output = (S, std::result::Result<Vec<A>, E>)>,
    V: FnMut(S, Vec<A>) -> VF,
    VF: Future<Output = (S, Vec<T>)>,
{
    let budget = budget.into();
    let started = Instant::now();
    let mut made: u32 = 1;
    let mut delay = Duration::ZERO;
    while !pending.is_empty() {
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        let last = match budget {
            Budget::For(disposition) => !policy.allows(disposition, made, started),
            Budget::Until(_) => false,
        };
        let (after, answered) = round(state, pending, last).await;
        let again = match answered {
            Ok(again) => again,
            Err(error) => return (after, Err(error)),
        };
        if last || again.is_empty() {
            return (after, Ok(()));
        }
        delay = policy.delay(made.saturating_add(1));
        if let Budget::Until(deadline) = budget
            && Instant::now() + delay >= deadline
        {
            return (after, Ok(()));
        }
        tracing::debug!(round = made, left = again.len(), "asking again");
        (state, pending) = recover(after, again).await;
        made = made.saturating_add(1);
    }
    (state, Ok(()))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;
    use crate::conn::ErrorCode;

    /// Drive an attempt that fails with `code` every time; the attempts
    /// made and the dispositions recovered from.
    async fn failing(code: ErrorCode, coordinator: bool) -> (u32, Vec<Disposition>) {
        let policy = RetryPolicy::default();
        let made = AtomicU32::new(0);
        let mut recovered = Vec::new();
        let outcome: Result<()> = drive(
            &policy,
            || {
                made.fetch_add(1, Ordering::SeqCst);
                std::future::ready(Err(Error::from_code(code, None)))
            },
            |error| error.disposition(coordinator),
            |disposition, _| {
                recovered.push(disposition);
                std::future::ready(())
            },
        )
        .await;
        assert_eq!(outcome.expect_err("always fails").code(), Some(code));
        (made.load(Ordering::SeqCst), recovered)
    }

    #[tokio::test(start_paused = true)]
    async fn a_fatal_error_is_returned_at_once_and_nothing_is_recovered() {
        let (made, recovered) = failing(ErrorCode::TopicAuthorizationFailed, false).await;
        assert_eq!((made, recovered), (1, vec![]));
    }

    #[tokio::test(start_paused = true)]
    async fn a_stale_leader_is_refreshed_after_every_attempt_within_the_attempt_budget() {
        let (made, recovered) = failing(ErrorCode::NotLeaderOrFollower, false).await;
        assert_eq!(made, RetryPolicy::default().max_attempts);
        assert_eq!(recovered, vec![Disposition::RefreshMetadata; 5]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_moved_coordinator_is_retried_for_the_coordinator_timeout_not_five_attempts() {
        let started = Instant::now();
        let (made, recovered) = failing(ErrorCode::NotCoordinator, true).await;
        let took = started.elapsed();
        assert!(made > 5, "{made} attempts");
        assert!(
            recovered
                .iter()
                .all(|d| *d == Disposition::RefreshCoordinator)
        );
        let timeout = RetryPolicy::default().coordinator_timeout;
        assert!(took >= timeout, "gave up after {took:?} (paused clock)");
        assert!(
            took < timeout + RetryPolicy::default().max_backoff.mul_f64(1.3),
            "went on past the timeout: {took:?} (paused clock)"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_success_after_failures_is_returned() {
        let policy = RetryPolicy::default();
        let made = AtomicU32::new(0);
        let answer = drive(
            &policy,
            || {
                std::future::ready(match made.fetch_add(1, Ordering::SeqCst) {
                    0 | 1 => Err(Error::from_code(ErrorCode::RequestTimedOut, None)),
                    n => Ok(n),
                })
            },
            |error| error.disposition(false),
            |_, _| std::future::ready(()),
        )
        .await;
        assert_eq!(answer.expect("the third attempt answers"), 2);
    }

    #[test]
    fn the_first_attempt_is_immediate_and_waits_double_up_to_the_cap() {
        let policy = RetryPolicy {
            jitter: 0.0,
            ..RetryPolicy::default()
        };
        assert_eq!(policy.delay(1), Duration::ZERO);
        assert_eq!(policy.delay(2), Duration::from_millis(100));
        assert_eq!(policy.delay(3), Duration::from_millis(200));
        assert_eq!(policy.delay(4), Duration::from_millis(400));
        assert_eq!(policy.delay(5), Duration::from_millis(800));
        assert_eq!(policy.delay(6), Duration::from_secs(1));
        assert_eq!(policy.delay(u32::MAX), Duration::from_secs(1));
        let total: Duration = (1..=5).map(|a| policy.delay(a)).sum();
        assert_eq!(total, Duration::from_millis(1500));
    }

    #[test]
    fn jitter_stays_within_its_bounds() {
        let policy = RetryPolicy::default();
        for _ in 0..200 {
            let delay = policy.delay(3);
            assert!(delay >= Duration::from_millis(160) && delay <= Duration::from_millis(240));
        }
    }

    #[test]
    fn attempts_are_bounded() {
        let policy = RetryPolicy::default();
        assert!(policy.should_retry(1));
        assert!(policy.should_retry(4));
        assert!(!policy.should_retry(5));
    }

    /// Items 0..n; item `i` is answered in round `i + 1` (a partition whose
    /// leader settles late), and the last round fails what is left.
    #[tokio::test(start_paused = true)]
    async fn a_batch_asks_again_only_what_is_pending_and_the_last_round_settles_the_rest() {
        type Seen = (Vec<(u32, u32)>, Vec<u32>, u32);
        let policy = RetryPolicy::default();
        let (state, outcome): (Seen, std::result::Result<(), ()>) = drive_pending(
            &policy,
            Disposition::Retry,
            (Vec::new(), Vec::new(), 0),
            (0..8).collect(),
            |mut state: Seen, pending: Vec<u32>, last| async move {
                state.2 += 1;
                let round = state.2;
                let mut again = Vec::new();
                for item in pending {
                    if item < round {
                        state.0.push((item, round));
                    } else if last {
                        state.1.push(item);
                    } else {
                        again.push(item);
                    }
                }
                (state, Ok(again))
            },
            |state, again: Vec<u32>| async move { (state, again) },
        )
        .await;
        assert!(outcome.is_ok());
        let rounds = policy.max_attempts;
        assert_eq!(state.2, rounds, "one round per attempt the budget allows");
        let answered: Vec<u32> = state.0.iter().map(|(item, _)| *item).collect();
        assert_eq!(
            answered,
            (0..rounds).collect::<Vec<_>>(),
            "each answered once"
        );
        assert!(state.0.iter().all(|(item, round)| round == &(item + 1)));
        assert_eq!(
            state.1,
            (rounds..8).collect::<Vec<_>>(),
            "the rest failed at the last"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_batch_stops_at_a_rounds_error_and_when_nothing_is_pending() {
        let policy = RetryPolicy::default();
        let failed = drive_pending(
            &policy,
            Disposition::Retry,
            0,
            vec![1],
            |rounds: u32, _: Vec<u32>, _| async move { (rounds + 1, Err::<Vec<u32>, _>("refused")) },
            |rounds, again: Vec<u32>| async move { (rounds, again) },
        )
        .await;
        assert_eq!(failed, (1, Err("refused")));
        let empty =
            drive_pending(
                &policy,
                Disposition::Retry,
                0,
                Vec::<u32>::new(),
                |rounds: u32, _: Vec<u32>, _| async move {
                    (rounds + 1, Ok::<_, ()>(Vec::<u32>::new()))
                },
                |rounds, again: Vec<u32>| async move { (rounds, again) },
            )
            .await;
        assert_eq!(empty, (0, Ok(())));
    }

    #[tokio::test(start_paused = true)]
    async fn a_time_budget_asks_again_while_the_next_round_can_start_before_the_deadline() {
        let policy = RetryPolicy {
            jitter: 0.0,
            ..RetryPolicy::default()
        };
        // Rounds at 0, 100 and 300 ms (100 ms doubling); a fourth would
        // start at 700 ms, past the deadline, so the third is the last and
        // no round is told it is.
        let deadline = Instant::now() + Duration::from_millis(350);
        let (rounds, outcome) = drive_pending(
            &policy,
            Budget::Until(deadline),
            Vec::new(),
            vec![1],
            |mut rounds: Vec<(Duration, bool)>, pending: Vec<u32>, last| async move {
                rounds.push((deadline - Instant::now(), last));
                (rounds, Ok::<_, ()>(pending))
            },
            |rounds, again: Vec<u32>| async move { (rounds, again) },
        )
        .await;
        assert_eq!(outcome, Ok(()));
        let left: Vec<u128> = rounds.iter().map(|(left, _)| left.as_millis()).collect();
        assert_eq!(left, [350, 250, 50], "rounds at 0, 100 and 300 ms");
        assert!(rounds.iter().all(|(_, last)| !last));
    }
}
