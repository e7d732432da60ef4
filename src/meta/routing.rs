//! Where each request belongs: [`routing`] answers for every [`ApiKey`].
//!
//! The match is exhaustive on purpose: a key added to the protocol crate is a
//! compile error here until someone decides where it goes.

use crate::conn::ApiKey;

/// Which coordinator a coordinator-routed request needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CoordinatorKind {
    /// A consumer group's coordinator.
    Group,
    /// A transactional id's coordinator.
    Transaction,
}

impl CoordinatorKind {
    /// The `key_type` of a `FindCoordinator` request.
    pub fn key_type(self) -> i8 {
        match self {
            CoordinatorKind::Group => 0,
            CoordinatorKind::Transaction => 1,
        }
    }
}

/// How the one broker of a broker-specific request is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BrokerSelector {
    /// The caller names it (log dirs, per-broker listings, broker configs).
    Caller,
    /// The leader of the partition the request is about.
    PartitionLeader,
}

/// Where a request has to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Routing {
    /// Any broker will do (the least loaded, in the Java client).
    Any,
    /// The controller. In `KRaft` brokers forward these, but the Java admin
    /// client still sends them to the broker the metadata names as controller.
    Controller,
    /// A group or transaction coordinator.
    Coordinator(CoordinatorKind),
    /// One specific broker.
    Specific(BrokerSelector),
}

/// Where requests of this API key go.
///
/// Keys only brokers and controllers send to each other (raft, broker
/// registration, `AlterPartition`, share-group state) are never sent by
/// kscope; they are listed as `Any` so the table stays total.
pub fn routing(key: ApiKey) -> Routing {
    use BrokerSelector::{Caller, PartitionLeader};
    use CoordinatorKind::{Group, Transaction};
    match key {
        ApiKey::Produce
        | ApiKey::Fetch
        | ApiKey::ListOffsets
        | ApiKey::DeleteRecords
        | ApiKey::OffsetForLeaderEpoch
        | ApiKey::DescribeProducers
        | ApiKey::ShareFetch
        | ApiKey::ShareAcknowledge
        | ApiKey::WriteTxnMarkers => Routing::Specific(PartitionLeader),

        ApiKey::OffsetCommit
        | ApiKey::OffsetFetch
        | ApiKey::OffsetDelete
        | ApiKey::JoinGroup
        | ApiKey::SyncGroup
        | ApiKey::Heartbeat
        | ApiKey::LeaveGroup
        | ApiKey::DescribeGroups
        | ApiKey::DeleteGroups
        | ApiKey::TxnOffsetCommit
        | ApiKey::ConsumerGroupHeartbeat
        | ApiKey::ConsumerGroupDescribe
        | ApiKey::ShareGroupHeartbeat
        | ApiKey::ShareGroupDescribe
        | ApiKey::StreamsGroupDescribe
        | ApiKey::DescribeShareGroupOffsets
        | ApiKey::AlterShareGroupOffsets
        | ApiKey::DeleteShareGroupOffsets => Routing::Coordinator(Group),

        ApiKey::InitProducerId
        | ApiKey::AddPartitionsToTxn
        | ApiKey::AddOffsetsToTxn
        | ApiKey::EndTxn
        | ApiKey::DescribeTransactions => Routing::Coordinator(Transaction),

        ApiKey::CreateTopics
        | ApiKey::DeleteTopics
        | ApiKey::CreatePartitions
        | ApiKey::ElectLeaders
        | ApiKey::AlterPartitionReassignments
        | ApiKey::ListPartitionReassignments
        | ApiKey::UpdateFeatures
        | ApiKey::AlterUserScramCredentials
        | ApiKey::UnregisterBroker
        | ApiKey::AddRaftVoter
        | ApiKey::RemoveRaftVoter => Routing::Controller,

        ApiKey::DescribeLogDirs
        | ApiKey::AlterReplicaLogDirs
        | ApiKey::ListGroups
        | ApiKey::ListTransactions
        | ApiKey::DescribeConfigs
        | ApiKey::AlterConfigs
        | ApiKey::IncrementalAlterConfigs => Routing::Specific(Caller),

        ApiKey::Metadata
        | ApiKey::ApiVersions
        | ApiKey::SaslHandshake
        | ApiKey::SaslAuthenticate
        | ApiKey::FindCoordinator
        | ApiKey::DescribeCluster
        | ApiKey::DescribeTopicPartitions
        | ApiKey::DescribeAcls
        | ApiKey::CreateAcls
        | ApiKey::DeleteAcls
        | ApiKey::DescribeClientQuotas
        | ApiKey::AlterClientQuotas
        | ApiKey::DescribeUserScramCredentials
        | ApiKey::DescribeQuorum
        | ApiKey::CreateDelegationToken
        | ApiKey::RenewDelegationToken
        | ApiKey::ExpireDelegationToken
        | ApiKey::DescribeDelegationToken
        | ApiKey::GetTelemetrySubscriptions
        | ApiKey::PushTelemetry
        | ApiKey::ListConfigResources
        // Inter-broker and controller-internal keys: never sent by kscope.
        | ApiKey::Vote
        | ApiKey::BeginQuorumEpoch
        | ApiKey::EndQuorumEpoch
        | ApiKey::AlterPartition
        | ApiKey::Envelope
        | ApiKey::FetchSnapshot
        | ApiKey::BrokerRegistration
        | ApiKey::BrokerHeartbeat
        | ApiKey::AllocateProducerIds
        | ApiKey::ControllerRegistration
        | ApiKey::AssignReplicasToDirs
        | ApiKey::UpdateRaftVoter
        | ApiKey::InitializeShareGroupState
        | ApiKey::ReadShareGroupState
        | ApiKey::WriteShareGroupState
        | ApiKey::DeleteShareGroupState
        | ApiKey::ReadShareGroupStateSummary => Routing::Any,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_requests_kscope_sends_go_where_kafka_expects() {
        assert_eq!(routing(ApiKey::Metadata), Routing::Any);
        assert_eq!(
            routing(ApiKey::ListOffsets),
            Routing::Specific(BrokerSelector::PartitionLeader)
        );
        assert_eq!(
            routing(ApiKey::Fetch),
            Routing::Specific(BrokerSelector::PartitionLeader)
        );
        assert_eq!(
            routing(ApiKey::OffsetFetch),
            Routing::Coordinator(CoordinatorKind::Group)
        );
        assert_eq!(
            routing(ApiKey::ConsumerGroupDescribe),
            Routing::Coordinator(CoordinatorKind::Group)
        );
        assert_eq!(
            routing(ApiKey::DescribeTransactions),
            Routing::Coordinator(CoordinatorKind::Transaction)
        );
        assert_eq!(routing(ApiKey::CreateTopics), Routing::Controller);
        assert_eq!(
            routing(ApiKey::ListGroups),
            Routing::Specific(BrokerSelector::Caller)
        );
        assert_eq!(
            routing(ApiKey::DescribeLogDirs),
            Routing::Specific(BrokerSelector::Caller)
        );
    }

    #[test]
    fn find_coordinator_key_types_match_the_protocol() {
        assert_eq!(CoordinatorKind::Group.key_type(), 0);
        assert_eq!(CoordinatorKind::Transaction.key_type(), 1);
    }
}
