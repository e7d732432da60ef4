//! Which node is the active controller.
//!
//! In `KRaft` a broker's Metadata response does not know the active
//! controller: `controller_id` is a random live broker, picked afresh for
//! every response, because brokers forward controller-bound requests anyway.
//! Shown as "the controller", it flaps on an idle cluster and fills the
//! movement log with `controller_changed` events that never happened. The
//! truth is the leader of the `__cluster_metadata` Raft partition, which
//! `DescribeQuorum` (forwarded by the broker to the controllers) reports.
//! `ZooKeeper`-era brokers lack `DescribeQuorum`; there the Metadata answer is
//! the real controller and stays.

use std::time::Duration;

use super::error::{Error, Result};
use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::describe_quorum_request::{PartitionData, TopicData};
use crate::conn::protocol::messages::{DescribeQuorumRequest, DescribeQuorumResponse, TopicName};

/// How long the quorum has to answer: a healthy quorum answers in
/// milliseconds (the request is forwarded to the active controller once).
pub const QUORUM_DEADLINE: Duration = Duration::from_secs(1);

/// The Raft topic whose leader is the active controller.
const METADATA_TOPIC: &str = "__cluster_metadata";

/// Asks for the leader of `__cluster_metadata-0` (the Raft partition of the
/// `KRaft` quorum): its voters, observers and high watermark.
pub fn quorum_request() -> DescribeQuorumRequest {
    DescribeQuorumRequest::default().with_topics(vec![
        TopicData::default()
            .with_topic_name(TopicName(StrBytes::from_static_str(METADATA_TOPIC)))
            .with_partitions(vec![PartitionData::default().with_partition_index(0)]),
    ])
}

/// What the quorum said about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Quorum {
    /// The leader: the active controller.
    pub(super) leader: i32,
    /// The epoch it was elected in.
    pub(super) leader_epoch: i32,
    /// Every voter (the leader included), by id.
    voters: Vec<i32>,
    /// The metadata log's high watermark: it advances at least every
    /// `metadata.max.idle.interval.ms` (500 ms by default) while the quorum
    /// commits, since the controller appends a no-op record when idle.
    pub(super) high_watermark: i64,
}

/// The quorum in an answer: `Ok(None)` when no leader is elected, an error
/// for an error code (top level or the partition's).
pub(super) fn read_quorum(response: &DescribeQuorumResponse) -> Result<Option<Quorum>> {
    if let Some(code) = ErrorCode::from_code(response.error_code) {
        return Err(Error::from_code(code, Some("DescribeQuorum".to_owned())));
    }
    let Some(partition) = response
        .topics
        .iter()
        .filter(|t| t.topic_name.0.as_str() == METADATA_TOPIC)
        .flat_map(|t| &t.partitions)
        .find(|p| p.partition_index == 0)
    else {
        return Ok(None);
    };
    if let Some(code) = ErrorCode::from_code(partition.error_code) {
        return Err(Error::from_code(
            code,
            Some(format!("DescribeQuorum '{METADATA_TOPIC}' partition 0")),
        ));
    }
    if partition.leader_id.0 < 0 {
        return Ok(None);
    }
    let mut voters: Vec<i32> = partition
        .current_voters
        .iter()
        .map(|v| v.replica_id.0)
        .collect();
    voters.sort_unstable();
    voters.dedup();
    Ok(Some(Quorum {
        leader: partition.leader_id.0,
        leader_epoch: partition.leader_epoch,
        voters,
        high_watermark: partition.high_watermark,
    }))
}

/// What to show as the controller and the quorum's voters, given the
/// quorum's answer, the Metadata response's claim and what was shown until
/// now (`held`).
///
/// - the quorum answered with a leader: that leader and its voters;
/// - the broker lacks `DescribeQuorum` (a `ZooKeeper` cluster): the Metadata
///   claim, which is true there, and no voters;
/// - anything else (denied, election in progress, a transport error): keep
///   what was shown, rather than invent a change from a random broker id.
pub(super) fn choose(
    asked: &Result<Option<Quorum>>,
    claimed: Option<i32>,
    held: (Option<i32>, &[i32]),
) -> (Option<i32>, Vec<i32>) {
    match asked {
        Ok(Some(quorum)) => (Some(quorum.leader), quorum.voters.clone()),
        Err(error) if error.is_unsupported_version() => (claimed, Vec::new()),
        Ok(None) | Err(_) => (held.0, held.1.to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::BrokerId;
    use crate::conn::protocol::messages::describe_quorum_response;

    fn answer(error: i16, leader: i32) -> DescribeQuorumResponse {
        let voters = [3, 1, 2].map(|id| {
            describe_quorum_response::ReplicaState::default().with_replica_id(BrokerId(id))
        });
        DescribeQuorumResponse::default().with_topics(vec![
            describe_quorum_response::TopicData::default()
                .with_topic_name(TopicName(StrBytes::from_static_str(METADATA_TOPIC)))
                .with_partitions(vec![
                    describe_quorum_response::PartitionData::default()
                        .with_partition_index(0)
                        .with_error_code(error)
                        .with_leader_id(BrokerId(leader))
                        .with_leader_epoch(4)
                        .with_high_watermark(42)
                        .with_current_voters(voters.to_vec()),
                ]),
        ])
    }

    fn quorum(leader: i32) -> Quorum {
        Quorum {
            leader,
            leader_epoch: 4,
            voters: vec![1, 2, 3],
            high_watermark: 42,
        }
    }

    #[test]
    fn the_leader_of_the_metadata_partition_is_the_controller() {
        let read = |response: &DescribeQuorumResponse| read_quorum(response).map_err(|e| e.code());
        assert_eq!(read(&answer(0, 2)), Ok(Some(quorum(2))), "voters sorted");
        assert_eq!(read(&answer(0, -1)), Ok(None), "no leader elected");
        assert_eq!(
            read(&answer(6, 2)),
            Err(Some(ErrorCode::NotLeaderOrFollower)),
            "partition error"
        );
        let denied = answer(0, 2).with_error_code(31);
        assert_eq!(
            read(&denied),
            Err(Some(ErrorCode::ClusterAuthorizationFailed)),
            "top-level error"
        );
    }

    #[test]
    fn a_failed_ask_keeps_what_was_shown_and_zookeeper_clusters_keep_the_claim() {
        let held: (Option<i32>, &[i32]) = (Some(2), &[1, 2]);
        assert_eq!(
            choose(&Ok(Some(quorum(3))), Some(1), held),
            (Some(3), vec![1, 2, 3])
        );
        assert_eq!(choose(&Ok(None), Some(1), held), (Some(2), vec![1, 2]));
        let denied = Err(Error::from_code(
            crate::conn::ErrorCode::ClusterAuthorizationFailed,
            None,
        ));
        assert_eq!(choose(&denied, Some(1), (None, &[])), (None, vec![]));
        let absent = Err(Error::Conn(crate::conn::Error::UnsupportedVersion {
            broker: "broker 1 (localhost:9092)".to_owned(),
            api: crate::conn::ApiKey::DescribeQuorum,
            ours: "v0-v2".to_owned(),
            theirs: "none".to_owned(),
        }));
        assert_eq!(choose(&absent, Some(1), held), (Some(1), vec![]));
    }
}
