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

use super::error::Result;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::describe_quorum_request::{PartitionData, TopicData};
use crate::conn::protocol::messages::{DescribeQuorumRequest, DescribeQuorumResponse, TopicName};

use super::cluster::Cluster;

/// The Raft topic whose leader is the active controller.
const METADATA_TOPIC: &str = "__cluster_metadata";

/// Asks for the leader of `__cluster_metadata-0`.
fn quorum_request() -> DescribeQuorumRequest {
    DescribeQuorumRequest::default().with_topics(vec![
        TopicData::default()
            .with_topic_name(TopicName(StrBytes::from_static_str(METADATA_TOPIC)))
            .with_partitions(vec![PartitionData::default().with_partition_index(0)]),
    ])
}

/// The quorum leader in an answer, if one is elected and nothing failed.
fn quorum_leader(response: &DescribeQuorumResponse) -> Option<i32> {
    if response.error_code != 0 {
        return None;
    }
    response
        .topics
        .iter()
        .filter(|t| t.topic_name.0.as_str() == METADATA_TOPIC)
        .flat_map(|t| &t.partitions)
        .find(|p| p.partition_index == 0 && p.error_code == 0)
        .map(|p| p.leader_id.0)
        .filter(|id| *id >= 0)
}

/// What to show as the controller, given the quorum's answer, the
/// Metadata response's claim and the controller shown until now.
///
/// - the quorum answered with a leader: that leader;
/// - the broker lacks `DescribeQuorum` (a `ZooKeeper` cluster): the Metadata
///   claim, which is true there;
/// - anything else (denied, election in progress, a transport error): keep
///   what was shown, rather than invent a change from a random broker id.
fn choose(asked: &Result<Option<i32>>, claimed: Option<i32>, held: Option<i32>) -> Option<i32> {
    match asked {
        Ok(Some(leader)) => Some(*leader),
        Err(error) if error.is_unsupported_version() => claimed,
        Ok(None) | Err(_) => held,
    }
}

impl Cluster {
    /// Ask the quorum for its leader (sent beside a full refresh's
    /// Metadata request, on the same connection, so it adds no round trip).
    pub(super) async fn ask_quorum(&self) -> Result<Option<i32>> {
        let connection = self.inner.pool.any().await?;
        let response = connection.send(quorum_request()).await?;
        Ok(quorum_leader(&response))
    }

    /// The active controller from the quorum's answer (`asked`) and what
    /// the Metadata response named (`claimed`); see [`choose`].
    pub(super) fn active_controller(
        &self,
        asked: &Result<Option<i32>>,
        claimed: Option<i32>,
    ) -> Option<i32> {
        if let Err(error) = asked {
            tracing::debug!(%error, "DescribeQuorum for the active controller");
        }
        choose(asked, claimed, self.snapshot().controller_id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::BrokerId;
    use crate::conn::protocol::messages::describe_quorum_response;
    use crate::meta::Error;

    fn answer(error: i16, leader: i32) -> DescribeQuorumResponse {
        DescribeQuorumResponse::default().with_topics(vec![
            describe_quorum_response::TopicData::default()
                .with_topic_name(TopicName(StrBytes::from_static_str(METADATA_TOPIC)))
                .with_partitions(vec![
                    describe_quorum_response::PartitionData::default()
                        .with_partition_index(0)
                        .with_error_code(error)
                        .with_leader_id(BrokerId(leader)),
                ]),
        ])
    }

    #[test]
    fn the_leader_of_the_metadata_partition_is_the_controller() {
        assert_eq!(quorum_leader(&answer(0, 2)), Some(2));
        assert_eq!(quorum_leader(&answer(0, -1)), None, "no leader elected");
        assert_eq!(quorum_leader(&answer(6, 2)), None, "partition error");
        let denied = answer(0, 2).with_error_code(31);
        assert_eq!(quorum_leader(&denied), None, "top-level error");
    }

    #[test]
    fn a_failed_ask_keeps_what_was_shown_and_zookeeper_clusters_keep_the_claim() {
        assert_eq!(choose(&Ok(Some(3)), Some(1), Some(2)), Some(3));
        assert_eq!(choose(&Ok(None), Some(1), Some(2)), Some(2));
        let denied = Err(Error::from_code(
            crate::conn::ErrorCode::ClusterAuthorizationFailed,
            None,
        ));
        assert_eq!(choose(&denied, Some(1), None), None);
        let absent = Err(Error::Conn(crate::conn::Error::UnsupportedVersion {
            broker: "broker 1 (localhost:9092)".to_owned(),
            api: crate::conn::ApiKey::DescribeQuorum,
            ours: "v0-v2".to_owned(),
            theirs: "none".to_owned(),
        }));
        assert_eq!(choose(&absent, Some(1), Some(2)), Some(1));
    }
}
