//! A staggered race of attempts (happy eyeballs, RFC 8305, for brokers).
//!
//! A hung broker is worse than a dead one: a stopped (`SIGSTOP`) JVM, or one deep in
//! a GC pause or stalled on a disk, still has a kernel that accepts the TCP
//! connection, and then nothing answers `ApiVersions` until the connect
//! timeout. Trying candidates one after another makes a hung first bootstrap
//! broker cost that whole timeout. Racing them costs one stagger instead:
//! the first attempt starts at once, the next after `stagger` (or at once
//! when every running attempt has failed), the first success wins and the
//! attempts still running are dropped, which cancels them.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use tokio::time::Instant;

/// Run `start(candidate)` for the candidates in order, each started `stagger`
/// after the one before it or as soon as none is running, and return the
/// first success. An error for which `is_final` holds ends the race at once
/// (asking elsewhere with the same settings cannot help: a wrong password).
/// Otherwise, when every attempt failed, the last error; `Err(None)` when
/// there was no candidate at all.
pub(super) async fn staggered<C, T, E, F, Fut>(
    candidates: impl IntoIterator<Item = C>,
    stagger: Duration,
    mut start: F,
    is_final: impl Fn(&E) -> bool,
) -> Result<T, Option<E>>
where
    F: FnMut(C) -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let mut waiting = candidates.into_iter().peekable();
    let mut running: Vec<Pin<Box<Fut>>> = Vec::new();
    let mut last: Option<E> = None;
    let timer = tokio::time::sleep(Duration::ZERO);
    tokio::pin!(timer);
    poll_fn(move |cx| {
        loop {
            let due = running.is_empty() || timer.as_mut().poll(cx).is_ready();
            if due && let Some(candidate) = waiting.next() {
                running.push(Box::pin(start(candidate)));
                timer.as_mut().reset(Instant::now() + stagger);
            }
            let mut index = 0;
            while index < running.len() {
                match running[index].as_mut().poll(cx) {
                    Poll::Pending => index += 1,
                    Poll::Ready(Ok(value)) => return Poll::Ready(Ok(value)),
                    Poll::Ready(Err(error)) if is_final(&error) => {
                        return Poll::Ready(Err(Some(error)));
                    }
                    Poll::Ready(Err(error)) => {
                        drop(running.swap_remove(index));
                        last = Some(error);
                    }
                }
            }
            if running.is_empty() {
                if waiting.peek().is_none() {
                    return Poll::Ready(Err(last.take()));
                }
                continue;
            }
            // Register the timer's wake-up for the next start (or start it now).
            if waiting.peek().is_some() && timer.as_mut().poll(cx).is_ready() {
                continue;
            }
            return Poll::Pending;
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    const STAGGER: Duration = Duration::from_millis(200);

    /// How a fake candidate behaves: answer `Ok` or `Err` after a delay, or never.
    #[derive(Clone, Copy)]
    enum Fake {
        Answers(u64, u32),
        Fails(u64, &'static str),
        Hangs,
    }

    /// Counts attempts dropped before they finished (cancelled losers).
    struct Cancelled(Arc<AtomicUsize>, bool);

    impl Drop for Cancelled {
        fn drop(&mut self) {
            if !self.1 {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    async fn run(fakes: &[Fake]) -> (Result<u32, Option<&'static str>>, Duration, usize) {
        let cancelled = Arc::new(AtomicUsize::new(0));
        let began = Instant::now();
        let outcome = staggered(
            fakes.iter().copied(),
            STAGGER,
            |fake| {
                let cancelled = cancelled.clone();
                async move {
                    let mut guard = Cancelled(cancelled, false);
                    let outcome = match fake {
                        Fake::Answers(ms, value) => {
                            tokio::time::sleep(Duration::from_millis(ms)).await;
                            Ok(value)
                        }
                        Fake::Fails(ms, error) => {
                            tokio::time::sleep(Duration::from_millis(ms)).await;
                            Err(error)
                        }
                        Fake::Hangs => std::future::pending().await,
                    };
                    guard.1 = true;
                    outcome
                }
            },
            |error: &&str| *error == "final",
        )
        .await;
        (outcome, began.elapsed(), cancelled.load(Ordering::SeqCst))
    }

    #[tokio::test(start_paused = true)]
    async fn a_hung_first_candidate_costs_one_stagger_and_is_cancelled() {
        let (outcome, took, cancelled) = run(&[Fake::Hangs, Fake::Answers(5, 2)]).await;
        assert_eq!(outcome, Ok(2));
        assert_eq!(took, STAGGER + Duration::from_millis(5));
        assert_eq!(cancelled, 1, "the hung attempt is dropped");
    }

    #[tokio::test(start_paused = true)]
    async fn a_candidate_that_fails_fast_hands_over_at_once() {
        let (outcome, took, _) = run(&[Fake::Fails(1, "refused"), Fake::Answers(5, 2)]).await;
        assert_eq!(outcome, Ok(2));
        assert_eq!(took, Duration::from_millis(6));
    }

    #[tokio::test(start_paused = true)]
    async fn a_slow_first_candidate_still_wins_if_it_answers_first() {
        let fakes = [Fake::Answers(300, 1), Fake::Answers(500, 2), Fake::Hangs];
        let (outcome, took, cancelled) = run(&fakes).await;
        assert_eq!(outcome, Ok(1));
        assert_eq!(took, Duration::from_millis(300));
        assert_eq!(cancelled, 1, "only the second had started");
    }

    #[tokio::test(start_paused = true)]
    async fn a_final_error_ends_the_race_and_otherwise_the_last_error_is_reported() {
        let (outcome, _, cancelled) = run(&[Fake::Hangs, Fake::Fails(1, "final")]).await;
        assert_eq!(outcome, Err(Some("final")));
        assert_eq!(cancelled, 1);
        let (outcome, _, _) = run(&[Fake::Fails(1, "a"), Fake::Fails(1, "b")]).await;
        assert_eq!(outcome, Err(Some("b")));
        let (outcome, took, _) = run(&[]).await;
        assert_eq!((outcome, took), (Err(None), Duration::ZERO));
    }
}
