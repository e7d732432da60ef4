//! What changed between two consecutive snapshots.
//!
//! Each installed snapshot is diffed against the one it replaces. The diff
//! is per refresh, never per frame, and a topic-scoped refresh diffs only the
//! topics it fetched.

use std::cmp::Ordering;
use std::sync::Arc;
use std::time::SystemTime;

use super::{MovementEvent, MovementKind};
use crate::meta::snapshot::{MetadataSnapshot, PartitionInfo, TopicInfo};

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
