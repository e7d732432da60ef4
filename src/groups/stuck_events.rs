//! `group_stuck` and `group_moving` events from reads of the group list:
//! each group's partitions keep their last few reads (`reads`, at most
//! [`MAX_READS`]), and a partition is STUCK as
//! [`super::LagHistory::stuck`] says (its commit still over the last
//! `reads` reads while the end moved, lag left) while the group has
//! members. An event is said when a partition becomes STUCK and when it
//! stops being so, not on every read.
//!
//! Memory: about 100 bytes for each partition of each group read that has
//! members (its reads inline, its topic name shared with the answer it
//! came in), dropped with the group or its members: an Empty group holds
//! nothing. A read allocates one list per group with members, nothing per
//! partition.
//!
//! [`GroupEvents`] is what a reader of groups holds: these, the list's
//! changes, the lag trend (`super::lag_trend`) and KIP-848 reconciliation
//! (`super::reconcile_events`), rate limited per kind as the movement log
//! is.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use crate::meta::{EventGate, Limits, MovementEvent, MovementKind};

use super::lag::GroupLag;
use super::lag_trend::TrendWatch;
use super::reconcile_events::ReconcileWatch;
use super::reconciling::Reconciling;
use super::refresh::{GroupDetail, GroupSummary, Overview};

/// The most reads a partition is judged over.
pub const MAX_READS: usize = 4;

/// One partition of a group: its last reads with a lag number.
#[derive(Debug, Clone)]
struct Track {
    topic: Arc<str>,
    partition: i32,
    /// `(committed, end)` of the last `len` reads, oldest first.
    reads: [(i64, i64); MAX_READS],
    len: usize,
    /// The last read's lag.
    lag: i64,
    /// Whether it was said STUCK.
    stuck: bool,
}

impl Track {
    fn new(topic: &Arc<str>, partition: i32) -> Track {
        Track {
            topic: Arc::clone(topic),
            partition,
            reads: [(0, 0); MAX_READS],
            len: 0,
            lag: 0,
            stuck: false,
        }
    }

    /// Add a read, keeping the last `keep`. A commit or end gone back (a
    /// reset, a recreated topic) starts over, as a lag history does.
    fn push(&mut self, committed: i64, end: i64, lag: i64, keep: usize) {
        if let Some(&(was_committed, was_end)) = self.reads[..self.len].last()
            && (committed < was_committed || end < was_end)
        {
            self.len = 0;
        }
        if self.len == keep {
            self.reads.copy_within(1..keep, 0);
            self.len -= 1;
        }
        self.reads[self.len] = (committed, end);
        self.len += 1;
        self.lag = lag;
    }

    /// STUCK over the last `reads` reads, as [`super::LagHistory::stuck`]
    /// judges it: lag left, the end moved, the commit still.
    fn stuck_over(&self, reads: usize) -> bool {
        let window = &self.reads[..self.len];
        let (Some(first), Some(last)) = (window.first(), window.last()) else {
            return false;
        };
        self.len == reads
            && self.lag > 0
            && last.1 > first.1
            && window.iter().all(|r| r.0 == first.0)
    }
}

/// What one group's partitions were, in the order of its lag (by topic,
/// then partition).
#[derive(Debug, Default)]
struct Held {
    tracks: Vec<Track>,
}

/// The STUCK state of every group read, across reads.
#[derive(Debug)]
pub struct StuckWatch {
    reads: usize,
    groups: BTreeMap<String, Held>,
}

impl StuckWatch {
    /// Judging over the last `reads` reads (at least 2, at most
    /// [`MAX_READS`]).
    pub fn new(reads: usize) -> StuckWatch {
        StuckWatch {
            reads: reads.clamp(2, MAX_READS),
            groups: BTreeMap::new(),
        }
    }

