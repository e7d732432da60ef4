//! [`Rpc`]: which request types kscope sends, what each answers with, and
//! which of them a read-only context may send.

use kafka_protocol::messages::{
    AlterConfigsRequest, AlterConfigsResponse, AlterPartitionReassignmentsRequest,
    AlterPartitionReassignmentsResponse, ApiKey, ApiVersionsRequest, ApiVersionsResponse,
    ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, CreateAclsRequest,
    CreateAclsResponse, CreatePartitionsRequest, CreatePartitionsResponse, CreateTopicsRequest,
    CreateTopicsResponse, DeleteAclsRequest, DeleteAclsResponse, DeleteGroupsRequest,
    DeleteGroupsResponse, DeleteRecordsRequest, DeleteRecordsResponse, DeleteTopicsRequest,
    DeleteTopicsResponse, DescribeAclsRequest, DescribeAclsResponse, DescribeClientQuotasRequest,
    DescribeClientQuotasResponse, DescribeClusterRequest, DescribeClusterResponse,
    DescribeConfigsRequest, DescribeConfigsResponse, DescribeGroupsRequest, DescribeGroupsResponse,
    DescribeLogDirsRequest, DescribeLogDirsResponse, DescribeProducersRequest,
    DescribeProducersResponse, DescribeQuorumRequest, DescribeQuorumResponse,
    DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsResponse,
    DescribeTopicPartitionsRequest, DescribeTopicPartitionsResponse, DescribeTransactionsRequest,
    DescribeTransactionsResponse, DescribeUserScramCredentialsRequest,
    DescribeUserScramCredentialsResponse, ElectLeadersRequest, ElectLeadersResponse, FetchRequest,
    FetchResponse, FindCoordinatorRequest, FindCoordinatorResponse, IncrementalAlterConfigsRequest,
    IncrementalAlterConfigsResponse, ListGroupsRequest, ListGroupsResponse, ListOffsetsRequest,
    ListOffsetsResponse, ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse,
    ListTransactionsRequest, ListTransactionsResponse, MetadataRequest, MetadataResponse,
    OffsetCommitRequest, OffsetCommitResponse, OffsetDeleteRequest, OffsetDeleteResponse,
    OffsetFetchRequest, OffsetFetchResponse, OffsetForLeaderEpochRequest,
    OffsetForLeaderEpochResponse, ProduceRequest, ProduceResponse, SaslAuthenticateRequest,
    SaslAuthenticateResponse, SaslHandshakeRequest, SaslHandshakeResponse,
    ShareGroupDescribeRequest, ShareGroupDescribeResponse, StreamsGroupDescribeRequest,
    StreamsGroupDescribeResponse,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Message, VersionRange};

/// A request kscope can send: ties the request type to its response type
/// and its API key.
///
/// The version range is the request type's own [`Message::VERSIONS`] (what
/// the codec can encode), deliberately not `ApiKey::valid_versions()`, which
/// overstates `OffsetCommit`, `OffsetFetch` and `InitProducerId` by one.
pub trait Rpc: Message + Encodable + HeaderVersion + Send + 'static {
    /// The API this request belongs to.
    const API_KEY: ApiKey;
    /// What the broker answers with.
    type Response: Decodable + HeaderVersion + Send + std::fmt::Debug + 'static;

    /// Refuse a request the connection layer cannot carry (before encoding).
    ///
    /// The default accepts everything; `Produce` refuses `acks = 0`, for
    /// which the broker sends no response and a pipelined connection would
    /// wait for one forever.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }

    /// Why this particular request would change the cluster even though its
    /// API is on the read-only allow-list, if it would; `None` when it only reads.
    ///
    /// The read-only guard asks this after the API key passed, at the
    /// version the request is about to be sent at.
    fn writes_at(&self, _version: i16) -> Option<&'static str> {
        None
    }
}

