//! When a broker last answered on a connection: the cheapest proof that it
//! is alive. A liveness check beside a command asks only the brokers the
//! command has not already heard from.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

/// The last answer's time, lock-free (written on every answer).
#[derive(Debug)]
pub(super) struct HeardFrom {
    /// When the connection was made: the times below count from here.
    base: Instant,
    /// Nanoseconds after `base` of the last answer, plus one; 0: never.
    last: AtomicU64,
}

impl Default for HeardFrom {
    fn default() -> Self {
        HeardFrom {
            base: Instant::now(),
            last: AtomicU64::new(0),
        }
    }
}

impl HeardFrom {
    /// An answer arrived now.
    pub(super) fn now(&self) {
        let after = u64::try_from(self.base.elapsed().as_nanos()).unwrap_or(u64::MAX - 1);
        self.last
            .fetch_max(after.saturating_add(1), Ordering::Relaxed);
    }

    /// Whether an answer arrived at or after `since`.
    pub(super) fn since(&self, since: Instant) -> bool {
        match self.last.load(Ordering::Relaxed) {
            0 => false,
            n => self.base + Duration::from_nanos(n - 1) >= since,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn an_answer_counts_from_its_time_on_and_never_before_the_first() {
        let heard = HeardFrom::default();
        let start = Instant::now();
        assert!(!heard.since(start), "nothing heard yet");
        tokio::time::advance(Duration::from_millis(5)).await;
        heard.now();
        assert!(heard.since(start));
        assert!(heard.since(start + Duration::from_millis(5)));
        assert!(!heard.since(start + Duration::from_millis(6)));
    }
}
