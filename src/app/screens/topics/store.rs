//! What the Topics screen keeps: the topics of the latest snapshot with
//! their numbers, and a plain copy of what the other columns show of them
//! (records and messages/s from the watermarks, the config summaries, the
//! disk sizes and bytes/s, the largest group lag), with the session's
//! toggles that decide the rows (internal topics shown) and the title
//! (`L` keeps the group list loading). All of it arrives as [`Msg`]s that
//! `update` forwards from what the session holds when it lands; the rows
//! are read from here alone.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use crate::app::throughput::Throughput;
use crate::groups::Overview;
use crate::inspect::{ClusterSizes, TopicSummary};
use crate::meta::{MetadataSnapshot, TopicInfo};

use super::super::feed;
use super::lag::TopicLag;

/// What reaches the store: the shared data it shows, forwarded by `update`
/// as it lands.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A new snapshot: its topics and their numbers.
    Snapshot(Arc<MetadataSnapshot>),
    /// The session's toggles, when one changed (and after `:ctx`).
    Toggles {
        /// Internal topics are listed (`i`).
        internal: bool,
        /// `L`: the group list keeps loading for the LAG column.
        follow_lag: bool,
    },
    /// What a watermark answer changed.
    Marks(Arc<feed::Marks>),
    /// What a disk-sizes answer changed.
    Sizes(Arc<feed::Sizes>),
    /// Config summaries that arrived.
    Summaries(Arc<feed::Summaries>),
    /// The group list as it stands, landed `at` (the LAG column).
    Groups {
        /// The list, if loaded.
        overview: Option<Arc<Overview>>,
        /// When it landed.
        at: Option<Instant>,
    },
}

/// The Topics screen's data.
#[derive(Debug)]
pub struct Store {
    /// The latest snapshot (topics sorted by name, each with its numbers).
    pub snap: Arc<MetadataSnapshot>,
    /// Internal topics are listed.
    pub internal: bool,
    /// `L` keeps the group list loading (what the title says LAG waits for).
    pub follow_lag: bool,
    /// Records per topic, once its watermarks are in.
    pub totals: HashMap<String, i64>,
    /// Messages per second per topic.
    pub rates: HashMap<String, Throughput>,
    /// Config summaries per topic.
    pub summaries: HashMap<String, TopicSummary>,
    /// The brokers' log dirs, once read.
    pub sizes: Option<Arc<ClusterSizes>>,
    /// Bytes/s per topic between the last two size answers.
    pub bytes_per_sec: Arc<HashMap<String, Option<u64>>>,
    /// Bytes/s of the topics that were visible, with their history.
    pub bytes: HashMap<String, Throughput>,
    /// The LAG column.
    pub lag: TopicLag,
    /// Messages taken (the rows are rebuilt when it moves).
    pub taken: u64,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            snap: Arc::new(MetadataSnapshot::empty()),
            internal: false,
            follow_lag: false,
            totals: HashMap::new(),
            rates: HashMap::new(),
            summaries: HashMap::new(),
            sizes: None,
            bytes_per_sec: Arc::default(),
            bytes: HashMap::new(),
            lag: TopicLag::default(),
            taken: 0,
        }
    }
}

impl Store {
    /// Take a message.
    pub fn receive(&mut self, msg: Msg) {
        self.taken += 1;
        match msg {
            Msg::Snapshot(snap) => self.snap = snap,
            Msg::Toggles {
                internal,
                follow_lag,
            } => {
                self.internal = internal;
                self.follow_lag = follow_lag;
            }
            Msg::Marks(marks) => {
                marks.topic_totals.apply(&mut self.totals);
                marks.topic_rates.apply(&mut self.rates);
            }
            Msg::Sizes(sizes) => {
                self.sizes = Some(Arc::clone(&sizes.latest));
                self.bytes_per_sec = Arc::clone(&sizes.bytes_per_sec);
                sizes.topic_bytes.apply(&mut self.bytes);
            }
            Msg::Summaries(summaries) => {
                for (topic, summary) in summaries.iter() {
                    self.summaries.insert(topic.clone(), summary.clone());
                }
            }
            Msg::Groups { overview, at } => self.lag.refresh(overview.as_deref(), at),
        }
    }

    /// Topic `index` of the snapshot (what a row index points at).
    pub fn topic(&self, index: usize) -> Option<&TopicInfo> {
        self.snap.topics().get(index).map(AsRef::as_ref)
    }
}
