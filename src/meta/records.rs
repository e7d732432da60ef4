//! The records a snapshot holds: brokers, topics with their partitions, and
//! the per-topic numbers derived from them once per snapshot.

use std::sync::Arc;

use crate::conn::ErrorCode;

use super::topic_id::TopicId;

/// A list of broker ids (a replica set, an ISR).
///
/// Shared rather than owned: a million partitions have a handful of distinct
/// replica sets, and the decoder ([`NodeIdInterner`]) hands every partition
/// with the same list the same allocation, so a partition holds three
/// pointers and no heap of its own. Build one from a `Vec` or a slice with
/// `.into()`; read it as a slice.
pub type NodeIds = Arc<[i32]>;

/// Hands out one shared [`NodeIds`] per distinct list of ids, for one
/// decode (dropped with it).
#[derive(Debug, Default)]
pub struct NodeIdInterner {
    seen: std::collections::HashSet<NodeIds>,
    scratch: Vec<i32>,
}

impl NodeIdInterner {
    /// The shared list holding `ids`, made on first sight.
    pub fn intern(&mut self, ids: impl IntoIterator<Item = i32>) -> NodeIds {
        self.scratch.clear();
        self.scratch.extend(ids);
        if let Some(held) = self.seen.get(self.scratch.as_slice()) {
            return Arc::clone(held);
        }
        let fresh: NodeIds = Arc::from(self.scratch.as_slice());
        self.seen.insert(Arc::clone(&fresh));
        fresh
    }
}

/// A broker as the metadata names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokerInfo {
    /// The broker's node id.
    pub node_id: i32,
    /// The advertised host.
    pub host: String,
    /// The advertised port.
    pub port: i32,
    /// The rack, when configured.
    pub rack: Option<String>,
}

impl BrokerInfo {
    /// `host:port`, as a connection wants it.
    pub fn address(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// One partition of a topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionInfo {
    /// The partition index.
    pub partition: i32,
    /// The leader; `None` when the partition has none (offline).
    pub leader: Option<i32>,
    /// The leader epoch (-1 when the broker does not say).
    pub leader_epoch: i32,
    /// The replica set; the first one is the preferred leader.
    pub replicas: NodeIds,
    /// The in-sync replicas.
    pub isr: NodeIds,
    /// Replicas on offline log directories or brokers.
    pub offline_replicas: NodeIds,
    /// A partition-level error from the broker, if any.
    pub error: Option<ErrorCode>,
}

impl PartitionInfo {
    /// The preferred leader: the first replica.
    pub fn preferred_leader(&self) -> Option<i32> {
        self.replicas.first().copied()
    }

    /// Whether the current leader is the preferred one.
    pub fn is_preferred_leader(&self) -> bool {
        self.leader.is_some() && self.leader == self.preferred_leader()
    }

    /// Whether the partition has no leader.
    pub fn is_offline(&self) -> bool {
        self.leader.is_none()
    }

    /// Whether fewer replicas are in sync than assigned.
    pub fn is_under_replicated(&self) -> bool {
        self.isr.len() < self.replicas.len()
    }
}

/// One topic and its partitions (sorted by index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicInfo {
    /// The name (copied out of the response buffer).
    pub name: String,
    /// The topic id; nil from brokers that do not send one.
    pub topic_id: TopicId,
    /// Whether Kafka marks it internal (`__consumer_offsets`, …).
    pub internal: bool,
    pub partitions: Vec<PartitionInfo>,
    /// A topic-level error from the broker, if any.
    pub error: Option<ErrorCode>,
}

impl TopicInfo {
    /// One partition by index.
    pub fn partition(&self, index: i32) -> Option<&PartitionInfo> {
        // Partitions are sorted and almost always dense, so try the direct slot first.
        let direct = usize::try_from(index)
            .ok()
            .and_then(|i| self.partitions.get(i))
            .filter(|p| p.partition == index);
        direct.or_else(|| {
            self.partitions
                .binary_search_by_key(&index, |p| p.partition)
                .ok()
                .and_then(|i| self.partitions.get(i))
        })
    }
}

/// Per-topic numbers derived once per snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TopicStats {
    /// The largest replica set of any partition.
    pub replication_factor: usize,
    /// Partitions with fewer in-sync replicas than replicas.
    pub under_replicated: usize,
    /// Partitions without a leader.
    pub offline: usize,
    /// Partitions led by their preferred (first) replica.
    pub preferred_leaders: usize,
    /// How many partitions the topic has.
    pub partitions: usize,
}

impl TopicStats {
    /// The numbers of one topic, counted over its partitions.
    pub(super) fn of(topic: &TopicInfo) -> Self {
        let mut stats = TopicStats {
            partitions: topic.partitions.len(),
            ..TopicStats::default()
        };
        for partition in &topic.partitions {
            stats.replication_factor = stats.replication_factor.max(partition.replicas.len());
            stats.under_replicated += usize::from(partition.is_under_replicated());
            stats.offline += usize::from(partition.is_offline());
            stats.preferred_leaders += usize::from(partition.is_preferred_leader());
        }
        stats
    }

    /// The share of partitions led by their preferred replica, 0–100
    /// (100 for a topic without partitions: nothing is misplaced).
    #[allow(clippy::cast_precision_loss)] // partition counts are far below 2^52
    pub fn preferred_leader_pct(&self) -> f64 {
        if self.partitions == 0 {
            return 100.0;
        }
        self.preferred_leaders as f64 * 100.0 / self.partitions as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_lists_of_ids_share_one_allocation() {
        let mut ids = NodeIdInterner::default();
        let a = ids.intern([1, 2, 3]);
        let b = ids.intern(vec![1, 2, 3]);
        let other = ids.intern([3, 1, 2]);
        let none = ids.intern([]);
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &other));
        assert!(Arc::ptr_eq(&none, &ids.intern(Vec::new())));
        assert_eq!(
            (&*a, &*other, &*none),
            (&[1, 2, 3][..], &[3, 1, 2][..], &[][..])
        );
    }
}
