//! Leader movement: what changed between two consecutive snapshots.
//!
//! Each installed snapshot is diffed against the one it replaces. The diff
//! is per refresh, never per frame, and a topic-scoped refresh diffs only the
//! topics it fetched.

use std::cmp::Ordering;
use std::sync::Arc;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::snapshot::{MetadataSnapshot, PartitionInfo, TopicInfo};

/// One observed change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovementEvent {
    /// When kscope saw it (the refresh that brought it), not when it happened.
    pub time: SystemTime,
    /// The topic, for topic and partition events.
    pub topic: Option<String>,
    /// The partition, for partition events.
    pub partition: Option<i32>,
    /// What changed.
    pub kind: MovementKind,
}

/// What changed. Serialized with a `kind` tag in `snake_case`, for the CLI
/// and for recordings (`crate::recording`), which read it back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MovementKind {
    /// Leadership moved between two brokers.
    LeaderChanged {
        /// The previous leader.
        from: i32,
        /// The new leader.
        to: i32,
        /// The new leader epoch.
        epoch: i32,
    },
    /// The partition lost its leader.
    PartitionOffline {
        /// The last leader.
        from: i32,
        /// The new leader epoch.
        epoch: i32,
    },
    /// The partition has a leader again.
    PartitionOnline {
        /// The new leader.
        to: i32,
        /// The new leader epoch.
        epoch: i32,
    },
    /// Replicas left the in-sync set.
    IsrShrank {
        /// The new in-sync set.
        isr: Vec<i32>,
        /// Who left it.
        removed: Vec<i32>,
    },
    /// Replicas (re)joined the in-sync set.
    IsrExpanded {
        /// The new in-sync set.
        isr: Vec<i32>,
        /// Who joined it.
        added: Vec<i32>,
    },
    /// The replica set or its order (the preferred leader) changed.
    ReplicasChanged {
        /// The previous replicas.
        from: Vec<i32>,
        /// The new replicas.
        to: Vec<i32>,
    },
    /// A broker appeared in the metadata.
    BrokerJoined {
        /// Its node id.
        broker: i32,
        /// Its advertised `host:port`.
        address: String,
    },
    /// A broker disappeared from the metadata.
    BrokerLeft {
        /// Its node id.
        broker: i32,
    },
    /// The metadata names another controller.
    ControllerChanged {
        /// The previous controller.
        from: Option<i32>,
        /// The new controller.
        to: Option<i32>,
    },
    /// kscope's liveness check got no answer from a broker (hung or
    /// unreachable), whatever the metadata says of it.
    BrokerNotAnswering {
        /// Its node id.
        broker: i32,
    },
    /// A broker that was not answering answers again.
    BrokerAnswering {
        /// Its node id.
        broker: i32,
    },
    /// The cluster's metadata stopped changing: the `KRaft` quorum has no
    /// leader, does not answer, or commits nothing. What is shown is what
    /// it was when this happened.
    MetadataFrozen {
        /// Why kscope thinks so.
        reason: String,
    },
    /// The quorum commits again.
    MetadataLive {
        /// The quorum's leader (the active controller).
        leader: i32,
    },
    /// A topic appeared (or was recreated with a new id).
    TopicCreated {
        /// Its partition count.
        partitions: usize,
    },
    /// A topic disappeared (or was recreated with a new id).
    TopicDeleted,
    /// A topic's partition count grew (`kafka-topics --alter --partitions`):
    /// one event per topic, however many partitions were added.
    PartitionsAdded {
        /// The partition count before.
        from: usize,
        /// The partition count now.
        to: usize,
    },
    /// The `KRaft` quorum elected a leader (the active controller): another
    /// node, or the same one in a new epoch. From `DescribeQuorum`, which
    /// the liveness check asks every few seconds.
    QuorumLeaderChanged {
        /// The previous leader, when one was known.
        from: Option<i32>,
        /// The new leader.
        to: i32,
        /// The new leader epoch.
        epoch: i32,
    },
    /// A consumer group's state changed (`Stable` → `PreparingRebalance`,
    /// `Empty`, `Dead`, …), seen between two reads of the group list.
    GroupStateChanged {
        group: String,
        /// The state before.
        from: String,
        /// The state now.
        to: String,
    },
    /// A consumer group's member count changed (members joined or left: a
    /// rebalance), seen between two reads of the group list.
    GroupMembersChanged {
        group: String,
        /// Members before.
        from: usize,
        /// Members now.
        to: usize,
    },
    /// Retention deleted records a group had not read: its committed offset
    /// on the event's partition is below the partition's log start.
    GroupRecordsLost {
        group: String,
        /// Its committed offset.
        committed: i64,
        /// The log start offset now (records below it are gone).
        start: i64,
    },
    /// A group's partition is STUCK (kscope's judgement over its reads of
    /// the group list): its committed offset stood still over the last
    /// reads while the end offset moved, lag is left, and the group has
    /// members.
    GroupStuck {
        group: String,
        /// The committed offset it stands at.
        committed: i64,
        /// The partition's end offset now.
        end: i64,
    },
    /// A STUCK partition's committed offset moves again (or it has no lag
    /// or no member left to wait for).
    GroupMoving {
        group: String,
        /// Its committed offset now.
        committed: i64,
    },
    /// A partition's ISR fell below its topic's `min.insync.replicas`:
    /// `acks=all` writes to it fail (`NOT_ENOUGH_REPLICAS`).
    UnderMinIsr {
        /// The in-sync set now.
        isr: Vec<i32>,
        /// The topic's `min.insync.replicas`.
        min_isr: usize,
    },
    /// A partition's ISR is back at its topic's `min.insync.replicas`.
    MinIsrRestored {
        /// The in-sync set now.
        isr: Vec<i32>,
        /// The topic's `min.insync.replicas`.
        min_isr: usize,
    },
    /// More events of one kind came within its rate-limit window than the
    /// log keeps: they are folded into this one record, never dropped
    /// unseen (see [`super::movement_log::Limits`]).
    EventsSuppressed {
        /// The kind folded, e.g. `isr_shrank`.
        #[serde(deserialize_with = "super::severity::kind_name")]
        suppressed: &'static str,
        /// How many events of that kind this record stands for.
        count: u64,
        /// The severity of the kind folded.
        #[serde(skip)]
        severity: super::severity::Severity,
    },
}

