//! `group_lag_trend_changed` events: a group's lag on a topic changed
//! direction sharply, judged over kscope's own reads of the group (the
//! list, its visible rows, the group on screen).
//!
//! ## The rule
//!
//! Each group and topic keeps its last [`HELD`] reads of the lag (the sum
//! over the topic's partitions that have a lag number) and of the end
//! offsets (the same partitions'). The last [`WINDOW`] reads are the
//! *window*; the reads before it (up to [`WINDOW`], sharing its first)
//! the window *before*. The window is
//!
//! - **growing** when the lag rose at every read of it, and in all by at
//!   least the *band*: [`FLOOR`] records, or half of what was produced to
//!   those partitions meanwhile when that is more (the group consumed less
//!   than half of it);
//! - otherwise, as a word for the events, *growing* or *shrinking* when it
//!   rose or fell by the band overall, *steady* when it moved less.
//!
//! An event is said when lag *starts growing* (the window is growing, and
//! growth was not last said), when it *grows [`FASTER`] times as fast* as
//! the growth last said, and when *growth ends* (growth was said and the
//! window's lag did not rise by the band overall). Between "growing"
//! (strict growth by the band) and "not growing" (no rise by the band) is
//! a margin where nothing is said, so a lag on the edge does not flap.
//! The first full window is the baseline: what it shows is state, not
//! news.
//!
//! Why so: a healthy consumer that commits every few seconds has a lag
//! that saw-tooths between 0 and what is produced between two commits.
//! Sampled at reads no closer than its commits, that saw-tooth cannot rise
//! at three reads in a row by half of what was produced over them; a
//! stopped or far too slow consumer does at every read. The floor keeps
//! a quiet topic's few records from counting at all. What is missed: a
//! consumer that keeps up with more than half of the production while
//! falling behind (its lag grows slower than half the production rate);
//! a consumer committing less often than kscope reads it may saw-tooth
//! past the rule.
//!
//! A read within [`MIN_GAP`] of the last one is skipped (the list and the
//! group on screen may answer a moment apart). A topic whose counted
//! partitions change, or whose end offsets go back, starts over from a
//! new baseline.
//!
//! Memory: [`HELD`] reads of 32 bytes, about 260 bytes, for each topic of
//! each group read with a lag number, Empty groups included (a stopped
//! consumer is the case this is for); dropped with the group from the
//! list. A read allocates per group (its key, its topics' sums), never per
//! partition.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::meta::{MovementEvent, MovementKind};

use super::lag::GroupLag;
use super::refresh::Overview;

/// Reads in a window.
pub const WINDOW: usize = 4;
/// Reads held: the window and the window before it (sharing a read).
pub const HELD: usize = 2 * WINDOW - 1;
/// The least change, in records, that counts as growing or shrinking.
pub const FLOOR: i64 = 100;
/// How many times as fast growth must be to be said again.
pub const FASTER: f64 = 4.0;
/// Reads closer than this to the last one are skipped.
pub const MIN_GAP: Duration = Duration::from_secs(1);

/// One read of a topic's lag.
#[derive(Debug, Clone, Copy)]
struct Read {
    at: Instant,
    /// The lag summed over the counted partitions.
    lag: i64,
    /// Their end offsets summed.
    end: i64,
}

/// Where a window's lag went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Way {
    Growing,
    Shrinking,
    Steady,
}

impl Way {
    fn name(self) -> &'static str {
        match self {
            Way::Growing => "growing",
            Way::Shrinking => "shrinking",
            Way::Steady => "steady",
        }
    }
}

/// What a window says.
struct Window<'a>(&'a [Read]);

impl Window<'_> {
    fn ends(&self) -> (Read, Read) {
        (self.0[0], self.0[self.0.len() - 1])
    }

    /// The lag's change per second over the window.
    fn rate(&self) -> f64 {
        let (first, last) = self.ends();
        let secs = last.at.duration_since(first.at).as_secs_f64();
        #[allow(clippy::cast_precision_loss)] // lags far below 2^52
        let rise = (last.lag - first.lag) as f64;
        if secs > 0.0 { rise / secs } else { 0.0 }
    }

    /// The least change that counts: the floor, or half of what was
    /// produced over the window when that is more.
    fn band(&self) -> i64 {
        let (first, last) = self.ends();
        FLOOR.max((last.end - first.end) / 2)
    }

    /// Growing by the rule (see the module docs).
    fn growing(&self) -> bool {
        let (first, last) = self.ends();
        self.0.windows(2).all(|w| w[1].lag > w[0].lag) && last.lag - first.lag >= self.band()
    }

    /// Where it went overall, by the band.
    fn way(&self) -> Way {
        let (first, last) = self.ends();
        let band = self.band();
        match last.lag - first.lag {
            rise if rise >= band => Way::Growing,
            rise if rise <= -band => Way::Shrinking,
            _ => Way::Steady,
        }
    }
}

