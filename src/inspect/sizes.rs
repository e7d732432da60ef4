//! Sizes from the brokers' log dirs: per broker (used, total, usable) and
//! per topic (all replicas, and the leaders' replicas only). A size that
//! depends on a broker that did not answer is `None`, never a guess.

use std::collections::{BTreeMap, HashMap};

use super::log_dirs::{BrokerLogDirs, LogDir};
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

/// Every broker's disk and every topic's size from one round of answers,
/// and the answers themselves for the replicas of one partition.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterSizes {
    /// Per broker asked: its disk, or `None` when it did not answer.
    pub brokers: BTreeMap<i32, Option<BrokerDisk>>,
    /// Per topic of the snapshot.
    pub topics: HashMap<String, TopicSize>,
    /// The log dirs of each broker that answered, by broker id.
    pub dirs: Vec<(i32, Vec<LogDir>)>,
}

/// One broker's replica of a partition, as that broker reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BrokerReplica {
    /// The broker holding it.
    pub broker: i32,
    /// Bytes on disk.
    pub size: i64,
    /// For a future replica, how many offsets it is behind the current one.
    pub offset_lag: i64,
    /// Whether it is the future replica of a move between log dirs
    /// (`AlterReplicaLogDirs`).
    pub future: bool,
}

impl ClusterSizes {
    /// Sum up `answers` (one per broker) against `snapshot`, keeping the
    /// answered log dirs.
    pub fn of(answers: Vec<BrokerLogDirs>, snapshot: &MetadataSnapshot) -> ClusterSizes {
        let brokers = answers.iter().map(|a| (a.0, broker_disk(a))).collect();
        let topics = topic_sizes(&answers, snapshot);
        let dirs = answers
            .into_iter()
            .filter_map(|(broker, dirs)| Some((broker, dirs.ok()?)))
            .collect();
        ClusterSizes {
            brokers,
            topics,
            dirs,
        }
    }

    /// Whether `broker` answered (its replicas are known).
    pub fn answered(&self, broker: i32) -> bool {
        matches!(self.brokers.get(&broker), Some(Some(_)))
    }

    /// The replicas of `topic`-`partition` that answering brokers hold, by
    /// broker, each broker's current replica before its future one. A few
    /// binary searches per log dir: cheap enough for the rows on screen.
    pub fn replicas(&self, topic: &str, partition: i32) -> Vec<BrokerReplica> {
        let mut replicas: Vec<BrokerReplica> = self
            .dirs
            .iter()
            .flat_map(|(broker, dirs)| {
                dirs.iter()
                    .filter_map(move |d| d.topic(topic))
                    .flat_map(move |t| t.partition(partition))
                    .map(|r| BrokerReplica {
                        broker: *broker,
                        size: r.size,
                        offset_lag: r.offset_lag,
                        future: r.future,
                    })
            })
            .collect();
        replicas.sort_by_key(|r| (r.broker, r.future));
        replicas
    }
}

/// The disk of one broker from its answer (`None` when it gave none).
pub fn broker_disk(answer: &BrokerLogDirs) -> Option<BrokerDisk> {
    let dirs = answer.1.as_ref().ok()?;
    let sum = |f: fn(&LogDir) -> Option<i64>| {
        dirs.iter()
            .map(f)
            .try_fold(0i64, |acc, v| Some(acc.saturating_add(v?)))
    };
    Some(BrokerDisk {
        used_bytes: dirs.iter().map(LogDir::used_bytes).sum(),
        total_bytes: sum(|d| d.total_bytes),
        usable_bytes: sum(|d| d.usable_bytes),
    })
}

