//! How hard the fleet polls: the bound on concurrent polls, each context's
//! cadence and backoff, each poll's deadline, and when connections are kept.

use std::time::Duration;

use crate::config::schema::ConfigFile;

/// Polling settings; [`FleetSettings::default`] is what the issue asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FleetSettings {
    /// Polls running at once, across all contexts.
    pub concurrency: usize,
    /// Time between a context's polls while it answers.
    pub interval: Duration,
    /// The longest wait between polls of a failing context (the wait doubles
    /// from `interval` with each failure up to this).
    pub max_backoff: Duration,
    /// One poll's deadline, connecting included: a hung context gives up
    /// here and never holds another context's row back.
    pub poll_deadline: Duration,
    /// Keep each context's connections between polls only while at most
    /// this many contexts are polled; above it, connect afresh each poll.
    pub keep_connections_up_to: usize,
    /// Groups whose lag is read per poll (a paced sweep through the list).
    pub lag_groups_per_poll: usize,
}

impl Default for FleetSettings {
    fn default() -> Self {
        FleetSettings {
            concurrency: 8,
            interval: Duration::from_secs(15),
            max_backoff: Duration::from_mins(2),
            poll_deadline: Duration::from_secs(8),
            keep_connections_up_to: 16,
            lag_groups_per_poll: 3,
        }
    }
}

impl FleetSettings {
    /// The defaults with the config file's `[fleet]` settings applied.
    pub fn from_config(file: &ConfigFile) -> FleetSettings {
        let defaults = FleetSettings::default();
        FleetSettings {
            concurrency: file
                .fleet
                .concurrency
                .as_ref()
                .and_then(|c| usize::try_from(*c.get_ref()).ok())
                .map_or(defaults.concurrency, |c| c.max(1)),
            interval: file
                .fleet
                .interval_secs
                .as_ref()
                .map_or(defaults.interval, |s| Duration::from_secs(*s.get_ref())),
            ..defaults
        }
    }

    /// The wait before the next poll after `failures` failed polls in a row.
    pub fn next_wait(&self, failures: u32) -> Duration {
        if failures == 0 {
            return self.interval;
        }
        let factor = 1u32 << failures.min(16);
        self.interval.saturating_mul(factor).min(self.max_backoff)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_context_backs_off_doubling_to_two_minutes() {
        let s = FleetSettings::default();
        let waits: Vec<u64> = (0..5).map(|f| s.next_wait(f).as_secs()).collect();
        assert_eq!(waits, [15, 30, 60, 120, 120]);
        assert_eq!(s.next_wait(u32::MAX).as_secs(), 120);
    }
}
