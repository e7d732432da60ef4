//! KIP-932 share groups ("queues for Kafka", GA in 4.2):
//! `ShareGroupDescribe` for state, epochs and members, and
//! `DescribeShareGroupOffsets` for each partition's share-partition start
//! offset (SPSO) — the share group's analogue of a committed offset: every
//! record below it is acknowledged. From v1 (Kafka 4.2, KIP-1226) the broker
//! also reports the lag itself, which counts records above the SPSO that are
//! already acknowledged as done; `end − SPSO` would overstate it. So the
//! broker's number is used where it gives one (what `kafka-share-groups.sh
//! --describe --offsets` prints), `end − SPSO` only where it does not.
//!
//! A share group has no `OffsetFetch` commits: asking that API about it gets
//! nothing, which is why other tools show these groups with no lag at all.

use std::collections::BTreeMap;

use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::describe_share_group_offsets_request::DescribeShareGroupOffsetsRequestGroup;
use crate::conn::protocol::messages::share_group_describe_response::{self as sgd};
use crate::conn::protocol::messages::{
    DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsResponse, GroupId,
    ShareGroupDescribeRequest, ShareGroupDescribeResponse,
};

use super::description::{Described, Modern, group_ids, read_modern};
use super::kind::GroupType;
use super::member::{Assignment, Member};

/// One share-partition's offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharePartition {
    /// The share-partition start offset.
    pub start_offset: i64,
    /// The lag the broker reports (v1+); `None` below v1 or when it says -1.
    pub lag: Option<i64>,
}

/// One share group's partitions: `(topic, partition)` → offsets. Partitions
/// the group holds no state for yet (start offset -1) are absent.
pub type ShareOffsets = BTreeMap<(String, i32), SharePartition>;

/// A share group's offsets, or the code the broker gave for it.
pub type ShareFetched = (String, Result<ShareOffsets, ErrorCode>);

/// One `ShareGroupDescribe` for many share groups.
pub fn describe_request(groups: &[String]) -> ShareGroupDescribeRequest {
    ShareGroupDescribeRequest::default().with_group_ids(group_ids(groups))
}

fn member(m: &sgd::Member) -> Member {
    let mut subscribed: Vec<String> = m
        .subscribed_topic_names
        .iter()
        .map(|t| t.0.to_string())
        .collect();
    subscribed.sort();
    Member {
        member_id: m.member_id.to_string(),
        client_id: m.client_id.to_string(),
        client_host: m.client_host.to_string(),
        rack: m.rack_id.as_ref().map(ToString::to_string),
        member_epoch: Some(m.member_epoch),
        subscribed_topics: subscribed,
        assignment: Assignment::from_pairs(
            m.assignment
                .topic_partitions
                .iter()
                .map(|tp| (tp.topic_name.0.to_string(), tp.partitions.clone())),
        ),
        ..Member::default()
    }
}

/// Read a `ShareGroupDescribe` answer.
pub fn read_describe(coordinator: i32, response: &ShareGroupDescribeResponse) -> Vec<Described> {
    response
        .groups
        .iter()
        .map(|group| {
            read_modern(coordinator, &group.group_id, group.error_code, || Modern {
                group_type: GroupType::Share,
                state: group.group_state.as_str(),
                assignor: group.assignor_name.to_string(),
                group_epoch: group.group_epoch,
                assignment_epoch: group.assignment_epoch,
                members: group.members.iter().map(member).collect(),
                topology: None,
            })
        })
        .collect()
}

/// One `DescribeShareGroupOffsets` for every partition of each group
/// (`topics: None` means all of them, as in `OffsetFetch`).
pub fn offsets_request(groups: &[String]) -> DescribeShareGroupOffsetsRequest {
    DescribeShareGroupOffsetsRequest::default().with_groups(
        groups
            .iter()
            .map(|g| {
                DescribeShareGroupOffsetsRequestGroup::default()
                    .with_group_id(GroupId(StrBytes::from_string(g.clone())))
                    .with_topics(None)
            })
            .collect(),
    )
}

