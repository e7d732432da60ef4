//! Disk usage as last answered, and the rates made from it
//! (`super::super::sizes` asks and takes the answers).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use crate::app::throughput::Throughput;
use crate::inspect::ClusterSizes;
use crate::meta::TopicPartition;

/// Disk usage as last answered.
#[derive(Debug, Default)]
pub struct SizeStore {
    /// The latest answer.
    pub latest: Option<Arc<ClusterSizes>>,
    /// When it landed.
    pub at: Option<Instant>,
    /// Bytes/s per topic (all replicas) between the last two answers;
    /// `None` when the size shrank (retention, compaction) or is unknown.
    pub bytes_per_sec: Arc<HashMap<String, Option<u64>>>,
    /// Bytes/s over the session of the topics that were visible (all
    /// replicas), for their sparkline.
    pub topic_bytes: HashMap<String, Throughput>,
    /// Bytes/s of the partitions that were visible on the Partitions
    /// screen (their largest replica: the leader's unless a follower is
    /// ahead on disk), with their history.
    pub partition_bytes: HashMap<TopicPartition, Throughput>,
    /// The request in flight and when it left.
    pub in_flight: Option<(u64, Instant)>,
    /// When the last request left.
    pub last_request: Option<Instant>,
    /// Answers received (rows sort by them).
    pub answers: u64,
    /// Request ids handed out.
    pub next_id: u64,
}

impl SizeStore {
    /// Forget the cluster's sizes (another context), keeping the ids.
    pub fn reset(&mut self) {
        *self = SizeStore {
            next_id: self.next_id,
            ..SizeStore::default()
        };
    }
}