macro_rules! rpcs {
    ($($request:ident => $response:ident, $key:ident;)*) => {
        $(
            impl Rpc for $request {
                const API_KEY: ApiKey = ApiKey::$key;
                type Response = $response;
            }
        )*

        /// The versions kscope can encode for an API with an [`Rpc`] type,
        /// falling back to the crate's table for the others.
        pub fn supported_versions(key: ApiKey) -> VersionRange {
            match key {
                $(ApiKey::$key => <$request as Message>::VERSIONS,)*
                ApiKey::Produce => <ProduceRequest as Message>::VERSIONS,
                ApiKey::Metadata => <MetadataRequest as Message>::VERSIONS,
                other => other.valid_versions(),
            }
        }
    };
}

rpcs! {
    ApiVersionsRequest => ApiVersionsResponse, ApiVersions;
    SaslHandshakeRequest => SaslHandshakeResponse, SaslHandshake;
    SaslAuthenticateRequest => SaslAuthenticateResponse, SaslAuthenticate;
    DescribeClusterRequest => DescribeClusterResponse, DescribeCluster;
    DescribeTopicPartitionsRequest => DescribeTopicPartitionsResponse, DescribeTopicPartitions;
    FindCoordinatorRequest => FindCoordinatorResponse, FindCoordinator;
    ListOffsetsRequest => ListOffsetsResponse, ListOffsets;
    OffsetForLeaderEpochRequest => OffsetForLeaderEpochResponse, OffsetForLeaderEpoch;
    FetchRequest => FetchResponse, Fetch;
    ListGroupsRequest => ListGroupsResponse, ListGroups;
    DescribeGroupsRequest => DescribeGroupsResponse, DescribeGroups;
    ConsumerGroupDescribeRequest => ConsumerGroupDescribeResponse, ConsumerGroupDescribe;
    ShareGroupDescribeRequest => ShareGroupDescribeResponse, ShareGroupDescribe;
    DescribeShareGroupOffsetsRequest => DescribeShareGroupOffsetsResponse, DescribeShareGroupOffsets;
    StreamsGroupDescribeRequest => StreamsGroupDescribeResponse, StreamsGroupDescribe;
    OffsetFetchRequest => OffsetFetchResponse, OffsetFetch;
    DescribeConfigsRequest => DescribeConfigsResponse, DescribeConfigs;
    DescribeLogDirsRequest => DescribeLogDirsResponse, DescribeLogDirs;
    DescribeAclsRequest => DescribeAclsResponse, DescribeAcls;
    DescribeClientQuotasRequest => DescribeClientQuotasResponse, DescribeClientQuotas;
    DescribeUserScramCredentialsRequest => DescribeUserScramCredentialsResponse, DescribeUserScramCredentials;
    DescribeQuorumRequest => DescribeQuorumResponse, DescribeQuorum;
    DescribeProducersRequest => DescribeProducersResponse, DescribeProducers;
    DescribeTransactionsRequest => DescribeTransactionsResponse, DescribeTransactions;
    ListTransactionsRequest => ListTransactionsResponse, ListTransactions;
    ListPartitionReassignmentsRequest => ListPartitionReassignmentsResponse, ListPartitionReassignments;
    CreateTopicsRequest => CreateTopicsResponse, CreateTopics;
    DeleteTopicsRequest => DeleteTopicsResponse, DeleteTopics;
    CreatePartitionsRequest => CreatePartitionsResponse, CreatePartitions;
    DeleteRecordsRequest => DeleteRecordsResponse, DeleteRecords;
    DeleteGroupsRequest => DeleteGroupsResponse, DeleteGroups;
    OffsetCommitRequest => OffsetCommitResponse, OffsetCommit;
    OffsetDeleteRequest => OffsetDeleteResponse, OffsetDelete;
    ElectLeadersRequest => ElectLeadersResponse, ElectLeaders;
    AlterPartitionReassignmentsRequest => AlterPartitionReassignmentsResponse, AlterPartitionReassignments;
    AlterConfigsRequest => AlterConfigsResponse, AlterConfigs;
    IncrementalAlterConfigsRequest => IncrementalAlterConfigsResponse, IncrementalAlterConfigs;
    CreateAclsRequest => CreateAclsResponse, CreateAcls;
    DeleteAclsRequest => DeleteAclsResponse, DeleteAcls;
}

