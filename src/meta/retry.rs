//! [`RetryPolicy`]: how many times, and how long to wait in between.

use std::time::Duration;

use rand::Rng;

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
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
