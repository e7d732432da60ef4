//! Lag over time: a bounded history of samples per group (and per partition
//! for the group being viewed), and what it says — production and
//! consumption rates, the trend, and how long until the group catches up.
//!
//! A group's samples are taken with [`LagHistory::record`], which works
//! per partition: each refresh adds, for every partition seen in this
//! refresh and the one before, how far its end and committed offsets moved
//! (never backwards) to two running totals. Rates come from those totals
//! (production = Δproduced/Δt, consumption = Δconsumed/Δt), so they do not
//! jump when a partition joins or leaves the group's sum. Memory is bounded
//! by `capacity` samples per history (the oldest is dropped) plus the
//! previous refresh's offsets (24 bytes a partition).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::lag::GroupLag;

/// The default number of samples kept (a sample every 5 s: 10 minutes).
pub const DEFAULT_CAPACITY: usize = 120;

/// One observation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LagSample {
    /// When it was taken.
    pub at: Instant,
    /// Total lag in records.
    pub lag: i64,
    /// A running total of records consumed (committed past); only its
    /// change between samples means anything.
    pub committed: i64,
    /// A running total of records produced; only its change between
    /// samples means anything.
    pub end: i64,
}

/// A partition's offsets at the previous refresh, keyed by a hash of its
/// topic and number (a collision only merges two partitions' deltas).
type Offsets = (u64, i64, i64);

fn offsets_of(lag: &GroupLag) -> Vec<Offsets> {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    let hasher = BuildHasherDefault::<DefaultHasher>::default();
    let mut out: Vec<Offsets> = lag
        .partitions
        .iter()
        .filter_map(|p| {
            let (committed, end) = (p.committed?, p.end?);
            Some((hasher.hash_one((&p.topic, p.partition)), committed, end))
        })
        .collect();
    out.sort_unstable_by_key(|(key, _, _)| *key);
    out
}

/// Where lag is heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trend {
    /// Lag is going up: production outpaces consumption.
    Growing,
    /// Lag is going down.
    Shrinking,
    /// Within a record per second either way.
    Steady,
    /// Fewer than two samples.
    Unknown,
}

impl Trend {
    /// An arrow for a table cell.
    pub fn arrow(self) -> &'static str {
        match self {
            Trend::Growing => "↑",
            Trend::Shrinking => "↓",
            Trend::Steady => "→",
            Trend::Unknown => "·",
        }
    }
}

/// A sample as a history keeps it: 20 bytes instead of [`LagSample`]'s 40.
/// Its time is in milliseconds after the history's base, and its running
/// totals are kept as what they grew by since the sample before (the
/// oldest kept sample's are in [`LagHistory::front`]); packed to 4-byte
/// alignment (an `i64`-aligned layout would pad it to 24).
#[derive(Debug, Clone, Copy)]
#[repr(C, packed(4))]
struct Stored {
    lag: i64,
    after_base_ms: u32,
    /// Records consumed since the sample before (0 for the oldest).
    consumed: u32,
    /// Records produced since the sample before (0 for the oldest).
    produced: u32,
}

/// A bounded series of samples.
///
/// Held for every group of the session (10,000 on a large cluster), so its
/// size matters: samples are stored as [`Stored`] (20 bytes) and room is
/// taken exactly, never past `capacity` (a `VecDeque` left to double would
/// hold 64 slots for 40 samples), in two steps (see `push`).
///
/// Running totals never go down; a sample whose total went down, or grew
/// by 2^32 records or more since the sample before (hours unread on a
/// very busy group), starts the history over from itself.
#[derive(Debug, Clone)]
pub struct LagHistory {
    /// The time `Stored::after_base_ms` counts from.
    base: Option<Instant>,
    samples: VecDeque<Stored>,
    /// The running totals (consumed, produced) of the oldest kept sample.
    front: (i64, i64),
    capacity: usize,
    /// The offsets of the last refresh recorded, sorted by key.
    last: Vec<Offsets>,
}

impl Default for LagHistory {
    fn default() -> Self {
        LagHistory::new(DEFAULT_CAPACITY)
    }
}

