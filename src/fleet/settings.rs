//! How hard the fleet polls: the bound on concurrent polls, each context's
//! cadence and backoff, each poll's deadline, and when connections are kept.

use std::time::Duration;

use crate::config::schema::ConfigFile;

/// What one partition of a poll's full metadata costs kscope, about.
pub const POLL_COST_PER_PARTITION: Duration = Duration::from_nanos(200);

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
    /// The share of one core every context's polls may take together, on
    /// average, in thousandths: a context whose poll costs more than its
    /// share at `interval` is polled less often ([`FleetSettings::paced`]).
    pub budget_per_mille: u32,
}

impl Default for FleetSettings {
    fn default() -> Self {
        FleetSettings {
            concurrency: 8,
            interval: Duration::from_secs(15),
            max_backoff: Duration::from_mins(2),
            // Under the 5 s for a hung context's row.
            poll_deadline: Duration::from_secs(4),
            keep_connections_up_to: 16,
            lag_groups_per_poll: 3,
            budget_per_mille: 5,
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
            poll_deadline: file
                .fleet
                .poll_timeout_secs
                .as_ref()
                .map_or(defaults.poll_deadline, |s| {
                    Duration::from_secs(*s.get_ref())
                }),
            ..defaults
        }
    }

    /// The wait after polling a cluster of `partitions` so that `contexts`
    /// contexts polled alike stay within the budget. A poll's CPU grows
    /// with the full metadata it decodes: [`POLL_COST_PER_PARTITION`] each
    /// (`scripts/bench-fleet`: 47 contexts of 10k-100k partitions every
    /// 15 s took 2.9 % of a core, about 180 ns a partition). Not the poll's
    /// wall time: on a small cluster that is network and broker time, and
    /// would space out polls that cost kscope nothing. Never more than
    /// `max_backoff`: a row is never older than that for its size.
    pub fn paced(&self, partitions: usize, contexts: u32) -> Duration {
        let partitions = u32::try_from(partitions).unwrap_or(u32::MAX);
        POLL_COST_PER_PARTITION
            .saturating_mul(partitions)
            .saturating_mul(contexts)
            .saturating_mul(1000 / self.budget_per_mille.max(1))
            .min(self.max_backoff)
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
    fn the_poll_deadline_is_four_seconds_unless_the_config_says_otherwise() {
        let parse = |text: &str| {
            crate::config::load::parse(std::path::Path::new("fleet.toml"), text).expect("parses")
        };
        let default = FleetSettings::from_config(&parse(""));
        assert_eq!(default.poll_deadline, Duration::from_secs(4));
        let set = FleetSettings::from_config(&parse("[fleet]\npoll_timeout_secs = 2\n"));
        assert_eq!(set.poll_deadline, Duration::from_secs(2));
        assert_eq!(set.interval, default.interval);
        for bad in ["0", "301", "\"4s\"", "-1"] {
            let text = format!("[fleet]\npoll_timeout_secs = {bad}\n");
            let error = crate::config::load::parse(std::path::Path::new("fleet.toml"), &text)
                .expect_err(bad)
                .to_string();
            assert!(
                error.contains("poll_timeout_secs") || error.contains("fleet.toml:2"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn a_failing_context_backs_off_doubling_to_two_minutes() {
        let s = FleetSettings::default();
        let waits: Vec<u64> = (0..5).map(|f| s.next_wait(f).as_secs()).collect();
        assert_eq!(waits, [15, 30, 60, 120, 120]);
        assert_eq!(s.next_wait(u32::MAX).as_secs(), 120);
    }

    #[test]
    fn a_costly_poll_waits_for_its_share_of_the_budget_up_to_two_minutes() {
        let s = FleetSettings::default();
        // 5k partitions (1 ms a poll), 50 contexts: 50 ms every 10 s is 0.5 %.
        assert_eq!(s.paced(5_000, 50), Duration::from_secs(10));
        assert!(s.paced(5_000, 10) < s.interval, "small: the interval");
        assert_eq!(s.paced(200_000, 50), Duration::from_mins(2), "capped");
        assert_eq!(s.paced(0, 50), Duration::ZERO);
    }
}
