//! [`MetadataSnapshot`]: one immutable, consistent view of the cluster.
//!
//! A snapshot is built once (from a metadata response, or by merging a
//! topic-scoped response into the previous one) and never changed after.
//! What every frame of the UI would otherwise recompute — leaders per broker,
//! per-topic under-replicated / offline / preferred-leader counts — is derived
//! here, once, so reading it is O(1) on the render path.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::conn::ErrorCode;

use super::epochs;
pub use super::records::{
    BrokerInfo, NodeIdInterner, NodeIds, PartitionInfo, TopicInfo, TopicStats,
};
pub use super::topic_id::TopicId;

/// An immutable view of the cluster at one moment.
#[derive(Debug, Clone)]
pub struct MetadataSnapshot {
    brokers: Vec<BrokerInfo>,
    /// Shared between snapshots: a topic-scoped refresh replaces the topics
    /// it fetched and shares every other one with the snapshot it replaces.
    topics: Vec<Arc<TopicInfo>>,
    stats: Vec<TopicStats>,
    leader_counts: BTreeMap<i32, usize>,
    controller_id: Option<i32>,
    quorum_voters: Vec<i32>,
    cluster_id: Option<String>,
    fetched_at: Instant,
}

impl MetadataSnapshot {
    /// The snapshot a cluster starts with: nothing known yet.
    pub fn empty() -> Self {
        Self::new(Vec::new(), Vec::new(), None, None)
    }

    /// Build a snapshot; brokers are sorted by id, topics by name, partitions by index.
    ///
    /// Topics that carry an error and no partitions (a name the broker does
    /// not know, an unauthorized topic) are not topics anyone can browse and
    /// are left out; the caller that asked for them reads the error from the
    /// response instead.
    pub fn new(
        mut brokers: Vec<BrokerInfo>,
        topics: Vec<TopicInfo>,
        controller_id: Option<i32>,
        cluster_id: Option<String>,
    ) -> Self {
        brokers.sort_by_key(|b| b.node_id);
        brokers.dedup_by_key(|b| b.node_id);
        let mut topics: Vec<TopicInfo> = topics
            .into_iter()
            .filter(|t| !(t.error.is_some() && t.partitions.is_empty()))
            .collect();
        topics.sort_by(|a, b| a.name.cmp(&b.name));
        topics.dedup_by(|a, b| a.name == b.name);
        for topic in &mut topics {
            topic.partitions.sort_by_key(|p| p.partition);
        }
        let topics = topics.into_iter().map(Arc::new).collect();
        Self::derive(brokers, topics, controller_id, cluster_id, Instant::now())
    }

    fn derive(
        brokers: Vec<BrokerInfo>,
        topics: Vec<Arc<TopicInfo>>,
        controller_id: Option<i32>,
        cluster_id: Option<String>,
        fetched_at: Instant,
    ) -> Self {
        let stats = topics.iter().map(|t| TopicStats::of(t)).collect();
        let mut leader_counts = BTreeMap::new();
        for topic in &topics {
            tally_leaders(&mut leader_counts, topic, true);
        }
        Self {
            brokers,
            topics,
            stats,
            leader_counts,
            controller_id,
            quorum_voters: Vec::new(),
            cluster_id,
            fetched_at,
        }
    }

    /// How long ago the (full) metadata in this snapshot was fetched.
    pub fn age(&self) -> Duration {
        self.fetched_at.elapsed()
    }

    /// When the metadata was fetched.
    pub fn fetched_at(&self) -> Instant {
        self.fetched_at
    }

    /// Every broker, by node id.
    pub fn brokers(&self) -> &[BrokerInfo] {
        &self.brokers
    }

    /// One broker by node id.
    pub fn broker(&self, node_id: i32) -> Option<&BrokerInfo> {
        self.brokers
            .binary_search_by_key(&node_id, |b| b.node_id)
            .ok()
            .and_then(|i| self.brokers.get(i))
    }