fn per_second(delta: i64, over: Duration) -> Option<f64> {
    let secs = over.as_secs_f64();
    #[allow(clippy::cast_precision_loss)] // offsets far below 2^52 per window
    (secs > 0.0).then(|| delta as f64 / secs)
}

/// The samples of a history, oldest first, their running totals summed up
/// as they go.
pub struct Samples<'a> {
    base: Instant,
    stored: std::collections::vec_deque::Iter<'a, Stored>,
    /// The totals of the sample before the next; `None` before the first.
    totals: Option<(i64, i64)>,
    front: (i64, i64),
}

impl Iterator for Samples<'_> {
    type Item = LagSample;

    fn next(&mut self) -> Option<LagSample> {
        let stored = *self.stored.next()?;
        let (consumed, produced) = match self.totals {
            None => self.front,
            Some((c, p)) => (
                c.saturating_add(i64::from(stored.consumed)),
                p.saturating_add(i64::from(stored.produced)),
            ),
        };
        self.totals = Some((consumed, produced));
        Some(LagSample {
            at: self.base + Duration::from_millis(u64::from(stored.after_base_ms)),
            lag: stored.lag,
            committed: consumed,
            end: produced,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stored.size_hint()
    }
}

impl ExactSizeIterator for Samples<'_> {}

impl LagHistory {
    /// An empty history keeping at most `capacity` samples (at least 2);
    /// room is taken as samples arrive, not up front.
    pub fn new(capacity: usize) -> LagHistory {
        LagHistory {
            base: None,
            samples: VecDeque::new(),
            front: (0, 0),
            capacity: capacity.max(2),
            last: Vec::new(),
        }
    }

    /// Record one refresh of a group's lag, per partition (see the module
    /// docs): a partition counts towards the rates from its second refresh
    /// on, and one that leaves takes nothing with it. A refresh older than
    /// the newest sample is ignored.
    pub fn record(&mut self, at: Instant, lag: &GroupLag) {
        let Some(newest) = self.newest() else {
            self.last = offsets_of(lag);
            self.push(LagSample {
                at,
                lag: lag.totals.records,
                committed: 0,
                end: 0,
            });
            return;
        };
        if at < newest.at {
            return;
        }
        let now = offsets_of(lag);
        let (mut consumed, mut produced) = (newest.committed, newest.end);
        let mut before = self.last.iter().peekable();
        for &(key, committed, end) in &now {
            while before.next_if(|(k, _, _)| *k < key).is_some() {}
            if let Some(&&(_, was_committed, was_end)) = before.peek().filter(|(k, _, _)| *k == key)
            {
                consumed = consumed.saturating_add((committed - was_committed).max(0));
                produced = produced.saturating_add((end - was_end).max(0));
            }
        }
        // In place: the history's own allocation stays where it is.
        self.last.clear();
        self.last.extend_from_slice(&now);
        self.push(LagSample {
            at,
            lag: lag.totals.records,
            committed: consumed,
            end: produced,
        });
    }

    /// Add a sample, dropping the oldest when full. A sample older than the
    /// newest (a stale answer landing late) is ignored.
    pub fn push(&mut self, sample: LagSample) {
        let newest = self.newest();
        if newest.is_some_and(|last| sample.at < last.at) {
            return;
        }
        let Some(after_base_ms) = self.after_base(sample.at) else {
            return;
        };
        // What the totals grew by since the newest (after a rebase, which
        // keeps the newest, the same).
        let growth = newest.and_then(|last| {
            let consumed = u32::try_from(sample.committed.checked_sub(last.committed)?).ok()?;
            let produced = u32::try_from(sample.end.checked_sub(last.end)?).ok()?;
            Some((consumed, produced))
        });
        let (consumed, produced) = growth.unwrap_or_else(|| {
            // The first sample, or one the totals cannot reach from the
            // newest: the history starts from it.
            self.samples.clear();
            self.front = (sample.committed, sample.end);
            (0, 0)
        });
        if self.samples.len() == self.capacity {
            self.samples.pop_front();
            if let Some(next) = self.samples.front() {
                self.front = (
                    self.front.0.saturating_add(i64::from(next.consumed)),
                    self.front.1.saturating_add(i64::from(next.produced)),
                );
            }
        }
        if self.samples.len() == self.samples.capacity() {
            // Room for 4 (a group polled rarely may keep no more for long),
            // then all of it at once: two allocations in the history's life,
            // not a doubling that frees a buffer each time among the short-
            // lived heap of every answer (the holes keep pages resident).
            let room = if self.samples.is_empty() {
                4
            } else {
                self.capacity
            };
            self.samples
                .reserve_exact(room.min(self.capacity) - self.samples.len());
        }
        self.samples.push_back(Stored {
            lag: sample.lag,
            after_base_ms,
            consumed,
            produced,
        });
    }

    /// `at` in milliseconds after the base, which is the first sample's time
    /// (moved to the oldest kept sample when 2^32 ms, 49 days, run out; the
    /// samples older than that are dropped). `None` only for a time before
    /// the base, which `push` has already refused.
    fn after_base(&mut self, at: Instant) -> Option<u32> {
        let base = *self.base.get_or_insert(at);
        let millis =
            |from: Instant| u32::try_from(at.checked_duration_since(from)?.as_millis()).ok();
        if let Some(ms) = millis(base) {
            return Some(ms);
        }
        let kept: Vec<LagSample> = self.samples().filter(|s| millis(s.at).is_some()).collect();
        let new_base = kept.first().map_or(at, |s| s.at);
        self.base = Some(new_base);
        self.samples.clear();
        if let Some(first) = kept.first() {
            self.front = (first.committed, first.end);
        }
        let mut before: Option<LagSample> = None;
        for sample in kept {
            let ms = u32::try_from(sample.at.duration_since(new_base).as_millis()).ok()?;
            // Kept samples were within 2^32 of each other already.
            let grew = |now: i64, was: i64| u32::try_from(now - was).unwrap_or(u32::MAX);
            let (consumed, produced) = before.map_or((0, 0), |b| {
                (grew(sample.committed, b.committed), grew(sample.end, b.end))
            });
            self.samples.push_back(Stored {
                lag: sample.lag,
                after_base_ms: ms,
                consumed,
                produced,
            });
            before = Some(sample);
        }
        millis(new_base)
    }

    fn newest(&self) -> Option<LagSample> {
        self.samples().last()
    }

    /// The samples, oldest first.
    pub fn samples(&self) -> Samples<'_> {
        Samples {
            base: self.base.unwrap_or_else(Instant::now),
            stored: self.samples.iter(),
            totals: None,
            front: self.front,
        }
    }

    /// Lag values, oldest first (for a sparkline).
    pub fn lags(&self) -> Vec<i64> {
        self.samples.iter().map(|s| s.lag).collect()
    }

    /// Whether a partition's consumer is stuck: over its last `reads` reads
    /// (at least 2) the committed offset stood still while the end offset
    /// moved, and it still has lag. A quiet topic (the end still too) is
    /// not stuck, nor is a consumer that commits rarely but did within the
    /// window. For one partition's history (see [`super::PartitionHistories`]).
    pub fn stuck(&self, reads: usize) -> bool {
        let reads = reads.max(2);
        let samples = self.samples();
        let Some(skip) = samples.len().checked_sub(reads) else {
            return false;
        };
        let window: Vec<LagSample> = samples.skip(skip).collect();
        let (first, last) = (window[0], window[window.len() - 1]);
        last.lag > 0
            && last.end > first.end
            && window.iter().all(|s| s.committed == first.committed)
    }

    fn ends(&self) -> Option<(LagSample, LagSample)> {
        let first = self.samples().next()?;
        let last = self.newest()?;
        (last.at > first.at).then_some((first, last))
    }

    /// Records produced per second over the history.
    pub fn production_rate(&self) -> Option<f64> {
        let (first, last) = self.ends()?;
        per_second(last.end - first.end, last.at - first.at)
    }

    /// Records consumed (committed past) per second over the history.
    pub fn consumption_rate(&self) -> Option<f64> {
        let (first, last) = self.ends()?;
        per_second(last.committed - first.committed, last.at - first.at)
    }

    /// Where lag is heading, from its change per second over the history.
    pub fn trend(&self) -> Trend {
        let Some((first, last)) = self.ends() else {
            return Trend::Unknown;
        };
        match per_second(last.lag - first.lag, last.at - first.at) {
            Some(rate) if rate > 1.0 => Trend::Growing,
            Some(rate) if rate < -1.0 => Trend::Shrinking,
            Some(_) => Trend::Steady,
            None => Trend::Unknown,
        }
    }

    /// How long until lag reaches 0 at the current net rate (consumption
    /// minus production); `Some(ZERO)` when there is none, `None` when the
    /// group is not catching up (or there is too little history).
    pub fn time_to_catch_up(&self) -> Option<Duration> {
        let last = self.samples.back()?;
        if last.lag == 0 {
            return Some(Duration::ZERO);
        }
        let net = self.consumption_rate()? - self.production_rate()?;
        #[allow(clippy::cast_precision_loss)]
        let secs = last.lag as f64 / net;
        (net > 0.0 && secs.is_finite()).then(|| Duration::from_secs_f64(secs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::lag::PartitionLag;

    fn sample(base: Instant, secs: u64, committed: i64, end: i64) -> LagSample {
        LagSample {
            at: base + Duration::from_secs(secs),
            lag: end - committed,
            committed,
            end,
        }
    }

    #[test]
    fn rates_trend_and_catch_up_come_from_offset_deltas() {
        let t0 = Instant::now();
        let mut history = LagHistory::new(10);
        assert_eq!(history.trend(), Trend::Unknown);
        history.push(sample(t0, 0, 0, 1000));
        history.push(sample(t0, 10, 300, 1100));
        assert_eq!(history.production_rate(), Some(10.0));
        assert_eq!(history.consumption_rate(), Some(30.0));
        assert_eq!(history.trend(), Trend::Shrinking);
        // 800 left at a net 20/s: 40 s.
        assert_eq!(history.time_to_catch_up(), Some(Duration::from_secs(40)));
        history.push(sample(t0, 20, 310, 1400));
        assert_eq!(history.trend(), Trend::Growing);
        assert_eq!(history.time_to_catch_up(), None);
    }

    #[test]
    fn a_history_longer_than_49_days_keeps_its_times() {
        let t0 = Instant::now();
        let day = 24 * 3600;
        let mut history = LagHistory::new(3);
        history.push(sample(t0, 0, 0, 10));
        history.push(sample(t0, 30 * day, 0, 20));
        // 2^32 ms after the first sample: the base moves, the first goes.
        history.push(sample(t0, 50 * day, 0, 30));
        history.push(sample(t0, 50 * day + 10, 0, 40));
        let times: Vec<Duration> = history.samples().map(|s| s.at - t0).collect();
        assert_eq!(
            times,
            [30 * day, 50 * day, 50 * day + 10].map(Duration::from_secs)
        );
        assert_eq!(history.lags(), [20, 30, 40]);
    }

    #[test]
    fn room_is_taken_exactly_up_to_the_capacity() {
        let t0 = Instant::now();
        let mut history = LagHistory::new(40);
        for i in 0..100 {
            history.push(sample(t0, i, 0, 1));
            assert!(
                history.samples.capacity() <= 40,
                "{}",
                history.samples.capacity()
            );
        }
        assert_eq!(history.samples().len(), 40);
        assert_eq!(std::mem::size_of::<Stored>(), 20);
    }

    #[test]
    fn running_totals_come_back_exactly_after_the_oldest_go() {
        let t0 = Instant::now();
        let mut history = LagHistory::new(4);
        let big = 3_000_000_000_i64; // each step fits in 32 bits, the totals do not
        for i in 0..10_i64 {
            let secs = u64::try_from(i).unwrap_or(0);
            history.push(sample(t0, secs, big * i, big * i + 7 * i));
        }
        let totals: Vec<(i64, i64)> = history.samples().map(|s| (s.committed, s.end)).collect();
        let want: Vec<(i64, i64)> = (6..10).map(|i| (big * i, big * i + 7 * i)).collect();
        assert_eq!(totals, want);
        // 3 s from the oldest kept to the newest.
        assert_eq!(history.consumption_rate(), Some(3e9));
        assert_eq!(history.production_rate(), Some(3e9 + 7.0));
    }

    #[test]
    fn a_total_that_falls_or_jumps_past_32_bits_starts_the_history_over() {
        let t0 = Instant::now();
        let mut history = LagHistory::new(10);
        history.push(sample(t0, 0, 0, 100));
        history.push(sample(t0, 1, 10, 200));
        history.push(sample(t0, 2, 5, 300));
        assert_eq!(history.samples().len(), 1, "the consumed total fell");
        history.push(sample(t0, 3, 6, 301));
        history.push(sample(t0, 4, 7, 301 + (1 << 32)));
        assert_eq!(history.samples().len(), 1, "grew by 2^32");
        let only = history.samples().next().map(|s| (s.committed, s.end));
        assert_eq!(only, Some((7, 301 + (1 << 32))));
    }

    #[test]
    fn the_history_is_bounded_and_ignores_late_samples() {
        let t0 = Instant::now();
        let mut history = LagHistory::new(3);
        for i in 0..10 {
            history.push(sample(t0, i, 0, i64::try_from(i).unwrap_or(0)));
        }
        assert_eq!(history.lags(), [7, 8, 9]);
        history.push(sample(t0, 1, 0, 100));
        assert_eq!(history.samples().len(), 3);
        assert_eq!(history.trend(), Trend::Steady);
    }

    fn part(partition: i32, committed: i64, end: i64) -> PartitionLag {
        PartitionLag {
            topic: "t".into(),
            partition,
            committed: Some(committed),
            end: Some(end),
            start: None,
            reported: None,
        }
    }

    #[test]
    fn rates_do_not_jump_when_a_partition_joins_or_leaves() {
        let t0 = Instant::now();
        let at = |secs| t0 + Duration::from_secs(secs);
        let mut history = LagHistory::new(10);
        history.record(at(0), &GroupLag::new(vec![part(0, 100, 200)]));
        // Partition 1 (a million records in) joins the sum.
        history.record(
            at(10),
            &GroupLag::new(vec![part(0, 150, 300), part(1, 1_000_000, 1_000_500)]),
        );
        assert_eq!(history.production_rate(), Some(10.0));
        assert_eq!(history.consumption_rate(), Some(5.0));
        history.record(
            at(20),
            &GroupLag::new(vec![part(0, 200, 400), part(1, 1_000_100, 1_000_600)]),
        );
        assert_eq!(history.production_rate(), Some(15.0));
        assert_eq!(history.consumption_rate(), Some(10.0));
        // Partition 1 leaves: nothing is taken back.
        history.record(at(30), &GroupLag::new(vec![part(0, 250, 500)]));
        assert_eq!(history.production_rate(), Some(400.0 / 30.0));
        assert_eq!(history.consumption_rate(), Some(250.0 / 30.0));
        assert_eq!(history.lags(), [100, 650, 700, 250]);
    }

    #[test]
    fn partition_histories_follow_the_group() {
        let t0 = Instant::now();
        let lag = |committed| {
            GroupLag::new(vec![
                PartitionLag {
                    topic: "t".into(),
                    partition: 0,
                    committed: Some(committed),
                    end: Some(50),
                    start: None,
                    reported: None,
                },
                PartitionLag {
                    topic: "t".into(),
                    partition: 1,
                    committed: None,
                    end: Some(50),
                    start: None,
                    reported: None,
                },
            ])
        };
        let mut histories = crate::groups::PartitionHistories::new(5);
        histories.record(t0, &lag(10));
        histories.record(t0 + Duration::from_secs(2), &lag(30));
        let p0 = histories.get("t", 0).expect("tracked");
        assert_eq!(p0.lags(), [40, 20]);
        assert_eq!(p0.consumption_rate(), Some(10.0));
        assert!(histories.get("t", 1).is_none());
    }
}
