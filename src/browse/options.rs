//! How a [`super::Browser`] reads: isolation, following, the sizes of its
//! fetches and batches, where it stops, and what it keeps from before its
//! start.

use std::time::Duration;

use super::{Fit, Isolation};

/// How to read.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// `read_committed` (default) or `read_uncommitted`.
    pub isolation: Isolation,
    /// Keep reading past the end.
    pub follow: bool,
    /// Bytes per response at most.
    pub max_bytes: i32,
    /// Bytes per partition per response at most.
    pub partition_max_bytes: i32,
    /// The largest record batch read.
    pub max_batch: usize,
    /// The most a batch may inflate to.
    pub inflate_cap: usize,
    /// How long a broker may hold a follow fetch open waiting for records.
    pub follow_wait: Duration,
    /// Stop every partition before this offset (or its end, if sooner),
    /// even when following.
    pub until: Option<i64>,
    /// Also hand out what the first batch read holds before the start, from
    /// this offset on (none before it: the log start, say). A fetch answers
    /// with the whole batch holding the offset asked for, so those records
    /// are fetched anyway; reading newest first in windows keeps them, and
    /// the next (older) window ends where that batch begins
    /// ([`Browser::read_from`]) instead of fetching it again. `None` (the
    /// default): nothing before the start is handed out.
    pub keep_before: Option<i64>,
    /// With a stop (`until`, or the end): each fetch asks for about the
    /// bytes left before the stop at this rate ([`Fit::ask`]), at most
    /// `partition_max_bytes`, so that one whose answer was cut inside a
    /// batch asks for what the window has left, not for a whole window
    /// again past its end. `None` (the default): `partition_max_bytes`
    /// each time.
    pub fit: Option<Fit>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            isolation: Isolation::ReadCommitted,
            follow: false,
            max_bytes: 16 * 1024 * 1024,
            partition_max_bytes: 1024 * 1024,
            max_batch: 16 * 1024 * 1024,
            inflate_cap: 64 * 1024 * 1024,
            follow_wait: Duration::from_millis(500),
            until: None,
            keep_before: None,
            fit: None,
        }
    }
}

/// What a partition's fetch from `offset` asks for (when its next batch is
/// not larger): `partition_max_bytes`, or less when [`Options::fit`] sizes
/// it to the offsets left before `stop`.
pub(super) fn ask_bytes(options: &Options, offset: i64, stop: Option<i64>) -> i32 {
    match (options.fit, stop) {
        (Some(fit), Some(stop)) => fit.ask(stop - offset).min(options.partition_max_bytes),
        _ => options.partition_max_bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fitted_fetch_asks_for_what_is_left_before_the_stop_and_no_more_than_the_cap() {
        let plain = Options {
            partition_max_bytes: 1_000_000,
            ..Options::default()
        };
        assert_eq!(ask_bytes(&plain, 0, Some(4000)), 1_000_000, "not fitted");
        let fitted = Options {
            fit: Some(Fit {
                bytes: 250_000,
                offsets: 1000,
            }),
            ..plain
        };
        // A window 0..4000 at 250 bytes an offset: its first fetch asks
        // for the whole window (capped), one after a cut at 3,000 for the
        // last 1,000 offsets.
        assert_eq!(ask_bytes(&fitted, 0, Some(4000)), 1_000_000);
        assert_eq!(ask_bytes(&fitted, 3000, Some(4000)), 255_000 + 16_384);
        assert_eq!(ask_bytes(&fitted, 3000, None), 1_000_000, "following");
    }
}