    /// Take one read of the group list (`at` on the monotonic clock,
    /// `wall` for the events) and say which partitions became STUCK or
    /// moved again since the last. Groups not in `overview` are forgotten
    /// without an event.
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
            let mut held = self.take(name);
            // Offsets unread this time: what was held stays as it was.
            let keep = match &summary.lag {
                Some(lag) => {
                    let members = summary.members.is_some_and(|n| n > 0);
                    self.judge(name, &mut held, members, lag, (at, wall), &mut out)
                }
                None => true,
            };
            if keep {
                kept.insert(name.clone(), held);
            }
        }
        self.groups = kept;
        out
    }

    /// Take one read of one group alone (a visible row of a list, the
    /// group on screen): the other groups are kept as they were.
    pub fn observe_group(
        &mut self,
        group: &str,
        members: bool,
        lag: &GroupLag,
        at: Instant,
        wall: SystemTime,
    ) -> Vec<MovementEvent> {
        let mut out = Vec::new();
        let mut held = self.take(group);
        if self.judge(group, &mut held, members, lag, (at, wall), &mut out) {
            self.groups.insert(group.to_owned(), held);
        }
        out
    }

    fn take(&mut self, group: &str) -> Held {
        self.groups.remove(group).unwrap_or_default()
    }

    /// Record `lag` into `held` and push the partitions' changes to `out`;
    /// whether `held` is worth keeping. A group without members is never
    /// STUCK: once it has said its partitions move again (none is left
    /// STUCK) nothing of it is kept, so the many Empty groups of a large
    /// cluster cost nothing, and a group whose members come back is judged
    /// over reads with members only.
    fn judge(
        &self,
        name: &str,
        held: &mut Held,
        members: bool,
        lag: &GroupLag,
        (_at, wall): (Instant, SystemTime),
        out: &mut Vec<MovementEvent>,
    ) -> bool {
        if !members && !held.tracks.iter().any(|t| t.stuck) {
            return false;
        }
        let mut old = std::mem::take(&mut held.tracks).into_iter().peekable();
        let mut tracks = Vec::with_capacity(lag.partitions.len());
        for p in &lag.partitions {
            // Both lists are sorted: the old tracks before this partition
            // went from the answer; then this one's, if it was held.
            let key = (p.topic.as_ref(), p.partition);
            while old
                .next_if(|t| (t.topic.as_ref(), t.partition) < key)
                .is_some()
            {}
            let held = old.next_if(|t| (t.topic.as_ref(), t.partition) == key);
            let was = held.as_ref().is_some_and(|t| t.stuck);
            // A partition without a lag number this time starts over, as
            // a lag history drops it.
            let track = match (p.committed, p.end, p.records()) {
                (Some(committed), Some(end), Some(records)) => {
                    let mut track = held.unwrap_or_else(|| Track::new(&p.topic, p.partition));
                    track.push(committed, end, records, self.reads);
                    Some(track)
                }
                _ => None,
            };
            let now = members && track.as_ref().is_some_and(|t| t.stuck_over(self.reads));
            let kind = match (was, now, p.committed) {
                (false, true, Some(committed)) => Some(MovementKind::GroupStuck {
                    group: name.to_owned(),
                    committed,
                    end: p.end.unwrap_or(committed),
                }),
                (true, false, Some(committed)) => Some(MovementKind::GroupMoving {
                    group: name.to_owned(),
                    committed,
                }),
                _ => None,
            };
            if let Some(kind) = kind {
                out.push(MovementEvent {
                    time: wall,
                    topic: Some(p.topic.to_string()),
                    partition: Some(p.partition),
                    kind,
                });
            }
            if let Some(mut track) = track {
                track.stuck = now;
                tracks.push(track);
            }
        }
        held.tracks = tracks;
        members
    }
}

/// Every group event of one reader of groups, rate limited: the changes
/// between two reads of the list ([`super::events::diff`]), the STUCK
/// partitions ([`StuckWatch`]), the lag trend ([`TrendWatch`]) and the
/// KIP-848 reconciliations ([`ReconcileWatch`]), through one [`EventGate`] (the movement
/// log's per-kind limit: a storm is folded into counted `events_suppressed`
/// records, never dropped unseen). `watch events`, `record` and the TUI
/// each hold one.
#[derive(Debug)]
pub struct GroupEvents {
    stuck: StuckWatch,
    trend: TrendWatch,
    reconcile: ReconcileWatch,
    gate: EventGate,
}

impl GroupEvents {
    /// STUCK over `reads` reads; the movement log's default rate limits.
    pub fn new(reads: usize) -> GroupEvents {
        GroupEvents::with_limits(reads, Limits::default())
    }