/// A change said: from, to, the rates before and after (before: the
/// window before's when growth starts, the growth last said when it speeds
/// up or ends).
type Change = (Way, Way, f64, f64);

/// One topic of one group.
#[derive(Debug, Clone)]
struct Track {
    topic: Arc<str>,
    reads: [Read; HELD],
    len: usize,
    /// The partitions counted in the reads.
    counted: usize,
    /// Whether the baseline is taken.
    judged: bool,
    /// Whether growth was last said, and at what rate.
    growing: bool,
    told_rate: f64,
}

impl Track {
    fn new(topic: &Arc<str>, at: Instant) -> Track {
        Track {
            topic: Arc::clone(topic),
            reads: [Read { at, lag: 0, end: 0 }; HELD],
            len: 0,
            counted: 0,
            judged: false,
            growing: false,
            told_rate: 0.0,
        }
    }

    /// Take a read; what changed, if anything is to be said.
    fn push(&mut self, read: Read, counted: usize) -> Option<Change> {
        if let Some(newest) = self.reads[..self.len].last() {
            if read.at < newest.at + MIN_GAP {
                return None;
            }
            if counted != self.counted || read.end < newest.end {
                self.len = 0;
                self.judged = false;
                self.growing = false;
            }
        }
        self.counted = counted;
        if self.len == HELD {
            self.reads.copy_within(1..HELD, 0);
            self.len -= 1;
        }
        self.reads[self.len] = read;
        self.len += 1;
        self.judge()
    }

    fn judge(&mut self) -> Option<Change> {
        let held = &self.reads[..self.len];
        let start = held.len().checked_sub(WINDOW)?;
        let now = Window(&held[start..]);
        let (growing, rate) = (now.growing(), now.rate());
        if !self.judged {
            self.judged = true;
            self.growing = growing;
            self.told_rate = rate;
            return None;
        }
        let before = Window(&held[start.saturating_sub(WINDOW - 1)..=start]);
        let change = if growing && !self.growing {
            Some((before.way(), Way::Growing, before.rate(), rate))
        } else if growing && rate >= FASTER * self.told_rate {
            Some((Way::Growing, Way::Growing, self.told_rate, rate))
        } else if self.growing && !growing && now.way() != Way::Growing {
            // Growth ends only when the window did not rise by the band.
            Some((Way::Growing, now.way(), self.told_rate, rate))
        } else {
            None
        };
        if change.is_some() {
            self.growing = growing;
            self.told_rate = rate;
        }
        change
    }

    fn lag(&self) -> i64 {
        self.reads[..self.len].last().map_or(0, |r| r.lag)
    }
}

/// Each topic's lag and end offsets summed over the partitions with a lag
/// number, and how many those are, in topic order.
fn per_topic(lag: &GroupLag) -> Vec<(&Arc<str>, i64, i64, usize)> {
    let mut out: Vec<(&Arc<str>, i64, i64, usize)> = Vec::with_capacity(lag.per_topic.len());
    for p in &lag.partitions {
        let (Some(records), Some(end)) = (p.records(), p.end) else {
            continue;
        };
        match out.last_mut() {
            Some((topic, sum, ends, counted)) if **topic == p.topic => {
                *sum = sum.saturating_add(records);
                *ends = ends.saturating_add(end);
                *counted += 1;
            }
            _ => out.push((&p.topic, records, end, 1)),
        }
    }
    out
}

fn rounded(rate: f64) -> i64 {
    #[allow(clippy::cast_possible_truncation)] // saturates, as `as` does
    let rate = rate.round() as i64;
    rate
}

/// The lag trend of every group read, across reads.
#[derive(Debug, Default)]
pub struct TrendWatch {
    groups: BTreeMap<String, Vec<Track>>,
}