impl MovementKind {
    /// The tag used in JSON, e.g. `leader_changed`.
    pub fn name(&self) -> &'static str {
        match self {
            MovementKind::LeaderChanged { .. } => "leader_changed",
            MovementKind::PartitionOffline { .. } => "partition_offline",
            MovementKind::PartitionOnline { .. } => "partition_online",
            MovementKind::IsrShrank { .. } => "isr_shrank",
            MovementKind::IsrExpanded { .. } => "isr_expanded",
            MovementKind::ReplicasChanged { .. } => "replicas_changed",
            MovementKind::BrokerJoined { .. } => "broker_joined",
            MovementKind::BrokerLeft { .. } => "broker_left",
            MovementKind::ControllerChanged { .. } => "controller_changed",
            MovementKind::BrokerNotAnswering { .. } => "broker_not_answering",
            MovementKind::BrokerAnswering { .. } => "broker_answering",
            MovementKind::MetadataFrozen { .. } => "metadata_frozen",
            MovementKind::MetadataLive { .. } => "metadata_live",
            MovementKind::TopicCreated { .. } => "topic_created",
            MovementKind::TopicDeleted => "topic_deleted",
            MovementKind::PartitionsAdded { .. } => "partitions_added",
            MovementKind::QuorumLeaderChanged { .. } => "quorum_leader_changed",
            MovementKind::EventsSuppressed { .. } => "events_suppressed",
            MovementKind::GroupStateChanged { .. } => "group_state_changed",
            MovementKind::GroupMembersChanged { .. } => "group_members_changed",
            MovementKind::GroupRecordsLost { .. } => "group_records_lost",
            MovementKind::GroupStuck { .. } => "group_stuck",
            MovementKind::GroupMoving { .. } => "group_moving",
            MovementKind::UnderMinIsr { .. } => "under_min_isr",
            MovementKind::MinIsrRestored { .. } => "min_isr_restored",
        }
    }
}

