//! The watermarks the session asked for the rows on screen (Topics'
//! MESSAGES, Partitions' offsets), with the request bookkeeping and the
//! message rates derived from them.

use std::collections::HashMap;
use std::time::Instant;

use crate::app::throughput::Throughput;
use crate::meta::{TopicPartition, Watermarks};

/// Low/high watermarks seen, for the visible rows.
#[derive(Debug, Default)]
pub struct WatermarkStore {
    /// Per partition.
    pub partitions: HashMap<TopicPartition, Watermarks>,
    /// Per topic: the sum of high − low over its partitions, when all are known.
    pub topic_totals: HashMap<String, i64>,
    /// The request in flight, if any.
    pub in_flight: Option<u64>,
    /// When the last request was sent.
    pub last_request: Option<Instant>,
    /// What the last request asked for (to re-ask when the window moves).
    pub last_asked: Vec<TopicPartition>,
    /// A fingerprint of the visible window `last_asked` was built from: an
    /// unchanged window is not listed again on every update.
    pub last_window: u64,
    /// Answers in a row that changed no watermark (an idle cluster): the
    /// interval between reads grows with them, and the first change
    /// brings it back.
    pub quiet: u32,
    /// Answers received so far.
    pub answers: u64,
    /// Request ids handed out.
    pub next_id: u64,
    /// Messages per second per topic (its partitions' high watermarks summed).
    pub topic_rates: HashMap<String, Throughput>,
    /// Messages per second per partition.
    pub partition_rates: HashMap<TopicPartition, Throughput>,
}
