//! Describing groups: `DescribeGroups` for classic groups, and the KIP-848
//! `ConsumerGroupDescribe` for `consumer` groups (epochs, target assignment);
//! share and streams groups have their own APIs (`share.rs`, `streams.rs`).
//! Both take many groups per request; both carry an error code *per group*
//! inside a successful response, which the caller re-asks on.

use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::consumer_group_describe_response::{
    self as cgd, Assignment as WireAssignment,
};
use crate::conn::protocol::messages::{
    ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, DescribeGroupsRequest,
    DescribeGroupsResponse, GroupId,
};

use super::kind::{GroupState, GroupType};
use super::member::{Assignment, Member, decode_classic_assignment, decode_classic_subscription};
use super::topology::Topology;

/// A described group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupDescription {
    pub group: String,
    /// Which protocol described it: `Classic` from `DescribeGroups`,
    /// `Consumer` from `ConsumerGroupDescribe`.
    pub group_type: GroupType,
    pub state: GroupState,
    /// The broker that answered: its coordinator.
    pub coordinator: i32,
    /// Classic: the protocol type (`consumer`, `connect`, …).
    pub protocol_type: String,
    /// Classic: the chosen protocol (the assignor, e.g. `range`); KIP-848:
    /// the server-side assignor (`uniform`, `range`).
    pub assignor: String,
    /// KIP-848: the group epoch (bumped on every membership change).
    pub group_epoch: Option<i32>,
    /// KIP-848: the epoch of the target assignment.
    pub assignment_epoch: Option<i32>,
    /// The members, sorted by member id.
    pub members: Vec<Member>,
    /// Streams groups: the application's topology (which topics each task
    /// reads); `None` for the other types.
    pub topology: Option<Topology>,
}

#[cfg(test)]
impl GroupDescription {
    /// A Stable classic group `group` of `members` (range assignor), for
    /// tests.
    pub fn classic(group: &str, members: Vec<super::member::Member>) -> GroupDescription {
        GroupDescription {
            group: group.to_owned(),
            group_type: GroupType::Classic,
            state: GroupState::Stable,
            coordinator: 1,
            protocol_type: "consumer".to_owned(),
            assignor: "range".to_owned(),
            group_epoch: None,
            assignment_epoch: None,
            members,
            topology: None,
        }
    }
}

pub(super) fn group_ids(groups: &[String]) -> Vec<GroupId> {
    groups
        .iter()
        .map(|g| GroupId(StrBytes::from_string(g.clone())))
        .collect()
}

/// One `DescribeGroups` for many classic groups.
pub fn classic_request(groups: &[String]) -> DescribeGroupsRequest {
    DescribeGroupsRequest::default().with_groups(group_ids(groups))
}

/// One `ConsumerGroupDescribe` for many KIP-848 groups.
pub fn consumer_request(groups: &[String]) -> ConsumerGroupDescribeRequest {
    ConsumerGroupDescribeRequest::default().with_group_ids(group_ids(groups))
}

/// A described group, or the code the broker gave for it.
pub type Described = (String, Result<GroupDescription, ErrorCode>);

/// Read a `DescribeGroups` answer.
pub fn read_classic(coordinator: i32, response: &DescribeGroupsResponse) -> Vec<Described> {
    response
        .groups
        .iter()
        .map(|group| {
            let name = group.group_id.0.to_string();
            if let Some(code) = ErrorCode::from_code(group.error_code) {
                return (name, Err(code));
            }
            let protocol_type = group.protocol_type.to_string();
            let consumer = protocol_type == "consumer";
            let mut members: Vec<Member> = group
                .members
                .iter()
                .map(|m| Member {
                    member_id: m.member_id.to_string(),
                    instance_id: m.group_instance_id.as_ref().map(ToString::to_string),
                    client_id: m.client_id.to_string(),
                    client_host: m.client_host.to_string(),
                    subscribed_topics: if consumer {
                        decode_classic_subscription(&m.member_metadata).unwrap_or_default()
                    } else {
                        Vec::new()
                    },
                    assignment: if consumer {
                        decode_classic_assignment(&m.member_assignment).unwrap_or_default()
                    } else {
                        Assignment::default()
                    },
                    ..Member::default()
                })
                .collect();
            members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
            let description = GroupDescription {
                group: name.clone(),
                group_type: GroupType::Classic,
                state: GroupState::parse(group.group_state.as_str()),
                coordinator,
                protocol_type,
                assignor: group.protocol_data.to_string(),
                group_epoch: None,
                assignment_epoch: None,
                members,
                topology: None,
            };
            (name, Ok(description))
        })
        .collect()
}

fn assignment(wire: &WireAssignment) -> Assignment {
    Assignment::from_pairs(
        wire.topic_partitions
            .iter()
            .map(|tp| (tp.topic_name.0.to_string(), tp.partitions.clone())),
    )
}

fn consumer_member(m: &cgd::Member) -> Member {
    let mut subscribed: Vec<String> = m
        .subscribed_topic_names
        .iter()
        .map(|t| t.0.to_string())
        .collect();
    subscribed.sort();
    Member {
        member_id: m.member_id.to_string(),
        instance_id: m.instance_id.as_ref().map(ToString::to_string),
        client_id: m.client_id.to_string(),
        client_host: m.client_host.to_string(),
        rack: m.rack_id.as_ref().map(ToString::to_string),
        member_epoch: Some(m.member_epoch),
        subscribed_topics: subscribed,
        subscribed_regex: m.subscribed_topic_regex.as_ref().map(ToString::to_string),
        assignment: assignment(&m.assignment),
        target_assignment: Some(assignment(&m.target_assignment)),
        ..Member::default()
    }
}

