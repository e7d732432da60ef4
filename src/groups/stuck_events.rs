//! `group_stuck` and `group_moving` events from reads of the group list:
//! each group's partitions keep their last few samples
//! ([`PartitionHistories`], `reads` samples each), and a partition is
//! STUCK as [`super::LagHistory::stuck`] says (its commit still over the
//! last `reads` reads while the end moved, lag left) while the group has
//! members. An event is said when a partition becomes STUCK and when it
//! stops being so, not on every read. Memory: `reads` samples for each
//! partition of each group read, dropped with the group.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Instant, SystemTime};

use crate::meta::{MovementEvent, MovementKind};

use super::history::PartitionHistories;
use super::refresh::Overview;

/// What one group's partitions were.
#[derive(Debug, Default)]
struct Held {
    histories: PartitionHistories,
    stuck: BTreeSet<(String, i32)>,
}

/// The STUCK state of every group read, across reads.
#[derive(Debug)]
pub struct StuckWatch {
    reads: usize,
    groups: BTreeMap<String, Held>,
}

impl StuckWatch {
    /// Judging over the last `reads` reads (at least 2).
    pub fn new(reads: usize) -> StuckWatch {
        StuckWatch {
            reads: reads.max(2),
            groups: BTreeMap::new(),
        }
    }

    /// Take one read (`at` on the monotonic clock, `wall` for the events)
    /// and say which partitions became STUCK or moved again since the
    /// last. Groups not in `overview` are forgotten without an event.
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
            let mut held = self.groups.remove(name).unwrap_or_else(|| Held {
                histories: PartitionHistories::new(self.reads),
                stuck: BTreeSet::new(),
            });
            let Some(lag) = &summary.lag else {
                // Offsets unread this time: keep what was held as it was.
                kept.insert(name.clone(), held);
                continue;
            };
            held.histories.record(at, lag);
            let members = summary.members.is_some_and(|n| n > 0);
            let mut stuck = BTreeSet::new();
            for p in &lag.partitions {
                let key = (p.topic.to_string(), p.partition);
                let now = members
                    && held
                        .histories
                        .get(&p.topic, p.partition)
                        .is_some_and(|h| h.stuck(self.reads));
                let was = held.stuck.contains(&key);
                let kind = match (was, now, p.committed) {
                    (false, true, Some(committed)) => Some(MovementKind::GroupStuck {
                        group: name.clone(),
                        committed,
                        end: p.end.unwrap_or(committed),
                    }),
                    (true, false, Some(committed)) => Some(MovementKind::GroupMoving {
                        group: name.clone(),
                        committed,
                    }),
                    _ => None,
                };
                if let Some(kind) = kind {
                    out.push(MovementEvent {
                        time: wall,
                        topic: Some(key.0.clone()),
                        partition: Some(key.1),
                        kind,
                    });
                }
                if now {
                    stuck.insert(key);
                }
            }
            held.stuck = stuck;
            kept.insert(name.clone(), held);
        }
        self.groups = kept;
        out
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
        let lag = GroupLag::new(vec![PartitionLag {
            topic: "orders".into(),
            partition: 2,
            committed: Some(committed),
            end: Some(end),
            start: Some(0),
            reported: None,
        }]);
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
        }
    }
}
