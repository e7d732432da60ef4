//! Leader epochs never go backwards.
//!
//! Brokers learn metadata from the controller asynchronously, so two brokers
//! asked a moment apart can disagree, and the one that lags reports an older
//! leader with a *lower* leader epoch. Installing that would make the leader
//! view flap back and forth and the movement log report moves that never
//! happened. So a partition whose epoch would decrease keeps the held
//! information — unless the topic id changed: the topic was deleted and
//! recreated, and its epochs started again from zero.

use super::records::{PartitionInfo, TopicInfo};

/// Whether `fresh` and `held` describe the same incarnation of a topic.
///
/// A nil id (brokers before Metadata v10, or a topic mid-creation) cannot
/// prove a recreation, so it counts as the same topic.
fn same_incarnation(held: &TopicInfo, fresh: &TopicInfo) -> bool {
    held.topic_id.is_nil() || fresh.topic_id.is_nil() || held.topic_id == fresh.topic_id
}

/// Whether a fresh partition would take the leader epoch backwards.
fn goes_backwards(held: &PartitionInfo, fresh: &PartitionInfo) -> bool {
    fresh.leader_epoch < held.leader_epoch
}

/// The topic to install: `fresh`, with each partition whose epoch went
/// backwards replaced by the held one, and held partitions the fresh answer
/// lacks kept (partition counts only grow; a lagging broker may not know the
/// new ones yet).
pub(crate) fn merge_topic(held: &TopicInfo, mut fresh: TopicInfo) -> TopicInfo {
    fresh.partitions.sort_by_key(|p| p.partition);
    if !same_incarnation(held, &fresh) {
        return fresh;
    }
    if fresh.topic_id.is_nil() {
        fresh.topic_id = held.topic_id;
    }
    for slot in &mut fresh.partitions {
        if let Some(old) = held.partition(slot.partition)
            && goes_backwards(old, slot)
        {
            slot.clone_from(old);
        }
    }
    let missing: Vec<PartitionInfo> = held
        .partitions
        .iter()
        .filter(|p| fresh.partition(p.partition).is_none())
        .cloned()
        .collect();
    if !missing.is_empty() {
        fresh.partitions.extend(missing);
        fresh.partitions.sort_by_key(|p| p.partition);
    }
    fresh
}

/// How many partitions of `fresh` [`merge_topic`] would refuse.
pub(crate) fn refused_partitions(held: &TopicInfo, fresh: &TopicInfo) -> usize {
    if !same_incarnation(held, fresh) {
        return 0;
    }
    fresh
        .partitions
        .iter()
        .filter(|p| {
            held.partition(p.partition)
                .is_some_and(|old| goes_backwards(old, p))
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::fixtures::{broker, partition, topic};
    use crate::meta::snapshot::MetadataSnapshot;

    #[test]
    fn a_stale_response_does_not_overwrite_a_newer_one() {
        let held = topic(
            "orders",
            1,
            vec![
                partition(0, 2, 8, &[1, 2, 3]),
                partition(1, 3, 4, &[3, 1, 2]),
            ],
        );
        // A lagging broker still thinks broker 1 leads partition 0 at epoch 7.
        let stale = topic(
            "orders",
            1,
            vec![
                partition(0, 1, 7, &[1, 2, 3]),
                partition(1, 1, 5, &[3, 1, 2]),
            ],
        );
        assert_eq!(refused_partitions(&held, &stale), 1);
        let merged = merge_topic(&held, stale);
        assert_eq!(
            merged.partition(0).map(|p| (p.leader, p.leader_epoch)),
            Some((Some(2), 8))
        );
        assert_eq!(
            merged.partition(1).map(|p| (p.leader, p.leader_epoch)),
            Some((Some(1), 5))
        );
    }

    #[test]
    fn a_recreated_topic_starts_its_epochs_again() {
        let held = topic("orders", 1, vec![partition(0, 2, 8, &[1, 2, 3])]);
        let recreated = topic("orders", 9, vec![partition(0, 1, 0, &[1, 2, 3])]);
        assert_eq!(refused_partitions(&held, &recreated), 0);
        let merged = merge_topic(&held, recreated);
        assert_eq!(merged.partition(0).map(|p| p.leader_epoch), Some(0));
    }

    #[test]
    fn partitions_a_lagging_broker_does_not_know_yet_are_kept() {
        let held = topic(
            "orders",
            1,
            vec![partition(0, 1, 1, &[1]), partition(1, 2, 1, &[2])],
        );
        let lagging = topic("orders", 1, vec![partition(0, 1, 1, &[1])]);
        assert_eq!(merge_topic(&held, lagging).partitions.len(), 2);
    }

    #[test]
    fn a_whole_snapshot_from_a_lagging_broker_is_guarded_too() {
        let held = MetadataSnapshot::new(
            vec![broker(1)],
            vec![topic("orders", 1, vec![partition(0, 2, 8, &[1, 2, 3])])],
            Some(1),
            None,
        );
        let stale = MetadataSnapshot::new(
            vec![broker(1)],
            vec![
                topic("orders", 1, vec![partition(0, 1, 7, &[1, 2, 3])]),
                topic("new", 2, vec![partition(0, 1, 0, &[1])]),
            ],
            Some(1),
            None,
        );
        let (guarded, refused) = held.guard_epochs(stale);
        assert_eq!(refused, 1);
        assert_eq!(guarded.leader_for("orders", 0), Some(2));
        assert_eq!(guarded.leader_count(2), 1);
        assert_eq!(guarded.leader_for("new", 0), Some(1));
        // and a merge goes through the same rule
        let merged = held.with_topics_merged(vec![topic(
            "orders",
            1,
            vec![partition(0, 3, 6, &[1, 2, 3])],
        )]);
        assert_eq!(merged.leader_for("orders", 0), Some(2));
    }
}