    /// STUCK over `reads` reads; `limits`' rate limit.
    pub fn with_limits(reads: usize, limits: Limits) -> GroupEvents {
        GroupEvents {
            stuck: StuckWatch::new(reads),
            trend: TrendWatch::default(),
            reconcile: ReconcileWatch::default(),
            gate: EventGate::new(limits),
        }
    }

    /// A read of the list, `after`, following `before` (`None`: the first
    /// read, a baseline for the changes).
    pub fn list(
        &mut self,
        before: Option<&Overview>,
        after: &Overview,
        at: Instant,
        wall: SystemTime,
    ) -> Vec<MovementEvent> {
        let mut events = before.map_or_else(Vec::new, |b| super::events::diff(b, after, wall));
        events.extend(self.stuck.observe(after, at, wall));
        events.extend(self.trend.observe(after, at, wall));
        events.extend(self.reconcile.observe(after, wall));
        self.gate.admit(events)
    }

    /// A read of some groups alone (the visible rows of a list): STUCK,
    /// the lag trend and reconciliation (state and member changes come
    /// from reads of the whole list).
    pub fn rows(
        &mut self,
        rows: &[GroupSummary],
        at: Instant,
        wall: SystemTime,
    ) -> Vec<MovementEvent> {
        let mut events = Vec::new();
        for row in rows {
            if let Some(lag) = &row.lag {
                let members = row.members.is_some_and(|n| n > 0);
                let name = &row.listing.group;
                events.extend(self.stuck.observe_group(name, members, lag, at, wall));
                events.extend(self.trend.observe_group(name, lag, at, wall));
            }
        }
        events.extend(self.reconcile.observe_rows(rows, wall));
        self.gate.admit(events)
    }