/// What changed from `before` to `after`, observed at `at`.
///
/// `scope` limits the topic comparison to the named topics (a topic-scoped
/// refresh); `None` compares every topic. Nothing is reported against an
/// empty `before`: the first snapshot is the baseline, not a burst of
/// "created" events.
pub fn diff(
    before: &MetadataSnapshot,
    after: &MetadataSnapshot,
    scope: Option<&[String]>,
    at: SystemTime,
) -> Vec<MovementEvent> {
    let mut out = Diff {
        at,
        events: Vec::new(),
    };
    if before.brokers().is_empty() {
        return out.events;
    }
    out.brokers(before, after);
    match scope {
        Some(names) => {
            for name in names {
                out.topic(before.topic(name), after.topic(name));
            }
        }
        None => out.all_topics(before.topics(), after.topics()),
    }
    out.events
}

struct Diff {
    at: SystemTime,
    events: Vec<MovementEvent>,
}

impl Diff {
    fn push(&mut self, topic: Option<&str>, partition: Option<i32>, kind: MovementKind) {
        self.events.push(MovementEvent {
            time: self.at,
            topic: topic.map(str::to_owned),
            partition,
            kind,
        });
    }

    fn brokers(&mut self, before: &MetadataSnapshot, after: &MetadataSnapshot) {
        for broker in after.brokers() {
            if before.broker(broker.node_id).is_none() {
                let address = broker.address();
                self.push(
                    None,
                    None,
                    MovementKind::BrokerJoined {
                        broker: broker.node_id,
                        address,
                    },
                );
            }
        }
        for broker in before.brokers() {
            if after.broker(broker.node_id).is_none() {
                self.push(
                    None,
                    None,
                    MovementKind::BrokerLeft {
                        broker: broker.node_id,
                    },
                );
            }
        }
        if before.controller_id() != after.controller_id() {
            let (from, to) = (before.controller_id(), after.controller_id());
            self.push(None, None, MovementKind::ControllerChanged { from, to });
        }
    }

