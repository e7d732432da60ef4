//! What the session's shared stores hand the screens that show their data
//! (the Topics and Partitions screens): the watermarks, disk sizes and
//! config summaries an answer brought, as the changes it made, so each
//! screen's store keeps a plain copy of what its rows show. The shared
//! stores (`AppState::watermarks`, `AppState::sizes`, the configs store)
//! keep their own request bookkeeping and build these when an answer lands.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

use crate::app::throughput::Throughput;
use crate::inspect::{ClusterSizes, TopicSummary};
use crate::meta::{TopicPartition, Watermarks};

/// The changes one answer made to a keyed map of a shared store: cleared
/// first if so, then each key set to its new value or removed.
#[derive(Debug, Clone)]
pub struct Changes<K, V> {
    /// The map was emptied before the answer's keys were set (scrolled
    /// through many rows: only what is on screen is kept).
    pub cleared: bool,
    /// Each key the answer touched, with its value now (`None`: removed).
    pub set: Vec<(K, Option<V>)>,
}

impl<K, V> Default for Changes<K, V> {
    fn default() -> Self {
        Changes {
            cleared: false,
            set: Vec::new(),
        }
    }
}

impl<K: Hash + Eq + Clone, V: Clone> Changes<K, V> {
    /// The values of `keys` in `map` as it is now, after it was emptied if
    /// `cleared`.
    pub fn of<'a>(map: &HashMap<K, V>, keys: impl IntoIterator<Item = &'a K>, cleared: bool) -> Self
    where
        K: 'a,
    {
        Changes {
            cleared,
            set: keys
                .into_iter()
                .map(|k| (k.clone(), map.get(k).cloned()))
                .collect(),
        }
    }

    /// Make the same changes to `copy`.
    pub fn apply(&self, copy: &mut HashMap<K, V>) {
        if self.cleared {
            copy.clear();
        }
        for (key, value) in &self.set {
            match value {
                Some(value) => drop(copy.insert(key.clone(), value.clone())),
                None => drop(copy.remove(key)),
            }
        }
    }
}

/// What a watermark answer changed.
#[derive(Debug, Clone, Default)]
pub struct Marks {
    /// Records per topic (high − low summed, when every partition is known).
    pub topic_totals: Changes<String, i64>,
    /// Messages per second per topic.
    pub topic_rates: Changes<String, Throughput>,
    /// Each partition's watermarks.
    pub partitions: Changes<TopicPartition, Watermarks>,
    /// Messages per second per partition.
    pub partition_rates: Changes<TopicPartition, Throughput>,
}

/// What a disk-sizes answer changed.
#[derive(Debug, Clone)]
pub struct Sizes {
    /// The brokers' log dirs as answered.
    pub latest: Arc<ClusterSizes>,
    /// Bytes/s per topic (all replicas) between the last two answers.
    pub bytes_per_sec: Arc<HashMap<String, Option<u64>>>,
    /// Bytes/s of the visible topics, with their history.
    pub topic_bytes: Changes<String, Throughput>,
    /// Bytes/s of the visible partitions, with their history.
    pub partition_bytes: Changes<TopicPartition, Throughput>,
}

/// Config summaries that a configs answer brought, per topic.
pub type Summaries = Vec<(String, TopicSummary)>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_given_the_changes_stays_equal_to_the_map() {
        let mut shared: HashMap<&str, i64> = HashMap::from([("a", 1), ("b", 2)]);
        let mut copy = shared.clone();
        shared.insert("a", 5);
        shared.remove("b");
        shared.insert("c", 3);
        Changes::of(&shared, &["a", "b", "c"], false).apply(&mut copy);
        assert_eq!(copy, shared, "set, removed, added");
        shared.clear();
        shared.insert("d", 4);
        Changes::of(&shared, &["d"], true).apply(&mut copy);
        assert_eq!(copy, shared, "cleared first");
    }
}