    /// A read of one group (the group on screen, read more often than the
    /// list): STUCK, the lag trend and reconciliation, from its lag and
    /// its description.
    pub fn group(
        &mut self,
        group: &str,
        detail: &GroupDetail,
        at: Instant,
        wall: SystemTime,
    ) -> Vec<MovementEvent> {
        let members = !detail.description.members.is_empty();
        let lag = &detail.lag;
        let mut events = self.stuck.observe_group(group, members, lag, at, wall);
        events.extend(self.trend.observe_group(group, lag, at, wall));
        let reconciling = Reconciling::of(&detail.description);
        events.extend(
            self.reconcile
                .observe_one(group, reconciling.as_deref(), wall),
        );
        self.gate.admit(events)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::groups::{
        GroupLag, GroupListing, GroupState, GroupSummary, GroupType, PartitionLag, RequestCounts,
    };

    fn read(members: usize, committed: i64, end: i64) -> Overview {
        read_of(members, &[2], committed, end)
    }

    /// A read of `billing` with `partitions` of `orders`, each at the same
    /// offsets.
    fn read_of(members: usize, partitions: &[i32], committed: i64, end: i64) -> Overview {
        let lag = GroupLag::new(
            partitions
                .iter()
                .map(|&partition| PartitionLag {
                    topic: "orders".into(),
                    partition,
                    committed: Some(committed),
                    end: Some(end),
                    start: Some(0),
                    reported: None,
                })
                .collect(),
        );
        Overview {
            groups: vec![GroupSummary {
                listing: GroupListing {
                    group: "billing".to_owned(),
                    group_type: GroupType::Classic,
                    state: GroupState::Stable,
                    protocol_type: "consumer".to_owned(),
                    coordinator: 1,
                },
                members: Some(members),
                state: GroupState::Stable,
                topics: lag.topics(),
                lag: Some(lag),
                reconciling: None,
                error: None,
            }],
            failed_brokers: Vec::new(),
            requests: RequestCounts::default(),
        }
    }

    #[test]
    fn stuck_is_said_once_when_it_starts_and_moving_once_when_the_commit_moves() {
        let mut watch = StuckWatch::new(3);
        let start = Instant::now();
        let wall = SystemTime::UNIX_EPOCH;
        let mut kinds = Vec::new();
        let reads = [(10, 20), (10, 30), (10, 40), (10, 50), (45, 60), (55, 70)];
        for (i, (committed, end)) in reads.into_iter().enumerate() {
            let at = start + Duration::from_secs(5 * u64::try_from(i).unwrap_or(0));
            for event in watch.observe(&read(1, committed, end), at, wall) {
                assert_eq!(
                    (event.group(), event.topic.as_deref(), event.partition),
                    (Some("billing"), Some("orders"), Some(2))
                );
                kinds.push((i, event.kind));
            }
        }
        assert_eq!(
            kinds,
            [
                (
                    2,
                    MovementKind::GroupStuck {
                        group: "billing".to_owned(),
                        committed: 10,
                        end: 40
                    }
                ),
                (
                    4,
                    MovementKind::GroupMoving {
                        group: "billing".to_owned(),
                        committed: 45
                    }
                ),
            ]
        );
    }

    #[test]
    fn a_group_without_members_is_never_stuck() {
        let mut watch = StuckWatch::new(3);
        let start = Instant::now();
        for (i, end) in [20, 30, 40, 50].into_iter().enumerate() {
            let at = start + Duration::from_secs(u64::try_from(i).unwrap_or(0));
            let events = watch.observe(&read(0, 10, end), at, SystemTime::UNIX_EPOCH);
            assert!(events.is_empty(), "{events:?}");
            assert!(watch.groups.is_empty(), "nothing held for an Empty group");
        }
    }

    fn folds(events: &[MovementEvent]) -> Vec<(&'static str, u64)> {
        events
            .iter()
            .filter_map(|e| match e.kind {
                MovementKind::EventsSuppressed {
                    suppressed, count, ..
                } => Some((suppressed, count)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_stuck_storm_over_the_kind_limit_is_folded_and_counted() {
        let limits = Limits {
            per_kind: 2,
            ..Limits::default()
        };
        let mut source = GroupEvents::with_limits(3, limits);
        let partitions: Vec<i32> = (0..5).collect();
        let start = Instant::now();
        let wall = SystemTime::UNIX_EPOCH;
        let mut before: Option<Overview> = None;
        let mut seen = Vec::new();
        for (i, end) in [20, 30, 40].into_iter().enumerate() {
            let at = start + Duration::from_secs(u64::try_from(i).unwrap_or(0));
            let now = read_of(1, &partitions, 10, end);
            seen.extend(source.list(before.as_ref(), &now, at, wall));
            before = Some(now);
        }
        let stuck = seen.iter().filter(|e| e.kind.name() == "group_stuck");
        assert_eq!(stuck.count(), 2, "{seen:?}");
        assert_eq!(folds(&seen), [("group_stuck", 3)], "2 said + 3 folded = 5");
        // Moving again is another kind, with its own window.
        let at = start + Duration::from_secs(3);
        let moving = source.list(before.as_ref(), &read_of(1, &partitions, 40, 50), at, wall);
        assert_eq!(folds(&moving), [("group_moving", 3)]);
        assert_eq!(moving.len(), 3);
    }

    /// A classic group's detail with `members` members and `lag`.
    fn detail(members: usize, lag: &GroupLag) -> GroupDetail {
        let member = crate::groups::member::Member::default();
        GroupDetail {
            description: crate::groups::description::GroupDescription::classic(
                "billing",
                vec![member; members],
            ),
            lag: lag.clone(),
            oldest_unconsumed: std::collections::BTreeMap::new(),
            oldest_unconsumed_left_out: 0,
        }
    }

    #[test]
    fn one_group_read_alone_keeps_the_others_and_judges_it_over_its_own_reads() {
        let mut source = GroupEvents::new(3);
        let start = Instant::now();
        let wall = SystemTime::UNIX_EPOCH;
        let mut seen = Vec::new();
        for (i, end) in [20, 30, 40].into_iter().enumerate() {
            let at = start + Duration::from_secs(u64::try_from(i).unwrap_or(0));
            let overview = read(1, 10, end);
            let lag = overview.groups[0].lag.as_ref().expect("lag");
            // The detail of the group and a visible row of it, in turn.
            if i % 2 == 0 {
                seen.extend(source.group("billing", &detail(1, lag), at, wall));
            } else {
                seen.extend(source.rows(&overview.groups, at, wall));
            }
        }
        let names: Vec<&str> = seen.iter().map(|e| e.kind.name()).collect();
        assert_eq!(names, ["group_stuck"]);
        assert_eq!(seen[0].group(), Some("billing"));
        // Without members the same reads are not STUCK.
        let mut idle = GroupEvents::new(3);
        for (i, end) in [20, 30, 40].into_iter().enumerate() {
            let at = start + Duration::from_secs(u64::try_from(i).unwrap_or(0));
            let overview = read(0, 10, end);
            let lag = overview.groups[0].lag.as_ref().expect("lag");
            assert!(idle.group("billing", &detail(0, lag), at, wall).is_empty());
        }
    }

    #[test]
    fn a_stuck_group_whose_members_leave_moves_again_and_is_forgotten() {
        let mut watch = StuckWatch::new(3);
        let start = Instant::now();
        let wall = SystemTime::UNIX_EPOCH;
        let mut names = Vec::new();
        let reads = [(1, 20), (1, 30), (1, 40), (0, 50), (0, 60)];
        for (i, (members, end)) in reads.into_iter().enumerate() {
            let at = start + Duration::from_secs(u64::try_from(i).unwrap_or(0));
            let events = watch.observe(&read(members, 10, end), at, wall);
            names.extend(events.iter().map(|e| e.kind.name()));
        }
        assert_eq!(names, ["group_stuck", "group_moving"]);
        assert!(watch.groups.is_empty());
    }

    #[test]
    fn a_track_judges_as_a_lag_history_does_over_every_short_sequence() {
        use crate::groups::{LagHistory, LagSample};
        // Every sequence of 5 reads over commits {10, 11, 30} and ends
        // {20, 21, 30}: after each read both say the same.
        let values = [(10, 20), (10, 21), (10, 30), (11, 20), (11, 21), (30, 30)];
        let start = Instant::now();
        let topic: Arc<str> = "orders".into();
        for code in 0..values.len().pow(5) {
            let mut track = Track::new(&topic, 0);
            let mut history = LagHistory::new(STUCK);
            let mut rest = code;
            for i in 0..5 {
                let (committed, end) = values[rest % values.len()];
                rest /= values.len();
                track.push(committed, end, end - committed, STUCK);
                history.push(LagSample {
                    at: start + std::time::Duration::from_secs(i),
                    lag: end - committed,
                    committed,
                    end,
                });
                assert_eq!(
                    track.stuck_over(STUCK),
                    history.stuck(STUCK),
                    "sequence {code}, read {i}"
                );
            }
        }
    }

    #[test]
    fn reconciliations_and_lag_trends_of_a_list_read_pass_the_same_gate() {
        use crate::groups::member::{Assignment, Member};
        use crate::groups::reconciling::Reconciling;
        let limits = Limits {
            per_kind: 1,
            ..Limits::default()
        };
        let mut source = GroupEvents::with_limits(3, limits);
        let member = Member {
            member_id: "m".to_owned(),
            assignment: Assignment::default(),
            target_assignment: Some(Assignment::from_pairs([("orders".to_owned(), vec![2])])),
            ..Member::default()
        };
        let description = crate::groups::GroupDescription {
            group: "billing".to_owned(),
            group_type: GroupType::Consumer,
            state: GroupState::Stable,
            coordinator: 1,
            protocol_type: "consumer".to_owned(),
            assignor: "uniform".to_owned(),
            group_epoch: Some(2),
            assignment_epoch: Some(2),
            members: vec![member],
            topology: None,
        };
        // Three groups reconciling in one read: one said, two folded.
        let mut read = read_of(1, &[2], 10, 20);
        let mut one = read.groups.remove(0);
        one.reconciling = Reconciling::of(&description);
        read.groups = ["a", "b", "c"]
            .iter()
            .map(|name| {
                let mut group = one.clone();
                group.listing.group = (*name).to_owned();
                group
            })
            .collect();
        let events = source.list(None, &read, Instant::now(), SystemTime::UNIX_EPOCH);
        let names: Vec<&str> = events.iter().map(|e| e.kind.name()).collect();
        assert_eq!(names, ["group_reconciling", "events_suppressed"]);
        assert_eq!(folds(&events), [("group_reconciling", 2)]);
    }

    const STUCK: usize = 3;
}