impl Rpc for ProduceRequest {
    const API_KEY: ApiKey = ApiKey::Produce;
    type Response = ProduceResponse;

    fn check(&self) -> Result<(), String> {
        if self.acks == 0 {
            return Err("produce with acks=0 gets no response; use acks=1 or acks=-1".to_owned());
        }
        Ok(())
    }
}

impl Rpc for MetadataRequest {
    const API_KEY: ApiKey = ApiKey::Metadata;
    type Response = MetadataResponse;

    /// A Metadata request creates the topics it names when the broker has
    /// `auto.create.topics.enable=true` and the request allows it: from v4 by
    /// its `allow_auto_topic_creation` flag, below v4 always (the flag does
    /// not exist there, so naming a topic is enough).
    fn writes_at(&self, version: i16) -> Option<&'static str> {
        if version >= 4 {
            self.allow_auto_topic_creation
                .then_some("a Metadata request that allows topic auto-creation")
        } else {
            let names_topics = self
                .topics
                .as_ref()
                .is_some_and(|topics| !topics.is_empty());
            names_topics.then_some(
                "a Metadata request below v4 that names topics (which may auto-create them)",
            )
        }
    }
}

/// Whether a read-only context may send this API.
///
/// An explicit allow-list, so an API added to the protocol later is refused
/// until someone decides it only reads. Everything here only reads cluster
/// state, or (SASL, `ApiVersions`) sets up the connection itself.
pub fn is_read_only_api(key: ApiKey) -> bool {
    matches!(
        key,
        ApiKey::ApiVersions
            | ApiKey::SaslHandshake
            | ApiKey::SaslAuthenticate
            | ApiKey::Metadata
            | ApiKey::DescribeCluster
            | ApiKey::DescribeTopicPartitions
            | ApiKey::FindCoordinator
            | ApiKey::ListOffsets
            | ApiKey::OffsetForLeaderEpoch
            | ApiKey::Fetch
            | ApiKey::ListGroups
            | ApiKey::DescribeGroups
            | ApiKey::ConsumerGroupDescribe
            | ApiKey::ShareGroupDescribe
            | ApiKey::DescribeShareGroupOffsets
            | ApiKey::StreamsGroupDescribe
            | ApiKey::OffsetFetch
            | ApiKey::DescribeConfigs
            | ApiKey::DescribeLogDirs
            | ApiKey::DescribeAcls
            | ApiKey::DescribeClientQuotas
            | ApiKey::DescribeUserScramCredentials
            | ApiKey::DescribeQuorum
            | ApiKey::DescribeProducers
            | ApiKey::DescribeTransactions
            | ApiKey::ListTransactions
            | ApiKey::ListPartitionReassignments
            | ApiKey::DescribeDelegationToken
            | ApiKey::ListConfigResources
    )
}

