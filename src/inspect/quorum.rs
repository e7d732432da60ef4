//! The `KRaft` quorum in detail (`DescribeQuorum` of `__cluster_metadata`
//! partition 0, forwarded by any broker to the active controller): leader,
//! epoch, high watermark, and each voter and observer with its lag.

use super::error::{Error, Result};
use crate::conn::protocol::messages::describe_quorum_response::ReplicaState;
use crate::conn::protocol::messages::{DescribeQuorumRequest, DescribeQuorumResponse};
use crate::meta::Cluster;

/// One replica of the metadata log (serialized as is by `kscope get cluster`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct QuorumReplica {
    pub node_id: i32,
    /// `leader`, `voter` or `observer`.
    pub role: &'static str,
    /// Its log end offset.
    pub log_end_offset: i64,
    /// How far behind the leader's log end offset it is.
    pub lag: i64,
    /// When it last fetched (ms since the epoch), where known.
    pub last_fetch_ms: Option<i64>,
    /// When it was last caught up (ms since the epoch), where known.
    pub last_caught_up_ms: Option<i64>,
}

/// The quorum's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quorum {
    /// The leader: the active controller.
    pub leader_id: i32,
    /// The leader's epoch.
    pub leader_epoch: i32,
    /// The metadata log's high watermark.
    pub high_watermark: i64,
    /// Voters (the leader first), then observers.
    pub replicas: Vec<QuorumReplica>,
}

/// Asks for `__cluster_metadata` partition 0: the same request the liveness
/// check sends.
pub fn request() -> DescribeQuorumRequest {
    crate::meta::quorum_request()
}

/// The quorum in an answer.
pub fn read(response: &DescribeQuorumResponse) -> Result<Quorum> {
    let what = "describe quorum";
    if let Some(error) = Error::answer(what, response.error_code, response.error_message.as_deref())
    {
        return Err(error);
    }
    let Some(partition) = response.topics.iter().flat_map(|t| &t.partitions).next() else {
        return Err(Error::Task {
            what,
            message: "the answer named no partition".to_owned(),
        });
    };
    if let Some(error) = Error::answer(
        what,
        partition.error_code,
        partition.error_message.as_deref(),
    ) {
        return Err(error);
    }
    let leader = partition.leader_id.0;
    let leader_end = partition
        .current_voters
        .iter()
        .find(|v| v.replica_id.0 == leader)
        .map_or(partition.high_watermark, |v| v.log_end_offset);
    let known = |t: i64| (t >= 0).then_some(t);
    let replica = |state: &ReplicaState, voter: bool| QuorumReplica {
        node_id: state.replica_id.0,
        role: match (state.replica_id.0 == leader, voter) {
            (true, _) => "leader",
            (false, true) => "voter",
            (false, false) => "observer",
        },
        log_end_offset: state.log_end_offset,
        lag: (leader_end - state.log_end_offset).max(0),
        last_fetch_ms: known(state.last_fetch_timestamp),
        last_caught_up_ms: known(state.last_caught_up_timestamp),
    };
    let mut replicas: Vec<QuorumReplica> = partition
        .current_voters
        .iter()
        .map(|v| replica(v, true))
        .chain(partition.observers.iter().map(|o| replica(o, false)))
        .collect();
    replicas.sort_by_key(|r| (r.role != "leader", r.role == "observer", r.node_id));
    Ok(Quorum {
        leader_id: leader,
        leader_epoch: partition.leader_epoch,
        high_watermark: partition.high_watermark,
        replicas,
    })
}

/// Ask any broker for the quorum; [`Error::NoKraftQuorum`] when the brokers
/// have no such thing to describe.
pub async fn describe(cluster: &Cluster) -> Result<Quorum> {
    if let Err(error) = cluster.negotiated_for::<DescribeQuorumRequest>().await
        && error.is_unsupported_version()
    {
        return Err(Error::NoKraftQuorum);
    }
    let response = cluster
        .send_any(request())
        .await
        .map_err(|e| Error::request("describe quorum", e))?;
    read(&response)
}