    /// Every topic, by name.
    pub fn topics(&self) -> &[Arc<TopicInfo>] {
        &self.topics
    }

    fn topic_index(&self, name: &str) -> Option<usize> {
        self.topics
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
    }

    /// One topic by name.
    pub fn topic(&self, name: &str) -> Option<&TopicInfo> {
        self.topic_index(name)
            .and_then(|i| self.topics.get(i))
            .map(AsRef::as_ref)
    }

    fn shared_topic(&self, name: &str) -> Option<&Arc<TopicInfo>> {
        self.topic_index(name).and_then(|i| self.topics.get(i))
    }

    /// The derived numbers of one topic.
    pub fn topic_stats(&self, name: &str) -> Option<&TopicStats> {
        self.topic_index(name).and_then(|i| self.stats.get(i))
    }

    /// One partition.
    pub fn partition(&self, topic: &str, partition: i32) -> Option<&PartitionInfo> {
        self.topic(topic)?.partition(partition)
    }

    /// The leader of a partition, when known and present.
    pub fn leader_for(&self, topic: &str, partition: i32) -> Option<i32> {
        self.partition(topic, partition)?.leader
    }

    /// How many partitions a broker leads.
    pub fn leader_count(&self, node_id: i32) -> usize {
        self.leader_counts.get(&node_id).copied().unwrap_or(0)
    }

    /// The active controller: in `KRaft` the leader of the metadata quorum
    /// (a full refresh asks `DescribeQuorum`, see `quorum.rs`; a dedicated
    /// controller's id names no broker), on a `ZooKeeper` cluster the one the
    /// Metadata response names.
    pub fn controller_id(&self) -> Option<i32> {
        self.controller_id
    }

    /// The `KRaft` controller quorum's voters by id, the active controller
    /// among them (empty where unknown: a `ZooKeeper` cluster, or the quorum
    /// could not be asked). In combined mode they are brokers too.
    pub fn quorum_voters(&self) -> &[i32] {
        &self.quorum_voters
    }

    /// The same snapshot naming another active controller and quorum.
    #[must_use]
    pub fn with_quorum(mut self, controller_id: Option<i32>, voters: Vec<i32>) -> Self {
        self.controller_id = controller_id;
        self.quorum_voters = voters;
        self
    }

    pub fn cluster_id(&self) -> Option<&str> {
        self.cluster_id.as_deref()
    }

    /// How many partitions the snapshot holds.
    pub fn partition_count(&self) -> usize {
        self.stats.iter().map(|s| s.partitions).sum()
    }

    /// This snapshot with fresher information for some topics merged in.
    ///
    /// Per topic: `UNKNOWN_TOPIC_OR_PARTITION` removes it (it was deleted);
    /// another error without partitions keeps what was held; otherwise the
    /// fresh topic replaces the held one, except that a partition whose
    /// leader epoch went *backwards* keeps the held partition (a lagging
    /// broker answered) unless the topic id changed (it was recreated).
    /// The snapshot's age stays that of its last full refresh.
    #[must_use]
    ///
    /// Costs what the fetched topics cost, not what the cluster does: every
    /// other topic (and its stats) is shared with this snapshot, and the
    /// leader counts are adjusted rather than recounted.
    pub fn with_topics_merged(&self, fresh: Vec<TopicInfo>) -> MetadataSnapshot {
        let mut topics = self.topics.clone();
        let mut stats = self.stats.clone();
        let mut leader_counts = self.leader_counts.clone();
        for topic in fresh {
            let held = topics
                .binary_search_by(|t| t.name.as_str().cmp(&topic.name))
                .ok();
            match (held, topic.error) {
                (Some(i), Some(ErrorCode::UnknownTopicOrPartition)) => {
                    let gone = topics.remove(i);
                    stats.remove(i);
                    tally_leaders(&mut leader_counts, &gone, false);
                }
                (_, Some(_)) if topic.partitions.is_empty() => {}
                (Some(i), _) => {
                    if let (Some(slot), Some(stat)) = (topics.get_mut(i), stats.get_mut(i)) {
                        let merged = epochs::merge_topic(slot, topic);
                        if merged == **slot {
                            continue;
                        }
                        tally_leaders(&mut leader_counts, slot, false);
                        tally_leaders(&mut leader_counts, &merged, true);
                        *stat = TopicStats::of(&merged);
                        *slot = Arc::new(merged);
                    }
                }
                (None, _) => {
                    let mut topic = topic;
                    topic.partitions.sort_by_key(|p| p.partition);
                    let at = topics.partition_point(|t| t.name < topic.name);
                    tally_leaders(&mut leader_counts, &topic, true);
                    stats.insert(at, TopicStats::of(&topic));
                    topics.insert(at, Arc::new(topic));
                }
            }
        }
        MetadataSnapshot {
            brokers: self.brokers.clone(),
            topics,
            stats,
            leader_counts,
            controller_id: self.controller_id,
            quorum_voters: self.quorum_voters.clone(),
            cluster_id: self.cluster_id.clone(),
            fetched_at: self.fetched_at,
        }
    }

