//! Planning `ListOffsets`: partitions grouped by leader, one request per
//! leader broker (never one per partition), and reading the answers.

use std::collections::BTreeMap;

use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::list_offsets_request::{
    ListOffsetsPartition, ListOffsetsTopic,
};
use crate::conn::protocol::messages::{
    BrokerId, ListOffsetsRequest, ListOffsetsResponse, TopicName,
};

use super::snapshot::MetadataSnapshot;

/// A partition of a topic.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TopicPartition {
    /// The topic name.
    pub topic: String,
    /// The partition index.
    pub partition: i32,
}

impl TopicPartition {
    /// A topic partition.
    pub fn new(topic: impl Into<String>, partition: i32) -> Self {
        Self {
            topic: topic.into(),
            partition,
        }
    }
}

/// A partition's low (log start) and high watermark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Watermarks {
    /// The earliest offset still in the log.
    pub low: i64,
    /// The offset the next record will get (the high watermark).
    pub high: i64,
}

/// Which offset a `ListOffsets` request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum OffsetSpec {
    /// The log start offset (timestamp -2).
    Earliest,
    /// The high watermark (timestamp -1).
    Latest,
    /// The local log start offset (timestamp -4, `ListOffsets` v8+, Kafka
    /// 3.7+): with tiered storage (KIP-405) the first offset still on the
    /// leader's own disk; records below it and above the log start are
    /// read from remote storage. Without tiered storage it equals the log
    /// start. A broker below v8 does not know the timestamp: ask only
    /// where the version allows.
    EarliestLocal,
}

impl OffsetSpec {
    fn timestamp(self) -> i64 {
        match self {
            OffsetSpec::Earliest => -2,
            OffsetSpec::Latest => -1,
            OffsetSpec::EarliestLocal => -4,
        }
    }
}

/// Partitions grouped by the broker that leads them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OffsetsPlan {
    /// Leader node id → its partitions.
    pub by_leader: BTreeMap<i32, Vec<TopicPartition>>,
    /// Partitions the snapshot knows no leader for.
    pub leaderless: Vec<TopicPartition>,
}

/// Group `partitions` by their leader in `snapshot`.
pub fn plan(snapshot: &MetadataSnapshot, partitions: &[TopicPartition]) -> OffsetsPlan {
    let mut plan = OffsetsPlan::default();
    for tp in partitions {
        match snapshot.leader_for(&tp.topic, tp.partition) {
            Some(leader) => plan.by_leader.entry(leader).or_default().push(tp.clone()),
            None => plan.leaderless.push(tp.clone()),
        }
    }
    plan
}

/// One `ListOffsets` request for partitions led by the same broker.
///
/// `replica_id` is -1 (a consumer): the crate's default, 0, claims to be
/// broker 0 asking as a follower, which the broker answers differently.
/// Isolation is read-uncommitted, so the high watermark rather than the last
/// stable offset comes back.
pub fn request(partitions: &[TopicPartition], spec: OffsetSpec) -> ListOffsetsRequest {
    let mut topics: BTreeMap<&str, Vec<ListOffsetsPartition>> = BTreeMap::new();
    for tp in partitions {
        topics.entry(tp.topic.as_str()).or_default().push(
            ListOffsetsPartition::default()
                .with_partition_index(tp.partition)
                .with_current_leader_epoch(-1)
                .with_timestamp(spec.timestamp()),
        );
    }
    let topics = topics
        .into_iter()
        .map(|(name, partitions)| {
            ListOffsetsTopic::default()
                .with_name(TopicName(StrBytes::from_string(name.to_owned())))
                .with_partitions(partitions)
        })
        .collect();
    ListOffsetsRequest::default()
        .with_replica_id(BrokerId(-1))
        .with_isolation_level(0)
        .with_topics(topics)
}

/// Each partition's offset, or its error code.
pub fn read(response: &ListOffsetsResponse) -> Vec<(TopicPartition, Result<i64, ErrorCode>)> {
    response
        .topics
        .iter()
        .flat_map(|topic| {
            let name = topic.name.0.to_string();
            topic.partitions.iter().map(move |p| {
                let tp = TopicPartition::new(name.clone(), p.partition_index);
                match ErrorCode::from_code(p.error_code) {
                    Some(code) => (tp, Err(code)),
                    None => (tp, Ok(p.offset)),
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::list_offsets_response::{
        ListOffsetsPartitionResponse, ListOffsetsTopicResponse,
    };
    use crate::meta::fixtures::{broker, partition, topic};

    #[test]
    fn partitions_are_grouped_one_request_per_leader() {
        let snapshot = MetadataSnapshot::new(
            vec![broker(1), broker(2)],
            vec![
                topic(
                    "a",
                    1,
                    vec![
                        partition(0, 1, 0, &[1]),
                        partition(1, 2, 0, &[2]),
                        partition(2, 1, 0, &[1]),
                    ],
                ),
                topic(
                    "b",
                    2,
                    vec![partition(0, 2, 0, &[2]), partition(1, -1, 0, &[2])],
                ),
            ],
            Some(1),
            None,
        );
        let asked: Vec<TopicPartition> =
            [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("b", 1), ("c", 0)]
                .iter()
                .map(|(t, p)| TopicPartition::new(*t, *p))
                .collect();
        let plan = plan(&snapshot, &asked);
        assert_eq!(plan.by_leader.len(), 2);
        assert_eq!(
            plan.by_leader[&1],
            [TopicPartition::new("a", 0), TopicPartition::new("a", 2)]
        );
        assert_eq!(
            plan.by_leader[&2],
            [TopicPartition::new("a", 1), TopicPartition::new("b", 0)]
        );
        assert_eq!(
            plan.leaderless,
            [TopicPartition::new("b", 1), TopicPartition::new("c", 0)]
        );

        let request = request(&plan.by_leader[&2], OffsetSpec::Latest);
        assert_eq!(request.replica_id, BrokerId(-1));
        assert_eq!(request.topics.len(), 2);
        assert!(
            request
                .topics
                .iter()
                .flat_map(|t| &t.partitions)
                .all(|p| p.timestamp == -1)
        );
    }

    #[test]
    fn the_crates_replica_id_default_is_the_wrong_one() {
        assert_eq!(ListOffsetsRequest::default().replica_id, BrokerId(0));
    }

    #[test]
    fn answers_are_read_per_partition() {
        let response = ListOffsetsResponse::default().with_topics(vec![
            ListOffsetsTopicResponse::default()
                .with_name(TopicName(StrBytes::from_static_str("a")))
                .with_partitions(vec![
                    ListOffsetsPartitionResponse::default()
                        .with_partition_index(0)
                        .with_offset(42),
                    ListOffsetsPartitionResponse::default()
                        .with_partition_index(1)
                        .with_error_code(6),
                ]),
        ]);
        let read = read(&response);
        assert_eq!(read[0], (TopicPartition::new("a", 0), Ok(42)));
        assert_eq!(
            read[1],
            (
                TopicPartition::new("a", 1),
                Err(ErrorCode::NotLeaderOrFollower)
            )
        );
    }
}