impl TrendWatch {
    /// A read of the whole list: groups not in it are forgotten, groups
    /// whose offsets were not read keep what they held.
    pub fn observe(
        &mut self,
        overview: &Overview,
        at: Instant,
        wall: SystemTime,
    ) -> Vec<MovementEvent> {
        let mut out = Vec::new();
        let mut kept = BTreeMap::new();
        for summary in &overview.groups {
            let name = &summary.listing.group;
            let mut tracks = self.groups.remove(name).unwrap_or_default();
            if let Some(lag) = &summary.lag {
                judge(name, &mut tracks, lag, (at, wall), &mut out);
            }
            if !tracks.is_empty() {
                kept.insert(name.clone(), tracks);
            }
        }
        self.groups = kept;
        out
    }

    /// A read of one group alone: the others are kept as they were.
    pub fn observe_group(
        &mut self,
        group: &str,
        lag: &GroupLag,
        at: Instant,
        wall: SystemTime,
    ) -> Vec<MovementEvent> {
        let mut out = Vec::new();
        let tracks = self.groups.entry(group.to_owned()).or_default();
        judge(group, tracks, lag, (at, wall), &mut out);
        if tracks.is_empty() {
            self.groups.remove(group);
        }
        out
    }
}

/// Take `lag` into `tracks` (one per topic with a lag number, in topic
/// order; topics gone from it are dropped) and push what changed to `out`.
fn judge(
    group: &str,
    tracks: &mut Vec<Track>,
    lag: &GroupLag,
    (at, wall): (Instant, SystemTime),
    out: &mut Vec<MovementEvent>,
) {
    let topics = per_topic(lag);
    if tracks.len() != topics.len() || tracks.iter().zip(&topics).any(|(t, n)| t.topic != *n.0) {
        let mut old = std::mem::take(tracks);
        for (topic, ..) in &topics {
            let held = old.iter().position(|t| t.topic == **topic);
            tracks.push(held.map_or_else(|| Track::new(topic, at), |i| old.swap_remove(i)));
        }
    }
    for (track, (_, lag, end, counted)) in tracks.iter_mut().zip(topics) {
        let Some((from, to, before, after)) = track.push(Read { at, lag, end }, counted) else {
            continue;
        };
        out.push(MovementEvent {
            time: wall,
            topic: Some(track.topic.to_string()),
            partition: None,
            kind: MovementKind::GroupLagTrendChanged {
                group: group.to_owned(),
                from: from.name().to_owned(),
                to: to.name().to_owned(),
                rate_before: rounded(before),
                rate_after: rounded(after),
                lag: track.lag(),
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::PartitionLag;

    /// `orders`' partitions 0 and 1 committed at `committed` each, their
    /// ends at `end` each.
    fn lag(committed: i64, end: i64) -> GroupLag {
        GroupLag::new(
            (0..2)
                .map(|partition| PartitionLag {
                    topic: "orders".into(),
                    partition,
                    committed: Some(committed),
                    end: Some(end),
                    start: Some(0),
                    reported: None,
                })
                .collect(),
        )
    }

    /// Feed `(committed, end)` reads 5 s apart; each event's read index,
    /// from, to and rates.
    fn run(reads: &[(i64, i64)]) -> Vec<(usize, String, String, i64, i64, i64)> {
        let mut watch = TrendWatch::default();
        let start = Instant::now();
        let mut said = Vec::new();
        for (i, &(committed, end)) in reads.iter().enumerate() {
            let at = start + Duration::from_secs(5 * u64::try_from(i).unwrap_or(0));
            for event in
                watch.observe_group("billing", &lag(committed, end), at, SystemTime::UNIX_EPOCH)
            {
                assert_eq!(event.topic.as_deref(), Some("orders"));
                assert_eq!(event.group(), Some("billing"));
                let MovementKind::GroupLagTrendChanged {
                    from,
                    to,
                    rate_before,
                    rate_after,
                    lag,
                    ..
                } = &event.kind
                else {
                    panic!("{event:?}");
                };
                said.push((i, from.clone(), to.clone(), *rate_before, *rate_after, *lag));
            }
        }
        said
    }

    /// A consumer keeping up (commits trailing the end by a saw-tooth up
    /// to 400 records a partition) for `n` reads from read `from`, 1000
    /// records a partition produced between reads.
    fn keeping_up(from: i64, n: i64) -> Vec<(i64, i64)> {
        (from..from + n)
            .map(|i| {
                let end = 1000 * i;
                (
                    end - [0, 400, 150, 390, 10][usize::try_from(i % 5).unwrap_or(0)],
                    end,
                )
            })
            .collect()
    }

    #[test]
    fn a_consumer_that_stops_is_said_growing_once_and_its_recovery_once() {
        let mut reads = keeping_up(10, 8);
        // It stops at 17_000: the end goes on, 1000 a read.
        reads.extend((18..24).map(|i| (17_000, 1000 * i)));
        // It resumes and catches up in a few reads.
        reads.extend([
            (22_000, 24_000),
            (24_500, 25_000),
            (25_900, 26_000),
            (26_950, 27_000),
        ]);
        let said = run(&reads);
        let words: Vec<(usize, &str, &str)> = said
            .iter()
            .map(|(i, f, t, ..)| (*i, f.as_str(), t.as_str()))
            .collect();
        // Stopped at read 8; the window of 4 reads grows at reads 8..=10
        // (its first read is the last one kept up).
        assert_eq!(
            words,
            [(10, "steady", "growing"), (14, "growing", "shrinking")],
            "{said:?}"
        );
        let (_, _, _, before, after, lag) = &said[0];
        assert!(before.abs() < 100, "kept up: {before}");
        // Two partitions, 2000 records a read, 5 s apart.
        // Two partitions from 150 behind to 3000 behind each, over 15 s.
        assert_eq!((*after, *lag), (380, 2 * (20_000 - 17_000)));
        assert!(said[1].4 < 0, "draining: {said:?}");
        assert_eq!(said[1].3, 380, "the growth said before it ended");
    }

    #[test]
    fn a_saw_tooth_a_quiet_topic_and_the_baseline_say_nothing() {
        assert!(run(&keeping_up(10, 30)).is_empty());
        // A tiny lag creeping up: under the floor.
        let creeping: Vec<(i64, i64)> = (0..20).map(|i| (0, 2 * i)).collect();
        assert!(run(&creeping).is_empty());
        // Growing from the first read: the baseline, not news.
        let growing: Vec<(i64, i64)> = (1..12).map(|i| (0, 1000 * i)).collect();
        assert!(run(&growing).is_empty());
    }

    #[test]
    fn growth_four_times_as_fast_is_said_again() {
        // Stopped from the start (baseline growing at 200/s a partition)…
        let mut reads: Vec<(i64, i64)> = (1..6).map(|i| (0, 1000 * i)).collect();
        // …then production goes to 4000 a read: 800/s a partition.
        reads.extend((1..5).map(|i| (0, 5000 + 4000 * i)));
        let said = run(&reads);
        assert_eq!(said.len(), 1, "{said:?}");
        let (_, from, to, before, after, _) = &said[0];
        assert_eq!((from.as_str(), to.as_str()), ("growing", "growing"));
        assert!(*after >= 4 * *before, "{said:?}");
    }

    #[test]
    fn reads_too_close_are_skipped_and_a_changed_partition_set_starts_over() {
        let mut watch = TrendWatch::default();
        let start = Instant::now();
        let wall = SystemTime::UNIX_EPOCH;
        let at = |ms: u64| start + Duration::from_millis(ms);
        assert!(
            watch
                .observe_group("g", &lag(0, 100), at(0), wall)
                .is_empty()
        );
        assert!(
            watch
                .observe_group("g", &lag(0, 200), at(500), wall)
                .is_empty()
        );
        let held = &watch.groups["g"][0];
        assert_eq!(held.len, 1, "the read half a second later is skipped");
        // One partition fewer counted: a new baseline.
        let mut fewer = lag(0, 300);
        fewer.partitions[1].end = None;
        let fewer = GroupLag::new(fewer.partitions);
        assert!(watch.observe_group("g", &fewer, at(2000), wall).is_empty());
        assert_eq!(watch.groups["g"][0].len, 1);
    }

    #[test]
    fn the_list_forgets_groups_no_longer_in_it() {
        use crate::groups::{GroupListing, GroupState, GroupSummary, GroupType, RequestCounts};
        let mut watch = TrendWatch::default();
        watch.observe_group("gone", &lag(0, 100), Instant::now(), SystemTime::UNIX_EPOCH);
        let overview = Overview {
            groups: vec![GroupSummary {
                listing: GroupListing {
                    group: "kept".to_owned(),
                    group_type: GroupType::Classic,
                    state: GroupState::Stable,
                    protocol_type: "consumer".to_owned(),
                    coordinator: 1,
                },
                members: Some(1),
                state: GroupState::Stable,
                topics: Vec::new(),
                lag: Some(lag(0, 100)),
                reconciling: None,
                error: None,
            }],
            failed_brokers: Vec::new(),
            requests: RequestCounts::default(),
        };
        watch.observe(&overview, Instant::now(), SystemTime::UNIX_EPOCH);
        assert_eq!(watch.groups.keys().collect::<Vec<_>>(), ["kept"]);
    }
}
