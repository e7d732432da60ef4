//! Sizes from the brokers' log dirs: per broker (used, total, usable) and
//! per topic (all replicas, and the leaders' replicas only). A size that
//! depends on a broker that did not answer is `None`, never a guess.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::log_dirs::BrokerLogDirs;
use crate::meta::MetadataSnapshot;

/// A broker's disk: sums over its log dirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BrokerDisk {
    /// Bytes its current replicas take.
    pub used_bytes: i64,
    /// The volumes' total size; `None` unless every dir reports it.
    pub total_bytes: Option<i64>,
    /// The volumes' usable free space; `None` unless every dir reports it.
    pub usable_bytes: Option<i64>,
}

/// A topic's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TopicSize {
    /// Every current replica; `None` when a broker holding one did not answer.
    pub all_replicas: Option<i64>,
    /// The leader replica of each partition; `None` when a leader did not
    /// answer or a partition has no leader.
    pub leaders_only: Option<i64>,
}

/// Every broker's disk and every topic's size from one round of answers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterSizes {
    /// Per broker asked: its disk, or `None` when it did not answer.
    pub brokers: BTreeMap<i32, Option<BrokerDisk>>,
    /// Per topic of the snapshot.
    pub topics: HashMap<String, TopicSize>,
}

impl ClusterSizes {
    /// Sum up `answers` (one per broker) against `snapshot`.
    pub fn of(answers: &[BrokerLogDirs], snapshot: &MetadataSnapshot) -> ClusterSizes {
        ClusterSizes {
            brokers: answers.iter().map(|a| (a.0, broker_disk(a))).collect(),
            topics: topic_sizes(answers, snapshot),
        }
    }
}

/// The disk of one broker from its answer (`None` when it gave none).
pub fn broker_disk(answer: &BrokerLogDirs) -> Option<BrokerDisk> {
    let dirs = answer.1.as_ref().ok()?;
    let sum = |f: fn(&super::LogDir) -> Option<i64>| {
        dirs.iter()
            .map(f)
            .try_fold(0i64, |acc, v| Some(acc.saturating_add(v?)))
    };
    Some(BrokerDisk {
        used_bytes: dirs.iter().map(super::LogDir::used_bytes).sum(),
        total_bytes: sum(|d| d.total_bytes),
        usable_bytes: sum(|d| d.usable_bytes),
    })
}

/// Each topic's size from every broker's answer. One pass over the
/// replicas; the snapshot says which replica leads and which brokers hold
/// replicas of what.
pub fn topic_sizes(
    answers: &[BrokerLogDirs],
    snapshot: &MetadataSnapshot,
) -> HashMap<String, TopicSize> {
    let answered: HashSet<i32> = answers
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(b, _)| *b)
        .collect();
    let mut all: HashMap<&str, i64> = HashMap::new();
    let mut leaders: HashMap<&str, i64> = HashMap::new();
    for (broker, dirs) in answers {
        let Ok(dirs) = dirs else { continue };
        for replica in dirs.iter().flat_map(|d| &d.replicas).filter(|r| !r.future) {
            let Some(topic) = snapshot.topic(&replica.topic) else {
                continue;
            };
            let name = topic.name.as_str();
            *all.entry(name).or_default() += replica.size;
            let leads = snapshot
                .partition(name, replica.partition)
                .is_some_and(|p| p.leader == Some(*broker));
            if leads {
                *leaders.entry(name).or_default() += replica.size;
            }
        }
    }
    snapshot
        .topics()
        .iter()
        .map(|topic| {
            let name = topic.name.as_str();
            let complete = topic
                .partitions
                .iter()
                .all(|p| p.replicas.iter().all(|r| answered.contains(r)));
            let leaders_known = topic
                .partitions
                .iter()
                .all(|p| p.leader.is_some_and(|l| answered.contains(&l)));
            let size = TopicSize {
                all_replicas: complete.then(|| all.get(name).copied().unwrap_or(0)),
                leaders_only: leaders_known.then(|| leaders.get(name).copied().unwrap_or(0)),
            };
            (topic.name.clone(), size)
        })
        .collect()
}