    fn all_topics(&mut self, before: &[Arc<TopicInfo>], after: &[Arc<TopicInfo>]) {
        let (mut b, mut a) = (before.iter().peekable(), after.iter().peekable());
        loop {
            let order = match (b.peek(), a.peek()) {
                (None, None) => return,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(x), Some(y)) => x.name.cmp(&y.name),
            };
            match order {
                Ordering::Less => self.topic(b.next().map(AsRef::as_ref), None),
                Ordering::Greater => self.topic(None, a.next().map(AsRef::as_ref)),
                Ordering::Equal => match (b.next(), a.next()) {
                    // A topic shared by both snapshots did not change.
                    (Some(old), Some(new)) if Arc::ptr_eq(old, new) => {}
                    (old, new) => self.topic(old.map(AsRef::as_ref), new.map(AsRef::as_ref)),
                },
            }
        }
    }

    fn topic(&mut self, before: Option<&TopicInfo>, after: Option<&TopicInfo>) {
        match (before, after) {
            (None, None) => {}
            (Some(old), None) => self.push(Some(&old.name), None, MovementKind::TopicDeleted),
            (None, Some(new)) => self.created(new),
            (Some(old), Some(new))
                if old.topic_id != new.topic_id
                    && !old.topic_id.is_nil()
                    && !new.topic_id.is_nil() =>
            {
                self.push(Some(&old.name), None, MovementKind::TopicDeleted);
                self.created(new);
            }
            (Some(old), Some(new)) => {
                let (from, to) = (old.partitions.len(), new.partitions.len());
                if to > from {
                    self.push(
                        Some(&new.name),
                        None,
                        MovementKind::PartitionsAdded { from, to },
                    );
                }
                for partition in &new.partitions {
                    if let Some(previous) = old.partition(partition.partition) {
                        self.partition(&new.name, previous, partition);
                    }
                }
            }
        }
    }

    fn created(&mut self, topic: &TopicInfo) {
        let partitions = topic.partitions.len();
        self.push(
            Some(&topic.name),
            None,
            MovementKind::TopicCreated { partitions },
        );
    }

    fn partition(&mut self, topic: &str, old: &PartitionInfo, new: &PartitionInfo) {
        // The common case on a full refresh: nothing moved. Three compares
        // (the lists are a few ids each) instead of the set differences.
        if old.leader == new.leader && old.isr == new.isr && old.replicas == new.replicas {
            return;
        }
        let at = Some(new.partition);
        let epoch = new.leader_epoch;
        match (old.leader, new.leader) {
            (Some(from), Some(to)) if from != to => {
                self.push(
                    Some(topic),
                    at,
                    MovementKind::LeaderChanged { from, to, epoch },
                );
            }
            (Some(from), None) => self.push(
                Some(topic),
                at,
                MovementKind::PartitionOffline { from, epoch },
            ),
            (None, Some(to)) => {
                self.push(Some(topic), at, MovementKind::PartitionOnline { to, epoch });
            }
            _ => {}
        }
        let removed: Vec<i32> = old
            .isr
            .iter()
            .filter(|r| !new.isr.contains(r))
            .copied()
            .collect();
        let added: Vec<i32> = new
            .isr
            .iter()
            .filter(|r| !old.isr.contains(r))
            .copied()
            .collect();
        if !removed.is_empty() {
            let isr = new.isr.to_vec();
            self.push(Some(topic), at, MovementKind::IsrShrank { isr, removed });
        }
        if !added.is_empty() {
            let isr = new.isr.to_vec();
            self.push(Some(topic), at, MovementKind::IsrExpanded { isr, added });
        }
        if old.replicas != new.replicas {
            let (from, to) = (old.replicas.to_vec(), new.replicas.to_vec());
            self.push(Some(topic), at, MovementKind::ReplicasChanged { from, to });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::fixtures::{broker, partition, topic};

    fn snapshot(brokers: &[i32], controller: i32, topics: Vec<TopicInfo>) -> MetadataSnapshot {
        MetadataSnapshot::new(
            brokers.iter().map(|b| broker(*b)).collect(),
            topics,
            Some(controller),
            None,
        )
    }

    fn kinds(events: &[MovementEvent]) -> Vec<(Option<&str>, Option<i32>, &MovementKind)> {
        events
            .iter()
            .map(|e| (e.topic.as_deref(), e.partition, &e.kind))
            .collect()
    }

    #[test]
    fn the_first_snapshot_is_a_baseline() {
        let after = snapshot(&[1], 1, vec![topic("t", 1, vec![partition(0, 1, 0, &[1])])]);
        assert!(diff(&MetadataSnapshot::empty(), &after, None, SystemTime::now()).is_empty());
    }

    #[test]
    fn a_leader_move_is_one_event_with_the_new_epoch() {
        let before = snapshot(
            &[1, 2, 3],
            1,
            vec![topic("t", 1, vec![partition(0, 1, 4, &[1, 2, 3])])],
        );
        let after = snapshot(
            &[1, 2, 3],
            1,
            vec![topic("t", 1, vec![partition(0, 2, 5, &[1, 2, 3])])],
        );
        let events = diff(&before, &after, None, SystemTime::now());
        assert_eq!(
            kinds(&events),
            [(
                Some("t"),
                Some(0),
                &MovementKind::LeaderChanged {
                    from: 1,
                    to: 2,
                    epoch: 5
                }
            )]
        );
    }

    #[test]
    fn a_dead_broker_shows_as_leader_isr_and_membership_changes() {
        let before = snapshot(
            &[1, 2, 3],
            3,
            vec![topic("t", 1, vec![partition(0, 3, 4, &[3, 1, 2])])],
        );
        let mut moved = partition(0, 1, 5, &[3, 1, 2]);
        moved.isr = vec![1, 2].into();
        let after = snapshot(&[1, 2], 1, vec![topic("t", 1, vec![moved])]);
        let events = diff(&before, &after, None, SystemTime::now());
        assert_eq!(
            kinds(&events),
            [
                (None, None, &MovementKind::BrokerLeft { broker: 3 }),
                (
                    None,
                    None,
                    &MovementKind::ControllerChanged {
                        from: Some(3),
                        to: Some(1)
                    }
                ),
                (
                    Some("t"),
                    Some(0),
                    &MovementKind::LeaderChanged {
                        from: 3,
                        to: 1,
                        epoch: 5
                    }
                ),
                (
                    Some("t"),
                    Some(0),
                    &MovementKind::IsrShrank {
                        isr: vec![1, 2],
                        removed: vec![3]
                    }
                ),
            ]
        );
        let back = diff(&after, &before, None, SystemTime::now());
        assert!(back.iter().any(|e| e.kind
            == MovementKind::IsrExpanded {
                isr: vec![3, 1, 2],
                added: vec![3]
            }));
        assert!(
            back.iter()
                .any(|e| matches!(e.kind, MovementKind::BrokerJoined { broker: 3, .. }))
        );
    }

    #[test]
    fn offline_online_replicas_and_topics() {
        let before = snapshot(
            &[1],
            1,
            vec![
                topic("a", 1, vec![partition(0, 1, 1, &[1])]),
                topic("b", 2, vec![partition(0, 1, 1, &[1])]),
            ],
        );
        let after = snapshot(
            &[1],
            1,
            vec![
                topic("a", 1, vec![partition(0, -1, 2, &[1, 2])]),
                topic("c", 3, vec![partition(0, 1, 0, &[1])]),
            ],
        );
        let events = diff(&before, &after, None, SystemTime::now());
        let names: Vec<&str> = events.iter().map(|e| e.kind.name()).collect();
        assert_eq!(
            names,
            [
                "partition_offline",
                "isr_expanded",
                "replicas_changed",
                "topic_deleted",
                "topic_created"
            ]
        );
        let online = diff(&after, &before, Some(&["a".to_owned()]), SystemTime::now());
        assert_eq!(
            online.first().map(|e| e.kind.name()),
            Some("partition_online")
        );
        assert!(online.iter().all(|e| e.topic.as_deref() == Some("a")));
    }

    #[test]
    fn a_recreated_topic_is_deleted_then_created() {
        let before = snapshot(&[1], 1, vec![topic("a", 1, vec![partition(0, 1, 3, &[1])])]);
        let after = snapshot(&[1], 1, vec![topic("a", 2, vec![partition(0, 1, 0, &[1])])]);
        let names: Vec<&str> = diff(&before, &after, None, SystemTime::now())
            .iter()
            .map(|e| e.kind.name())
            .collect();
        assert_eq!(names, ["topic_deleted", "topic_created"]);
    }

    #[test]
    fn added_partitions_are_one_event_per_topic_with_the_old_and_new_count() {
        let before = snapshot(
            &[1],
            1,
            vec![
                topic("a", 1, vec![partition(0, 1, 3, &[1])]),
                topic("b", 2, vec![partition(0, 1, 3, &[1])]),
            ],
        );
        let grown: Vec<PartitionInfo> = (0..4).map(|p| partition(p, 1, 3, &[1])).collect();
        let after = snapshot(
            &[1],
            1,
            vec![
                topic("a", 1, grown),
                topic("b", 2, vec![partition(0, 1, 3, &[1])]),
            ],
        );
        for scope in [None, Some(&["a".to_owned()][..])] {
            let events = diff(&before, &after, scope, SystemTime::now());
            assert_eq!(
                kinds(&events),
                [(
                    Some("a"),
                    None,
                    &MovementKind::PartitionsAdded { from: 1, to: 4 }
                )],
                "nothing per new partition, nothing for the unchanged topic"
            );
        }
        assert!(
            diff(&after, &before, None, SystemTime::now()).is_empty(),
            "a shorter answer is not a removal Kafka can do"
        );
    }
}
