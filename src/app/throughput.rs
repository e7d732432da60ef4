//! Rates without JMX: messages per second from the change of high
//! watermarks between two reads of the visible rows (approximate:
//! transaction markers count as messages), and bytes per second from the
//! change of sizes on disk, each with the rates seen this session for a
//! sparkline.

use std::collections::VecDeque;
use std::time::Instant;

/// How many rates a sparkline keeps.
pub const SAMPLES: usize = 30;

/// One topic's or partition's rate (messages or bytes per second).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Throughput {
    /// The last value read (a high watermark, a sum of them, a size) and
    /// when.
    last: Option<(i64, Instant)>,
    /// The latest rate, per second.
    pub rate: Option<u64>,
    /// Rates over the session, oldest first.
    pub history: VecDeque<u64>,
}

impl Throughput {
    /// Record a read of `high` at `now`. A value that went backwards (topic
    /// recreated, unclean election; for sizes retention or compaction)
    /// restarts the measurement: no rate until the next read.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )] // a non-negative rate far below 2^52
    pub fn record(&mut self, high: i64, now: Instant) {
        if let Some((before, at)) = self.last {
            let secs = now.saturating_duration_since(at).as_secs_f64();
            if secs <= 0.0 {
                return;
            }
            let grown = high.saturating_sub(before);
            if grown >= 0 {
                let rate = (grown as f64 / secs).round() as u64;
                self.rate = Some(rate);
                if self.history.len() == SAMPLES {
                    self.history.pop_front();
                }
                self.history.push_back(rate);
            } else {
                self.rate = None;
                self.history.clear();
            }
        }
        self.last = Some((high, now));
    }

    /// The rates for a sparkline.
    pub fn samples(&self) -> Vec<u64> {
        self.history.iter().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn rates_from_deltas_zero_when_idle_and_restart_when_backwards() {
        let t0 = Instant::now();
        let mut t = Throughput::default();
        t.record(100, t0);
        assert_eq!(t.rate, None, "one read is no rate");
        t.record(400, t0 + Duration::from_secs(3));
        assert_eq!(t.rate, Some(100));
        t.record(400, t0 + Duration::from_secs(6));
        assert_eq!(t.rate, Some(0), "idle");
        t.record(400, t0 + Duration::from_secs(6));
        assert_eq!(t.samples(), [100, 0], "no time passed: no sample");
        t.record(10, t0 + Duration::from_secs(9));
        assert_eq!(t.rate, None);
        assert!(t.samples().is_empty());
        for i in 0..40 {
            t.record(
                10 + i,
                t0 + Duration::from_secs(10 + u64::try_from(i).expect("small")),
            );
        }
        assert_eq!(t.samples().len(), SAMPLES);
    }
}
