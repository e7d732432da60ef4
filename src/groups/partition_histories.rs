//! The per-partition lag histories of the group on screen (or the one
//! `describe group` watches for STUCK): one [`LagHistory`] per partition
//! with a lag number, dropped with the partition.

use std::collections::BTreeMap;
use std::time::Instant;

use super::history::{LagHistory, LagSample};
use super::lag::GroupLag;

/// Per-partition histories for the group being viewed.
#[derive(Debug, Clone, Default)]
pub struct PartitionHistories {
    histories: BTreeMap<(String, i32), LagHistory>,
    capacity: usize,
}

impl PartitionHistories {
    /// Empty, keeping `capacity` samples per partition.
    pub fn new(capacity: usize) -> PartitionHistories {
        PartitionHistories {
            histories: BTreeMap::new(),
            capacity,
        }
    }

    /// Record one refresh of the group's lag (partitions with a number only;
    /// partitions no longer reported are dropped, bounding memory by the
    /// group's size).
    pub fn record(&mut self, at: Instant, lag: &GroupLag) {
        let mut seen = BTreeMap::new();
        for p in &lag.partitions {
            if let (Some(committed), Some(end), Some(records)) = (p.committed, p.end, p.records()) {
                let key = (p.topic.to_string(), p.partition);
                let mut history = self
                    .histories
                    .remove(&key)
                    .unwrap_or_else(|| LagHistory::new(self.capacity));
                history.push(LagSample {
                    at,
                    lag: records,
                    committed,
                    end,
                });
                seen.insert(key, history);
            }
        }
        self.histories = seen;
    }

    /// One partition's history.
    pub fn get(&self, topic: &str, partition: i32) -> Option<&LagHistory> {
        self.histories.get(&(topic.to_owned(), partition))
    }
}
