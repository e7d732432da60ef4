//! KIP-1071 streams groups: `StreamsGroupDescribe` (Kafka 4.1+, usable from
//! 4.2). The broker assigns *tasks* — a subtopology and a partition number —
//! not topic partitions: task `(S, p)` reads partition `p` of every source
//! and repartition-source topic of subtopology `S`. The topology says which
//! topics those are, so a member's tasks are also shown as the partitions
//! they read, and the group's lag is the `OffsetFetch` lag over them.
//!
//! Asking a group of another type this way gets `GROUP_ID_NOT_FOUND`; the
//! caller then tries the next describe API.

use std::collections::BTreeMap;

use crate::conn::protocol::messages::StreamsGroupDescribeRequest;
use crate::conn::protocol::messages::streams_group_describe_response::{
    self as sgd, StreamsGroupDescribeResponse,
};

use super::description::{Described, Modern, group_ids, read_modern};
use super::kind::GroupType;
use super::member::{Member, StreamsTasks, TaskMap};
use super::topology::{Subtopology, Topology};

/// One `StreamsGroupDescribe` for many streams groups.
pub fn request(groups: &[String]) -> StreamsGroupDescribeRequest {
    StreamsGroupDescribeRequest::default().with_group_ids(group_ids(groups))
}

fn tasks(wire: &[sgd::TaskIds]) -> TaskMap {
    let mut map: TaskMap = BTreeMap::new();
    for task in wire {
        map.entry(task.subtopology_id.to_string())
            .or_default()
            .extend(&task.partitions);
    }
    map.retain(|_, ps| {
        ps.sort_unstable();
        ps.dedup();
        !ps.is_empty()
    });
    map
}

fn assignment(wire: &sgd::Assignment) -> StreamsTasks {
    StreamsTasks {
        active: tasks(&wire.active_tasks),
        standby: tasks(&wire.standby_tasks),
        warmup: tasks(&wire.warmup_tasks),
    }
}

fn names<T: std::fmt::Display>(topics: impl IntoIterator<Item = T>) -> Vec<String> {
    let mut out: Vec<String> = topics.into_iter().map(|t| t.to_string()).collect();
    out.sort();
    out.dedup();
    out
}

fn topology(wire: Option<&sgd::Topology>) -> Topology {
    let Some(wire) = wire else {
        return Topology::default();
    };
    let mut subtopologies: Vec<Subtopology> = wire
        .subtopologies
        .iter()
        .flatten()
        .map(|s| Subtopology {
            id: s.subtopology_id.to_string(),
            source_topics: names(s.source_topics.iter().map(|t| &t.0)),
            repartition_source_topics: names(s.repartition_source_topics.iter().map(|t| &t.name.0)),
            repartition_sink_topics: names(s.repartition_sink_topics.iter().map(|t| &t.0)),
            changelog_topics: names(s.state_changelog_topics.iter().map(|t| &t.name.0)),
        })
        .collect();
    // Kafka Streams numbers subtopologies 0, 1, …, 10: sort numerically
    // where the ids are numbers.
    subtopologies.sort_by(|a, b| match (a.id.parse::<u64>(), b.id.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.id.cmp(&b.id),
    });
    Topology {
        epoch: wire.epoch,
        subtopologies,
    }
}

fn member(m: &sgd::Member, topology: &Topology) -> Member {
    let tasks = assignment(&m.assignment);
    let target = assignment(&m.target_assignment);
    Member {
        member_id: m.member_id.to_string(),
        instance_id: m.instance_id.as_ref().map(ToString::to_string),
        client_id: m.client_id.to_string(),
        client_host: m.client_host.to_string(),
        rack: m.rack_id.as_ref().map(ToString::to_string),
        member_epoch: Some(m.member_epoch),
        subscribed_topics: Vec::new(),
        subscribed_regex: None,
        assignment: topology.partitions_of(&tasks.active),
        target_assignment: Some(topology.partitions_of(&target.active)),
        process_id: Some(m.process_id.to_string()),
        tasks: Some(tasks),
        target_tasks: Some(target),
    }
}