    /// A freshly fetched full snapshot, with every partition whose leader
    /// epoch would go backwards against this one kept as held.
    ///
    /// Returns the snapshot to install and how many partitions were refused.
    #[must_use]
    pub fn guard_epochs(&self, fresh: MetadataSnapshot) -> (MetadataSnapshot, usize) {
        let MetadataSnapshot {
            brokers,
            topics,
            controller_id,
            quorum_voters,
            cluster_id,
            fetched_at,
            ..
        } = fresh;
        let mut refused = 0;
        let topics = topics
            .into_iter()
            .map(|topic| {
                let Some(held) = self.shared_topic(&topic.name) else {
                    return topic;
                };
                refused += epochs::refused_partitions(held, &topic);
                let fresh = Arc::try_unwrap(topic).unwrap_or_else(|shared| (*shared).clone());
                share_unchanged(held, epochs::merge_topic(held, fresh))
            })
            .collect();
        let guarded = Self::derive(brokers, topics, controller_id, cluster_id, fetched_at)
            .with_quorum(controller_id, quorum_voters);
        (guarded, refused)
    }
}

/// The held topic when `merged` says the same (its allocation is kept and
/// the fresh one freed at once: a refresh of an unchanged cluster leaves the
/// long-lived heap as it was), else `merged`.
fn share_unchanged(held: &Arc<TopicInfo>, merged: TopicInfo) -> Arc<TopicInfo> {
    if merged == **held {
        Arc::clone(held)
    } else {
        Arc::new(merged)
    }
}