/// Each topic's size from every broker's answer. The answers are walked
/// topic by topic: one snapshot lookup per topic a dir holds, partitions by
/// index, and sums kept beside the snapshot's (sorted) topics.
pub fn topic_sizes(
    answers: &[BrokerLogDirs],
    snapshot: &MetadataSnapshot,
) -> HashMap<String, TopicSize> {
    let mut answered: Vec<i32> = answers
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(b, _)| *b)
        .collect();
    answered.sort_unstable();
    let answered = |broker: &i32| answered.binary_search(broker).is_ok();
    let topics = snapshot.topics();
    let mut all = vec![0i64; topics.len()];
    let mut leaders = vec![0i64; topics.len()];
    for (broker, dirs) in answers {
        let Ok(dirs) = dirs else { continue };
        for held in dirs.iter().flat_map(|d| &d.topics) {
            let Ok(index) = topics.binary_search_by(|t| t.name.as_str().cmp(&held.name)) else {
                continue;
            };
            let (Some(topic), Some(all), Some(leaders)) = (
                topics.get(index),
                all.get_mut(index),
                leaders.get_mut(index),
            ) else {
                continue;
            };
            for replica in held.partitions.iter().filter(|r| !r.future) {
                *all = all.saturating_add(replica.size);
                let leads = topic
                    .partition(replica.partition)
                    .is_some_and(|p| p.leader == Some(*broker));
                if leads {
                    *leaders = leaders.saturating_add(replica.size);
                }
            }
        }
    }
    topics
        .iter()
        .zip(all.into_iter().zip(leaders))
        .map(|(topic, (all, leaders))| {
            let complete = topic
                .partitions
                .iter()
                .all(|p| p.replicas.iter().all(answered));
            let leaders_known = topic
                .partitions
                .iter()
                .all(|p| p.leader.as_ref().is_some_and(answered));
            let size = TopicSize {
                all_replicas: complete.then_some(all),
                leaders_only: leaders_known.then_some(leaders),
            };
            (topic.name.clone(), size)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::{Error, ReplicaSize, TopicReplicas};
    use crate::meta::snapshot::{BrokerInfo, PartitionInfo, TopicId, TopicInfo};

    fn partition(index: i32, leader: i32) -> PartitionInfo {
        PartitionInfo {
            partition: index,
            leader: Some(leader),
            leader_epoch: 0,
            replicas: vec![1, 2].into(),
            isr: vec![1, 2].into(),
            offline_replicas: Vec::new().into(),
            error: None,
        }
    }

    /// `orders` (partition 0 led by 1, partition 1 by 2) and `pay` (one
    /// partition led by 2), every partition on brokers 1 and 2.
    fn snapshot() -> MetadataSnapshot {
        let topic = |name: &str, partitions| TopicInfo {
            name: name.to_owned(),
            topic_id: TopicId::from_bytes([0; 16]),
            internal: false,
            partitions,
            error: None,
        };
        let broker = |id| BrokerInfo {
            node_id: id,
            host: "127.0.0.1".to_owned(),
            port: 9092,
            rack: None,
        };
        MetadataSnapshot::new(
            vec![broker(1), broker(2)],
            vec![
                topic("orders", vec![partition(0, 1), partition(1, 2)]),
                topic("pay", vec![partition(0, 2)]),
            ],
            None,
            None,
        )
    }

    /// A replica in a test dir: partition, size, whether it is a future one.
    type Replica = (i32, i64, bool);

    fn dir(topics: &[(&str, &[Replica])]) -> LogDir {
        LogDir {
            path: "/data".to_owned(),
            error: None,
            total_bytes: Some(1000),
            usable_bytes: Some(400),
            topics: topics
                .iter()
                .map(|(name, replicas)| TopicReplicas {
                    name: (*name).to_owned(),
                    partitions: replicas
                        .iter()
                        .map(|&(partition, size, future)| ReplicaSize {
                            partition,
                            size,
                            offset_lag: i64::from(future),
                            future,
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    fn answers() -> Vec<BrokerLogDirs> {
        vec![
            (
                1,
                Ok(vec![dir(&[
                    ("orders", &[(0, 100, false), (1, 90, false)]),
                    ("pay", &[(0, 7, false)]),
                    ("gone", &[(0, 5000, false)]),
                ])]),
            ),
            (
                2,
                Ok(vec![
                    dir(&[("orders", &[(0, 95, false), (1, 80, false)])]),
                    dir(&[("orders", &[(1, 30, true)]), ("pay", &[(0, 8, false)])]),
                ]),
            ),
        ]
    }

    #[test]
    fn topics_sum_current_replicas_and_their_leaders() {
        let sizes = ClusterSizes::of(answers(), &snapshot());
        let orders = sizes.topics.get("orders").copied().unwrap_or_default();
        assert_eq!(orders.all_replicas, Some(100 + 90 + 95 + 80), "no future");
        assert_eq!(orders.leaders_only, Some(100 + 80));
        let pay = sizes.topics.get("pay").copied().unwrap_or_default();
        assert_eq!((pay.all_replicas, pay.leaders_only), (Some(15), Some(8)));
        assert!(!sizes.topics.contains_key("gone"), "not in the snapshot");
        let disk = sizes.brokers.get(&1).copied().flatten().unwrap_or_default();
        assert_eq!(disk.used_bytes, 5197);
        assert_eq!(disk.total_bytes, Some(1000));
    }

    #[test]
    fn a_silent_broker_makes_the_sizes_it_holds_unknown() {
        let mut answers = answers();
        answers[1].1 = Err(Error::Task {
            what: "describe log dirs",
            message: "broker 2 gave no result".to_owned(),
        });
        let sizes = ClusterSizes::of(answers, &snapshot());
        let orders = sizes.topics.get("orders").copied().unwrap_or_default();
        assert_eq!(orders.all_replicas, None);
        assert_eq!(orders.leaders_only, None, "partition 1's leader is silent");
        assert_eq!(sizes.brokers.get(&2), Some(&None));
        assert!(!sizes.answered(2));
        assert_eq!(sizes.replicas("orders", 1).len(), 1, "broker 1's only");
    }

    #[test]
    fn a_partitions_replicas_by_broker_current_before_future() {
        let sizes = ClusterSizes::of(answers(), &snapshot());
        let replica = |broker, size, offset_lag, future| BrokerReplica {
            broker,
            size,
            offset_lag,
            future,
        };
        assert_eq!(
            sizes.replicas("orders", 1),
            [
                replica(1, 90, 0, false),
                replica(2, 80, 0, false),
                replica(2, 30, 1, true)
            ]
        );
        assert!(sizes.replicas("orders", 7).is_empty());
        assert!(sizes.replicas("nope", 0).is_empty());
    }
}