/// Read a `StreamsGroupDescribe` answer.
pub fn read(coordinator: i32, response: &StreamsGroupDescribeResponse) -> Vec<Described> {
    response
        .groups
        .iter()
        .map(|group| {
            read_modern(coordinator, &group.group_id, group.error_code, || {
                let topology = topology(group.topology.as_ref());
                Modern {
                    group_type: GroupType::Streams,
                    state: group.group_state.as_str(),
                    assignor: group
                        .assignor_name
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    group_epoch: group.group_epoch,
                    assignment_epoch: group.assignment_epoch,
                    members: group.members.iter().map(|m| member(m, &topology)).collect(),
                    topology: Some(topology),
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::ErrorCode;
    use crate::conn::protocol::messages::{GroupId, TopicName};
    use crate::conn::protocol::{Decodable, Encodable, StrBytes};
    use crate::groups::GroupState;
    use bytes::BytesMut;

    fn s(text: &'static str) -> StrBytes {
        StrBytes::from_static_str(text)
    }

    fn answer() -> StreamsGroupDescribeResponse {
        let subtopology =
            |id: &'static str, sources: &[&'static str], repartition: &[&'static str]| {
                sgd::Subtopology::default()
                    .with_subtopology_id(s(id))
                    .with_source_topics(sources.iter().map(|t| TopicName(s(t))).collect())
                    .with_repartition_source_topics(
                        repartition
                            .iter()
                            .map(|t| sgd::TopicInfo::default().with_name(TopicName(s(t))))
                            .collect(),
                    )
            };
        let task = |sub: &'static str, ps: Vec<i32>| {
            sgd::TaskIds::default()
                .with_subtopology_id(s(sub))
                .with_partitions(ps)
        };
        let member = sgd::Member::default()
            .with_member_id(s("m-1"))
            .with_member_epoch(5)
            .with_client_id(s("wordcount-1-StreamThread-1"))
            .with_client_host(s("/127.0.0.1"))
            .with_process_id(s("p-1"))
            .with_assignment(
                sgd::Assignment::default()
                    .with_active_tasks(vec![task("0", vec![1, 0]), task("1", vec![2])])
                    .with_standby_tasks(vec![task("1", vec![0])]),
            )
            .with_target_assignment(
                sgd::Assignment::default().with_active_tasks(vec![task("0", vec![0, 1, 2])]),
            );
        StreamsGroupDescribeResponse::default().with_groups(vec![
            sgd::DescribedGroup::default()
                .with_group_id(GroupId(s("wordcount")))
                .with_group_state(s("Reconciling"))
                .with_group_epoch(9)
                .with_assignment_epoch(8)
                .with_topology(Some(
                    sgd::Topology::default()
                        .with_epoch(1)
                        .with_subtopologies(Some(vec![
                            subtopology("1", &[], &["wordcount-repartition"]),
                            subtopology("0", &["words"], &[]),
                        ])),
                ))
                .with_members(vec![member]),
            sgd::DescribedGroup::default()
                .with_group_id(GroupId(s("classic-one")))
                .with_error_code(69),
        ])
    }

    #[test]
    fn tasks_become_the_partitions_they_read_through_the_topology() {
        let read = read(2, &answer());
        let group = read[0].1.as_ref().expect("described");
        assert_eq!(group.group_type, GroupType::Streams);
        assert_eq!(group.state, GroupState::Reconciling);
        let topology = group.topology.as_ref().expect("topology");
        assert_eq!(topology.epoch, 1);
        let ids: Vec<&str> = topology
            .subtopologies
            .iter()
            .map(|s| s.id.as_str())
            .collect();
        assert_eq!(ids, ["0", "1"]);
        assert_eq!(topology.input_topics(), ["wordcount-repartition", "words"]);
        let m = &group.members[0];
        assert_eq!(m.process_id.as_deref(), Some("p-1"));
        let tasks = m.tasks.as_ref().expect("tasks");
        assert_eq!(StreamsTasks::compact(&tasks.active), "0:0,1 1:2");
        assert_eq!(StreamsTasks::compact(&tasks.standby), "1:0");
        assert_eq!(tasks.len(), 4);
        assert_eq!(m.assignment.compact(), "wordcount-repartition:2 words:0,1");
        assert!(m.is_reconciling(), "target has words:2, current has not");
        assert_eq!(read[1].1, Err(ErrorCode::GroupIdNotFound));
    }

    #[test]
    fn the_message_round_trips_at_every_version() {
        let mut at_v1 = answer();
        at_v1.groups[0].assignor_name = Some(s("sticky"));
        for (version, message) in [(0, answer()), (1, at_v1)] {
            let mut buf = BytesMut::new();
            message.encode(&mut buf, version).expect("encodes");
            assert_eq!(buf.len(), message.compute_size(version).expect("sized"));
            let decoded =
                StreamsGroupDescribeResponse::decode(&mut buf.freeze(), version).expect("decodes");
            assert_eq!(decoded, message, "v{version}");
        }
        let request = request(&["a".to_owned()]);
        for version in 0..=1 {
            let mut buf = BytesMut::new();
            request.encode(&mut buf, version).expect("encodes");
            let decoded =
                StreamsGroupDescribeRequest::decode(&mut buf.freeze(), version).expect("decodes");
            assert_eq!(decoded, request);
        }
    }

    #[test]
    fn v0_bytes_written_by_hand_from_the_schema_decode() {
        // Flexible v0: throttle, groups (compact array of 1): error 0, null
        // message, id "g", state "Empty", epochs 3 and 2, null topology,
        // no members, authorized operations, no tagged fields (x2).
        let bytes: Vec<u8> = [
            &[0, 0, 0, 7][..], // throttle_time_ms
            &[2],              // groups: 1 element
            &[0, 0],           // error_code
            &[0],              // error_message: null
            &[2, b'g'],        // group_id
            &[6, b'E', b'm', b'p', b't', b'y'],
            &[0, 0, 0, 3],    // group_epoch
            &[0, 0, 0, 2],    // assignment_epoch
            &[0xff],          // topology: null struct
            &[1],             // members: 0 elements
            &[0x80, 0, 0, 0], // authorized_operations
            &[0],             // group tagged fields
            &[0],             // top-level tagged fields
        ]
        .concat();
        let decoded = StreamsGroupDescribeResponse::decode(&mut bytes::Bytes::from(bytes), 0)
            .expect("decodes");
        assert_eq!(decoded.throttle_time_ms, 7);
        let group = &decoded.groups[0];
        assert_eq!(group.group_id.0.as_str(), "g");
        assert_eq!(group.group_state.as_str(), "Empty");
        assert_eq!((group.group_epoch, group.assignment_epoch), (3, 2));
        assert!(group.topology.is_none());
        assert_eq!(group.authorized_operations, i32::MIN);
    }
}