/// The highest version in both ranges, or both ranges spelled out for the error.
pub fn highest_common(
    key: ApiKey,
    ours: VersionRange,
    theirs: Option<VersionRange>,
) -> std::result::Result<i16, (String, String)> {
    let spell = |range: VersionRange| format!("v{}-v{}", range.min, range.max);
    let Some(theirs) = theirs else {
        tracing::debug!(api = %key, "broker does not advertise the api");
        return Err((spell(ours), "none".to_owned()));
    };
    let common = ours.intersect(&theirs);
    if common.is_empty() {
        return Err((spell(ours), spell(theirs)));
    }
    Ok(common.max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_read_only_list_allows_reads_and_refuses_every_write() {
        for read in [
            ApiKey::ApiVersions,
            ApiKey::Metadata,
            ApiKey::ListOffsets,
            ApiKey::Fetch,
            ApiKey::FindCoordinator,
            ApiKey::ListGroups,
            ApiKey::DescribeGroups,
            ApiKey::ConsumerGroupDescribe,
            ApiKey::OffsetFetch,
            ApiKey::DescribeConfigs,
            ApiKey::DescribeCluster,
            ApiKey::DescribeLogDirs,
            ApiKey::DescribeAcls,
            ApiKey::DescribeTopicPartitions,
            ApiKey::SaslHandshake,
            ApiKey::SaslAuthenticate,
        ] {
            assert!(is_read_only_api(read), "{read:?} should be allowed");
        }
        for write in [
            ApiKey::Produce,
            ApiKey::CreateTopics,
            ApiKey::DeleteTopics,
            ApiKey::CreatePartitions,
            ApiKey::DeleteRecords,
            ApiKey::DeleteGroups,
            ApiKey::OffsetCommit,
            ApiKey::OffsetDelete,
            ApiKey::TxnOffsetCommit,
            ApiKey::ElectLeaders,
            ApiKey::AlterPartitionReassignments,
            ApiKey::AlterConfigs,
            ApiKey::IncrementalAlterConfigs,
            ApiKey::CreateAcls,
            ApiKey::DeleteAcls,
            ApiKey::InitProducerId,
            ApiKey::JoinGroup,
            ApiKey::SyncGroup,
            ApiKey::LeaveGroup,
            ApiKey::Heartbeat,
            ApiKey::ConsumerGroupHeartbeat,
            ApiKey::AlterReplicaLogDirs,
            ApiKey::AlterUserScramCredentials,
            ApiKey::AlterClientQuotas,
            ApiKey::UpdateFeatures,
            ApiKey::UnregisterBroker,
            ApiKey::AddPartitionsToTxn,
            ApiKey::EndTxn,
            ApiKey::WriteTxnMarkers,
        ] {
            assert!(!is_read_only_api(write), "{write:?} should be refused");
        }
    }

    #[test]
    fn a_metadata_request_writes_when_it_may_auto_create_topics() {
        use kafka_protocol::messages::TopicName;
        use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
        use kafka_protocol::protocol::StrBytes;
        let named =
            Some(vec![MetadataRequestTopic::default().with_name(Some(
                TopicName(StrBytes::from_static_str("orders")),
            ))]);
        let dangerous = MetadataRequest::default();
        let safe = MetadataRequest::default().with_allow_auto_topic_creation(false);
        for version in 4..=12 {
            assert!(dangerous.writes_at(version).is_some(), "v{version}");
            assert!(
                dangerous
                    .clone()
                    .with_topics(None)
                    .writes_at(version)
                    .is_some(),
                "v{version}: the flag alone is refused"
            );
            assert!(safe.writes_at(version).is_none(), "v{version}");
            assert!(
                safe.clone()
                    .with_topics(named.clone())
                    .writes_at(version)
                    .is_none()
            );
        }
        for version in 0..4 {
            let naming = safe.clone().with_topics(named.clone());
            assert!(naming.writes_at(version).is_some(), "v{version}");
            assert!(safe.clone().with_topics(None).writes_at(version).is_none());
            assert!(
                safe.clone()
                    .with_topics(Some(Vec::new()))
                    .writes_at(version)
                    .is_none()
            );
        }
        assert!(CreateTopicsRequest::default().writes_at(7).is_none());
    }

    #[test]
    fn supported_versions_come_from_the_request_type_not_the_key_table() {
        // The key table says 10; the codec's OffsetCommit stops at 9.
        assert_eq!(supported_versions(ApiKey::OffsetCommit).max, 9);
        assert_eq!(
            supported_versions(ApiKey::Metadata),
            <MetadataRequest as Message>::VERSIONS
        );
    }

    #[test]
    fn acks_zero_produce_is_refused() {
        assert!(ProduceRequest::default().with_acks(0).check().is_err());
        assert!(ProduceRequest::default().with_acks(-1).check().is_ok());
    }
}
