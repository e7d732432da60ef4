//! Pacing the full metadata refresh by what it costs.
//!
//! A full refresh costs in proportion to the cluster: a few milliseconds
//! for a hundred partitions, most of a second for a million (a 42 MB answer
//! to read, decode and diff). At a fixed interval that is a fixed share of a
//! core spent on a cluster that, most of the time, did not change. So each
//! full refresh is timed, and the next one waits until the time spent stays
//! within [`BUDGET_PER_MILLE`] of the time passed: a refresh that took 300 ms is
//! followed by the next one 100 s later, one that took 5 ms by the configured
//! interval (the floor). The wait never exceeds the ceiling (the snapshot's
//! allowed staleness), so a slow refresh cannot make metadata go stale.
//!
//! The cost is the refresh's wall time, request to install: an upper bound
//! of kscope's own CPU for it (the time waiting for the answer counts too,
//! and that is the broker's work on kscope's behalf, which is worth sparing
//! as well). Only the full refresh is paced: the topics on screen keep their
//! own short interval and the liveness check its own cadence, both cheap.

use std::time::Duration;

use tokio::time::Instant;

/// The share of one core the full refresh may take, on average, in
/// thousandths (0.3 %).
pub const BUDGET_PER_MILLE: u32 = 3;

/// When the next full refresh is due.
#[derive(Debug, Clone)]
pub struct Pacer {
    floor: Duration,
    ceiling: Duration,
    next_full: Instant,
    last_cost: Option<Duration>,
}

impl Pacer {
    /// A pacer whose first full refresh is `floor` from now, and whose
    /// spacing stays between `floor` (the configured interval) and
    /// `ceiling` (never less than the floor).
    pub fn new(floor: Duration, ceiling: Duration) -> Pacer {
        Pacer {
            floor,
            ceiling: ceiling.max(floor),
            next_full: Instant::now() + floor,
            last_cost: None,
        }
    }

    /// When the next full refresh is due.
    pub fn next_full(&self) -> Instant {
        self.next_full
    }

    /// Whether the next full refresh is due at `now`.
    pub fn due(&self, now: Instant) -> bool {
        now >= self.next_full
    }

    /// What the last full refresh cost, once one ran.
    pub fn last_cost(&self) -> Option<Duration> {
        self.last_cost
    }

    /// The spacing a refresh that cost `cost` earns: `cost / budget`,
    /// within the floor and the ceiling.
    pub fn spacing(&self, cost: Duration) -> Duration {
        cost.checked_mul(1000)
            .map_or(self.ceiling, |scaled| scaled / BUDGET_PER_MILLE)
            .clamp(self.floor, self.ceiling)
    }

    /// A full refresh ran from `started` until `finished` (whatever its
    /// outcome: a failed one cost its time too); the next is due its
    /// spacing after it finished.
    pub fn ran(&mut self, started: Instant, finished: Instant) {
        let cost = finished.saturating_duration_since(started);
        self.last_cost = Some(cost);
        self.next_full = finished + self.spacing(cost);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLOOR: Duration = Duration::from_secs(10);
    const CEILING: Duration = Duration::from_mins(5);

    /// Run a "refresh" that takes `cost` on the paused clock.
    async fn refresh_costing(pacer: &mut Pacer, cost: Duration) {
        let started = Instant::now();
        tokio::time::advance(cost).await;
        pacer.ran(started, Instant::now());
    }

    #[tokio::test(start_paused = true)]
    async fn the_first_full_refresh_is_due_one_floor_after_start() {
        let start = Instant::now();
        let pacer = Pacer::new(FLOOR, CEILING);
        assert_eq!(pacer.next_full(), start + FLOOR);
        assert!(!pacer.due(start + FLOOR - Duration::from_millis(1)));
        assert!(pacer.due(start + FLOOR));
        assert_eq!(pacer.last_cost(), None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_cheap_refresh_keeps_the_configured_interval() {
        let mut pacer = Pacer::new(FLOOR, CEILING);
        tokio::time::advance(FLOOR).await;
        refresh_costing(&mut pacer, Duration::from_millis(5)).await;
        // 5 ms at 0.3 % would be 1.7 s: the configured 10 s is the floor.
        assert_eq!(pacer.next_full(), Instant::now() + FLOOR);
        assert_eq!(pacer.last_cost(), Some(Duration::from_millis(5)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_costly_refresh_spaces_the_next_to_stay_within_the_budget() {
        let mut pacer = Pacer::new(FLOOR, CEILING);
        tokio::time::advance(FLOOR).await;
        refresh_costing(&mut pacer, Duration::from_millis(300)).await;
        let wait = pacer.next_full() - Instant::now();
        assert_eq!(wait, Duration::from_secs(100));
        // Over the cycle the refresh took at most the budget's share.
        let share = 0.3 / (0.3 + wait.as_secs_f64());
        assert!(
            share <= f64::from(BUDGET_PER_MILLE) / 1000.0,
            "share {share}"
        );
        tokio::time::advance(Duration::from_millis(99_999)).await;
        assert!(!pacer.due(Instant::now()));
        tokio::time::advance(Duration::from_millis(1)).await;
        assert!(pacer.due(Instant::now()));
    }

    #[tokio::test(start_paused = true)]
    async fn the_spacing_follows_the_latest_cost_both_ways() {
        let mut pacer = Pacer::new(FLOOR, CEILING);
        refresh_costing(&mut pacer, Duration::from_millis(600)).await;
        assert_eq!(pacer.next_full() - Instant::now(), Duration::from_secs(200));
        // The cluster shrank (or the machine got quieter): back to the floor.
        refresh_costing(&mut pacer, Duration::from_millis(20)).await;
        assert_eq!(pacer.next_full() - Instant::now(), FLOOR);
    }

    #[tokio::test(start_paused = true)]
    async fn a_very_slow_refresh_never_waits_past_the_ceiling() {
        let mut pacer = Pacer::new(FLOOR, CEILING);
        refresh_costing(&mut pacer, Duration::from_secs(30)).await;
        assert_eq!(pacer.next_full() - Instant::now(), CEILING);
    }

    #[test]
    fn a_ceiling_below_the_floor_is_the_floor() {
        let pacer = Pacer::new(FLOOR, Duration::from_secs(1));
        assert_eq!(pacer.spacing(Duration::from_mins(1)), FLOOR);
        assert_eq!(pacer.spacing(Duration::ZERO), FLOOR);
    }
}