/// What the answers of the coordinator-driven protocols (consumer, share,
/// streams) have in common: epochs, an assignor, members with epochs.
pub(super) struct Modern<'a> {
    /// Which API answered.
    pub group_type: GroupType,
    /// The broker's state string.
    pub state: &'a str,
    /// The assignor (empty when the broker names none).
    pub assignor: String,
    pub group_epoch: i32,
    /// The target assignment's epoch.
    pub assignment_epoch: i32,
    /// The members, in the broker's order.
    pub members: Vec<Member>,
    /// Streams: the topology.
    pub topology: Option<Topology>,
}

/// One group of such an answer: its own error code, or its description
/// (members sorted by id, the protocol type named after the group type).
pub(super) fn read_modern<'a>(
    coordinator: i32,
    group_id: &GroupId,
    error_code: i16,
    parts: impl FnOnce() -> Modern<'a>,
) -> Described {
    let name = group_id.0.to_string();
    if let Some(code) = ErrorCode::from_code(error_code) {
        return (name, Err(code));
    }
    let Modern {
        group_type,
        state,
        assignor,
        group_epoch,
        assignment_epoch,
        mut members,
        topology,
    } = parts();
    members.sort_by(|a, b| a.member_id.cmp(&b.member_id));
    let description = GroupDescription {
        group: name.clone(),
        protocol_type: group_type.as_str().to_owned(),
        group_type,
        state: GroupState::parse(state),
        coordinator,
        assignor,
        group_epoch: Some(group_epoch),
        assignment_epoch: Some(assignment_epoch),
        members,
        topology,
    };
    (name, Ok(description))
}

/// Read a `ConsumerGroupDescribe` answer.
///
/// A classic group asked this way comes back `GROUP_ID_NOT_FOUND` ("not a
/// consumer group"); the caller then asks `DescribeGroups`.
pub fn read_consumer(coordinator: i32, response: &ConsumerGroupDescribeResponse) -> Vec<Described> {
    response
        .groups
        .iter()
        .map(|group| {
            read_modern(coordinator, &group.group_id, group.error_code, || Modern {
                group_type: GroupType::Consumer,
                state: group.group_state.as_str(),
                assignor: group.assignor_name.to_string(),
                group_epoch: group.group_epoch,
                assignment_epoch: group.assignment_epoch,
                members: group.members.iter().map(consumer_member).collect(),
                topology: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::TopicName;

    fn topic(name: &str, partitions: Vec<i32>) -> cgd::TopicPartitions {
        cgd::TopicPartitions::default()
            .with_topic_name(TopicName(StrBytes::from_string(name.to_owned())))
            .with_partitions(partitions)
    }

    #[test]
    fn a_kip_848_group_keeps_epochs_and_current_and_target_assignment() {
        let member = cgd::Member::default()
            .with_member_id(StrBytes::from_static_str("m-1"))
            .with_instance_id(Some(StrBytes::from_static_str("i-1")))
            .with_member_epoch(7)
            .with_client_id(StrBytes::from_static_str("console-consumer"))
            .with_client_host(StrBytes::from_static_str("/127.0.0.1"))
            .with_subscribed_topic_names(vec![TopicName(StrBytes::from_static_str("orders"))])
            .with_assignment(
                WireAssignment::default().with_topic_partitions(vec![topic("orders", vec![1, 0])]),
            )
            .with_target_assignment(
                WireAssignment::default()
                    .with_topic_partitions(vec![topic("orders", vec![0, 1, 2])]),
            );
        let response = ConsumerGroupDescribeResponse::default().with_groups(vec![
            cgd::DescribedGroup::default()
                .with_group_id(GroupId(StrBytes::from_static_str("g")))
                .with_group_state(StrBytes::from_static_str("Reconciling"))
                .with_group_epoch(8)
                .with_assignment_epoch(8)
                .with_assignor_name(StrBytes::from_static_str("uniform"))
                .with_members(vec![member]),
            cgd::DescribedGroup::default()
                .with_group_id(GroupId(StrBytes::from_static_str("loading")))
                .with_error_code(14),
        ]);
        let read = read_consumer(3, &response);
        let (name, described) = &read[0];
        assert_eq!(name, "g");
        let group = described.as_ref().expect("described");
        assert_eq!(group.state, GroupState::Reconciling);
        assert_eq!(
            (group.group_epoch, group.assignment_epoch),
            (Some(8), Some(8))
        );
        let m = &group.members[0];
        assert_eq!(m.instance_id.as_deref(), Some("i-1"));
        assert_eq!(m.member_epoch, Some(7));
        assert_eq!(m.assignment.compact(), "orders:0,1");
        assert_eq!(
            m.target_assignment
                .as_ref()
                .map(Assignment::compact)
                .as_deref(),
            Some("orders:0,1,2")
        );
        assert!(m.is_reconciling());
        assert_eq!(read[1].1, Err(ErrorCode::CoordinatorLoadInProgress));
    }

    #[test]
    fn requests_name_every_group() {
        let groups = vec!["a".to_owned(), "b".to_owned()];
        assert_eq!(classic_request(&groups).groups.len(), 2);
        assert_eq!(consumer_request(&groups).group_ids.len(), 2);
    }
}