/// Read a `DescribeShareGroupOffsets` answer. A partition with an error of
/// its own is left out (it shows as "no commit", not as a made-up number).
pub fn read_offsets(response: &DescribeShareGroupOffsetsResponse) -> Vec<ShareFetched> {
    response
        .groups
        .iter()
        .map(|group| {
            let name = group.group_id.0.to_string();
            if let Some(code) = ErrorCode::from_code(group.error_code) {
                return (name, Err(code));
            }
            let mut offsets = ShareOffsets::new();
            for topic in &group.topics {
                for p in &topic.partitions {
                    if p.error_code != 0 || p.start_offset < 0 {
                        continue;
                    }
                    offsets.insert(
                        (topic.topic_name.0.to_string(), p.partition_index),
                        SharePartition {
                            start_offset: p.start_offset,
                            lag: (p.lag >= 0).then_some(p.lag),
                        },
                    );
                }
            }
            (name, Ok(offsets))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::TopicName;
    use crate::conn::protocol::messages::describe_share_group_offsets_response::{
        DescribeShareGroupOffsetsResponseGroup as OffGroup,
        DescribeShareGroupOffsetsResponsePartition as OffPartition,
        DescribeShareGroupOffsetsResponseTopic as OffTopic,
    };
    use crate::conn::protocol::{Decodable, Encodable};
    use bytes::BytesMut;

    fn s(text: &'static str) -> StrBytes {
        StrBytes::from_static_str(text)
    }

    #[test]
    fn a_share_group_keeps_its_members_epochs_and_assignment() {
        let response = ShareGroupDescribeResponse::default().with_groups(vec![
            sgd::DescribedGroup::default()
                .with_group_id(GroupId(s("queue")))
                .with_group_state(s("Stable"))
                .with_group_epoch(4)
                .with_assignment_epoch(4)
                .with_assignor_name(s("simple"))
                .with_members(vec![
                    sgd::Member::default()
                        .with_member_id(s("m-1"))
                        .with_member_epoch(4)
                        .with_client_id(s("console-share-consumer"))
                        .with_client_host(s("/127.0.0.1"))
                        .with_subscribed_topic_names(vec![TopicName(s("jobs"))])
                        .with_assignment(sgd::Assignment::default().with_topic_partitions(vec![
                            sgd::TopicPartitions::default()
                                .with_topic_name(TopicName(s("jobs")))
                                .with_partitions(vec![2, 0, 1]),
                        ])),
                ]),
        ]);
        let read = read_describe(1, &response);
        let group = read[0].1.as_ref().expect("described");
        assert_eq!(group.group_type, GroupType::Share);
        assert_eq!(group.assignor, "simple");
        assert_eq!(group.group_epoch, Some(4));
        assert_eq!(group.members[0].assignment.compact(), "jobs:0,1,2");
        assert_eq!(group.members[0].subscribed_topics, ["jobs"]);
        assert!(!group.members[0].is_reconciling());
    }

    fn offsets_answer() -> DescribeShareGroupOffsetsResponse {
        let partition = |index, start, lag, error| {
            OffPartition::default()
                .with_partition_index(index)
                .with_start_offset(start)
                .with_lag(lag)
                .with_error_code(error)
        };
        DescribeShareGroupOffsetsResponse::default().with_groups(vec![
            OffGroup::default()
                .with_group_id(GroupId(s("queue")))
                .with_topics(vec![
                    OffTopic::default()
                        .with_topic_name(TopicName(s("jobs")))
                        .with_partitions(vec![
                            partition(0, 40, 3, 0),
                            partition(1, -1, -1, 0),
                            partition(2, 10, -1, 0),
                            partition(3, 5, 1, 6),
                        ]),
                ]),
            OffGroup::default()
                .with_group_id(GroupId(s("gone")))
                .with_error_code(69),
        ])
    }

    #[test]
    fn start_offsets_and_the_brokers_lag_are_read_per_partition() {
        let read = read_offsets(&offsets_answer());
        let offsets = read[0].1.as_ref().expect("offsets");
        assert_eq!(
            offsets.get(&("jobs".to_owned(), 0)),
            Some(&SharePartition {
                start_offset: 40,
                lag: Some(3)
            })
        );
        assert_eq!(offsets.get(&("jobs".to_owned(), 1)), None, "no state yet");
        assert_eq!(
            offsets.get(&("jobs".to_owned(), 2)).map(|p| p.lag),
            Some(None),
            "-1: the broker has no lag number"
        );
        assert_eq!(offsets.get(&("jobs".to_owned(), 3)), None, "its own error");
        assert_eq!(read[1].1, Err(ErrorCode::GroupIdNotFound));
    }

    #[test]
    fn the_offsets_messages_round_trip_at_v0_and_v1() {
        let request = offsets_request(&["queue".to_owned()]);
        for version in 0..=1 {
            let mut buf = BytesMut::new();
            request.encode(&mut buf, version).expect("encodes");
            let decoded = DescribeShareGroupOffsetsRequest::decode(&mut buf.freeze(), version)
                .expect("decodes");
            assert_eq!(decoded, request);
            assert!(decoded.groups[0].topics.is_none(), "all topics");
        }
        let v1 = offsets_answer();
        let mut buf = BytesMut::new();
        v1.encode(&mut buf, 1).expect("encodes");
        let decoded =
            DescribeShareGroupOffsetsResponse::decode(&mut buf.freeze(), 1).expect("decodes");
        assert_eq!(decoded, v1);
        // v0 has no lag field: it decodes as the default -1, i.e. "no number".
        let mut v0 = offsets_answer();
        for p in &mut v0.groups[0].topics[0].partitions {
            p.lag = -1;
        }
        let mut buf = BytesMut::new();
        v0.encode(&mut buf, 0).expect("encodes");
        let decoded =
            DescribeShareGroupOffsetsResponse::decode(&mut buf.freeze(), 0).expect("decodes");
        assert_eq!(decoded, v0);
    }
}
