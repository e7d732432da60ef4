//! What the Partitions screen keeps: the latest snapshot (the topic on
//! screen is read from it), a plain copy of what the other columns show
//! (each partition's watermarks and messages/s, the config summaries, the
//! disk sizes and bytes/s, when each partition last changed leader) as
//! [`Msg`]s that `update` forwards when they land, and its own fetch's
//! bookkeeping and answer ([`ExtrasStore`]). The rows are read from here
//! alone.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::app::throughput::Throughput;
use crate::inspect::{ClusterSizes, TopicSummary};
use crate::meta::{MetadataSnapshot, TopicPartition, Watermarks};

use super::super::feed;
use super::extras::{Answer, ExtrasStore};

/// How long a partition that moved stays highlighted.
pub const MOVED_HIGHLIGHT: Duration = Duration::from_secs(30);

/// What reaches the store: the answer to its query, and the shared data it
/// shows, forwarded by `update` as it lands.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The answer to the extras query with this request id.
    Extras {
        /// The request id it answers.
        request: u64,
        /// The ELR and local log starts.
        answer: Answer,
    },
    /// A new snapshot.
    Snapshot(Arc<MetadataSnapshot>),
    /// What a watermark answer changed.
    Marks(Arc<feed::Marks>),
    /// What a disk-sizes answer changed.
    Sizes(Arc<feed::Sizes>),
    /// Config summaries that arrived.
    Summaries(Arc<feed::Summaries>),
    /// Partitions that changed leader (or went offline or online) now.
    Moved(Vec<(String, i32)>),
}

/// The Partitions screen's data.
#[derive(Debug)]
pub struct Store {
    /// The latest snapshot.
    pub snap: Arc<MetadataSnapshot>,
    /// Each partition's watermarks, once read.
    pub marks: HashMap<TopicPartition, Watermarks>,
    /// Messages per second per partition.
    pub rates: HashMap<TopicPartition, Throughput>,
    /// Config summaries per topic (min ISR; tiered storage).
    pub summaries: HashMap<String, TopicSummary>,
    /// The brokers' log dirs, once read.
    pub sizes: Option<Arc<ClusterSizes>>,
    /// Bytes/s of the partitions that were visible, with their history.
    pub bytes: HashMap<TopicPartition, Throughput>,
    /// When each partition last changed leader.
    pub moved_at: HashMap<(String, i32), Instant>,
    /// The ELR and local log starts of the topic asked for.
    pub extras: ExtrasStore,
    /// What the status line should say about the last extras answer.
    pub notice: Option<String>,
    /// Messages taken (the rows are rebuilt when it moves).
    pub taken: u64,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            snap: Arc::new(MetadataSnapshot::empty()),
            marks: HashMap::new(),
            rates: HashMap::new(),
            summaries: HashMap::new(),
            sizes: None,
            bytes: HashMap::new(),
            moved_at: HashMap::new(),
            extras: ExtrasStore::default(),
            notice: None,
            taken: 0,
        }
    }
}

impl Store {
    /// Take a message landed at `now`.
    pub fn receive(&mut self, msg: Msg, now: Instant) {
        self.taken += 1;
        match msg {
            Msg::Extras { request, answer } => {
                self.notice = self.extras.take(request, answer, now);
            }
            Msg::Snapshot(snap) => self.snap = snap,
            Msg::Marks(marks) => {
                marks.partitions.apply(&mut self.marks);
                marks.partition_rates.apply(&mut self.rates);
            }
            Msg::Sizes(sizes) => {
                self.sizes = Some(Arc::clone(&sizes.latest));
                sizes.partition_bytes.apply(&mut self.bytes);
            }
            Msg::Summaries(summaries) => {
                for (topic, summary) in summaries.iter() {
                    self.summaries.insert(topic.clone(), summary.clone());
                }
            }
            Msg::Moved(partitions) => {
                for key in partitions {
                    self.moved_at.insert(key, now);
                }
            }
        }
    }

    /// Whether partition `partition` of `topic` changed leader within
    /// [`MOVED_HIGHLIGHT`] of `now`.
    pub fn recently_moved(&self, topic: &str, partition: i32, now: Instant) -> bool {
        self.moved_at
            .get(&(topic.to_owned(), partition))
            .is_some_and(|at| now.saturating_duration_since(*at) < MOVED_HIGHLIGHT)
    }

    /// Partition `index` of `topic` (what a row index points at).
    pub fn partition(&self, topic: &str, index: usize) -> Option<i32> {
        Some(self.snap.topic(topic)?.partitions.get(index)?.partition)
    }
}