/// Add (or take away) a topic's partitions to the per-broker leader counts;
/// a broker that leads nothing has no entry.
fn tally_leaders(counts: &mut BTreeMap<i32, usize>, topic: &TopicInfo, add: bool) {
    for leader in topic.partitions.iter().filter_map(|p| p.leader) {
        if add {
            *counts.entry(leader).or_insert(0) += 1;
        } else if let Some(count) = counts.get_mut(&leader) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&leader);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::fixtures::{broker, partition, topic};

    fn sample() -> MetadataSnapshot {
        MetadataSnapshot::new(
            vec![broker(3), broker(1), broker(2)],
            vec![
                topic(
                    "orders",
                    1,
                    vec![
                        partition(1, 2, 5, &[1, 2, 3]),
                        partition(0, 1, 3, &[1, 2, 3]),
                    ],
                ),
                topic("events", 2, vec![partition(0, -1, 7, &[2, 3])]),
            ],
            Some(1),
            Some("abc".to_owned()),
        )
    }

    #[test]
    fn lookups_work_on_sorted_data() {
        let snapshot = sample();
        assert_eq!(snapshot.brokers()[0].node_id, 1);
        assert_eq!(snapshot.brokers()[0].address(), "127.0.0.1:19092");
        assert_eq!(snapshot.topics()[0].name, "events");
        assert_eq!(snapshot.leader_for("orders", 1), Some(2));
        assert_eq!(snapshot.leader_for("orders", 0), Some(1));
        assert_eq!(snapshot.leader_for("events", 0), None);
        assert_eq!(snapshot.leader_for("nope", 0), None);
        assert_eq!(snapshot.controller_id(), Some(1));
        assert_eq!(snapshot.cluster_id(), Some("abc"));
        assert_eq!(snapshot.partition_count(), 3);
        assert!(MetadataSnapshot::empty().brokers().is_empty());
    }

    #[test]
    fn derived_numbers_are_computed_once_per_snapshot() {
        let snapshot = sample();
        assert_eq!(snapshot.leader_count(1), 1);
        assert_eq!(snapshot.leader_count(2), 1);
        assert_eq!(snapshot.leader_count(3), 0);
        let orders = snapshot.topic_stats("orders").copied().unwrap_or_default();
        assert_eq!(orders.replication_factor, 3);
        assert_eq!(orders.preferred_leaders, 1);
        assert!((orders.preferred_leader_pct() - 50.0).abs() < f64::EPSILON);
        let events = snapshot.topic_stats("events").copied().unwrap_or_default();
        assert_eq!(events.offline, 1);
        assert!(
            snapshot
                .partition("orders", 0)
                .is_some_and(PartitionInfo::is_preferred_leader)
        );
    }

    #[test]
    fn a_merge_replaces_adds_and_removes_topics() {
        let snapshot = sample();
        let mut gone = topic("events", 2, Vec::new());
        gone.error = Some(ErrorCode::UnknownTopicOrPartition);
        let merged = snapshot.with_topics_merged(vec![
            topic(
                "orders",
                1,
                vec![
                    partition(0, 3, 4, &[1, 2, 3]),
                    partition(1, 2, 5, &[1, 2, 3]),
                ],
            ),
            topic("audit", 3, vec![partition(0, 1, 0, &[1])]),
            gone,
        ]);
        let names: Vec<&str> = merged.topics().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["audit", "orders"]);
        assert_eq!(merged.leader_for("orders", 0), Some(3));
        assert_eq!(merged.leader_count(3), 1);
        assert_eq!(merged.fetched_at(), snapshot.fetched_at());
    }

    /// Stats and leader counts a snapshot built from scratch would have.
    fn recounted(snapshot: &MetadataSnapshot) -> MetadataSnapshot {
        let topics = snapshot
            .topics()
            .iter()
            .map(|t| TopicInfo::clone(t))
            .collect();
        MetadataSnapshot::new(snapshot.brokers().to_vec(), topics, None, None)
    }

    #[test]
    fn a_merge_shares_untouched_topics_and_adjusts_the_derived_numbers() {
        let snapshot = MetadataSnapshot::new(
            vec![broker(1), broker(2), broker(3)],
            vec![
                topic("a", 1, vec![partition(0, 1, 1, &[1, 2])]),
                topic(
                    "b",
                    2,
                    vec![partition(0, 2, 1, &[2, 3]), partition(1, 3, 1, &[3, 1])],
                ),
                topic("c", 3, vec![partition(0, 3, 1, &[3, 1])]),
            ],
            None,
            None,
        );
        let mut gone = topic("c", 3, Vec::new());
        gone.error = Some(ErrorCode::UnknownTopicOrPartition);
        let merged = snapshot.with_topics_merged(vec![
            topic(
                "b",
                2,
                vec![partition(0, 3, 2, &[2, 3]), partition(1, -1, 2, &[3, 1])],
            ),
            topic("d", 4, vec![partition(0, 2, 0, &[2])]),
            gone,
        ]);
        assert!(
            Arc::ptr_eq(&snapshot.topics()[0], &merged.topics()[0]),
            "'a' is shared"
        );
        let fresh = recounted(&merged);
        for name in ["a", "b", "d"] {
            assert_eq!(merged.topic_stats(name), fresh.topic_stats(name), "{name}");
        }
        assert!(merged.topic_stats("c").is_none());
        for broker in 1..=3 {
            assert_eq!(
                merged.leader_count(broker),
                fresh.leader_count(broker),
                "broker {broker}"
            );
        }
        assert_eq!((merged.leader_count(1), merged.leader_count(3)), (1, 1));
        assert_eq!(merged.partition_count(), 4);
    }

    #[test]
    fn an_error_without_partitions_keeps_what_was_held() {
        let snapshot = sample();
        let mut denied = topic("orders", 1, Vec::new());
        denied.error = Some(ErrorCode::TopicAuthorizationFailed);
        let merged = snapshot.with_topics_merged(vec![denied]);
        assert_eq!(merged.leader_for("orders", 1), Some(2));
        let mut unknown = topic("typo", 0, Vec::new());
        unknown.error = Some(ErrorCode::UnknownTopicOrPartition);
        assert!(
            merged
                .with_topics_merged(vec![unknown])
                .topic("typo")
                .is_none()
        );
    }

    #[test]
    fn errored_topics_are_not_part_of_a_new_snapshot() {
        let mut unknown = topic("typo", 0, Vec::new());
        unknown.error = Some(ErrorCode::UnknownTopicOrPartition);
        let snapshot = MetadataSnapshot::new(vec![broker(1)], vec![unknown], None, None);
        assert!(snapshot.topics().is_empty());
    }

    #[test]
    fn a_full_refresh_that_changes_nothing_keeps_every_held_topic() {
        let held = sample();
        let (guarded, refused) = held.guard_epochs(sample());
        assert_eq!(refused, 0);
        assert_eq!(guarded.topics().len(), held.topics().len());
        for (kept, was) in guarded.topics().iter().zip(held.topics()) {
            assert!(Arc::ptr_eq(kept, was), "'{}' was not shared", was.name);
        }
    }

    #[test]
    fn a_full_refresh_installs_what_changed_and_shares_the_rest() {
        let held = sample();
        let moved = MetadataSnapshot::new(
            vec![broker(1), broker(2), broker(3)],
            vec![
                topic(
                    "orders",
                    1,
                    vec![
                        partition(0, 1, 3, &[1, 2, 3]),
                        partition(1, 3, 6, &[1, 2, 3]),
                    ],
                ),
                topic("events", 2, vec![partition(0, -1, 7, &[2, 3])]),
            ],
            Some(1),
            None,
        );
        let (guarded, _) = held.guard_epochs(moved);
        let shared = |name: &str| {
            let index = |s: &MetadataSnapshot| s.topics().iter().position(|t| t.name == name);
            match (index(&held), index(&guarded)) {
                (Some(a), Some(b)) => Arc::ptr_eq(&held.topics()[a], &guarded.topics()[b]),
                _ => false,
            }
        };
        assert!(shared("events"));
        assert!(!shared("orders"));
        assert_eq!(guarded.leader_for("orders", 1), Some(3));
    }

    #[test]
    fn a_topic_scoped_refresh_that_changes_nothing_keeps_the_held_topic() {
        let held = sample();
        let same = topic(
            "orders",
            1,
            vec![
                partition(0, 1, 3, &[1, 2, 3]),
                partition(1, 2, 5, &[1, 2, 3]),
            ],
        );
        let merged = held.with_topics_merged(vec![same]);
        let orders = |s: &MetadataSnapshot| s.topics().iter().find(|t| t.name == "orders").cloned();
        let (Some(was), Some(kept)) = (orders(&held), orders(&merged)) else {
            panic!("orders is in both snapshots");
        };
        assert!(Arc::ptr_eq(&was, &kept));
    }
}
