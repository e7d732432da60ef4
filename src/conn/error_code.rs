//! Every error code the Kafka protocol defines, with its name, the protocol's
//! own message, and how a client should react to it.
//!
//! The table is taken from Kafka's `Errors.java` (through Kafka 4.1: codes -1
//! and 1 to 133; 0 is "no error" and has no variant). "Retriable" is Kafka's
//! own `RetriableException` marking; the two refresh classifiers are kscope's:
//! they say which cache is stale when the code comes back.

use std::fmt;

/// Retry the request: the condition may clear by itself.
const R: u8 = 1;
/// The client's metadata (leaders, topic ids) is stale: refresh it first.
const M: u8 = 2;
/// The coordinator moved or is loading: look it up again.
const C: u8 = 4;

macro_rules! error_codes {
    ($($variant:ident = $code:literal, $name:literal, $flags:expr, $message:literal;)*) => {
        /// A non-zero Kafka protocol error code.
        #[allow(clippy::doc_markdown)] // the docs are Kafka's own messages, verbatim
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $(
                #[doc = $message]
                $variant,
            )*
            /// A code this table does not know (a newer broker); the value is kept.
            Unknown(i16),
        }

        impl ErrorCode {
            /// The code for a wire value; `None` for 0, which means success.
            pub fn from_code(code: i16) -> Option<ErrorCode> {
                match code {
                    0 => None,
                    $($code => Some(ErrorCode::$variant),)*
                    other => Some(ErrorCode::Unknown(other)),
                }
            }

            /// The wire value.
            pub fn code(self) -> i16 {
                match self {
                    $(ErrorCode::$variant => $code,)*
                    ErrorCode::Unknown(code) => code,
                }
            }

            /// Kafka's name for the code, e.g. `NOT_LEADER_OR_FOLLOWER`.
            pub fn name(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)*
                    ErrorCode::Unknown(_) => "UNKNOWN",
                }
            }

            /// The protocol's description of the code.
            pub fn message(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $message,)*
                    ErrorCode::Unknown(_) => "An error code this client does not know.",
                }
            }

            fn flags(self) -> u8 {
                match self {
                    $(ErrorCode::$variant => $flags,)*
                    ErrorCode::Unknown(_) => 0,
                }
            }
        }

        /// Every known code, in wire order.
        pub const ALL_ERROR_CODES: &[ErrorCode] = &[$(ErrorCode::$variant,)*];
    };
}

error_codes! {
    UnknownServerError = -1, "UNKNOWN_SERVER_ERROR", 0, "The server experienced an unexpected error when processing the request.";
    OffsetOutOfRange = 1, "OFFSET_OUT_OF_RANGE", 0, "The requested offset is not within the range of offsets maintained by the server.";
    CorruptMessage = 2, "CORRUPT_MESSAGE", R, "This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt.";
    UnknownTopicOrPartition = 3, "UNKNOWN_TOPIC_OR_PARTITION", R | M, "This server does not host this topic-partition.";
    InvalidFetchSize = 4, "INVALID_FETCH_SIZE", 0, "The requested fetch size is invalid.";
    LeaderNotAvailable = 5, "LEADER_NOT_AVAILABLE", R | M, "There is no leader for this topic-partition as we are in the middle of a leadership election.";
    NotLeaderOrFollower = 6, "NOT_LEADER_OR_FOLLOWER", R | M, "For requests intended only for the leader, this error indicates that the broker is not the current leader. For requests intended for any replica, this error indicates that the broker is not a replica of the topic partition.";
    RequestTimedOut = 7, "REQUEST_TIMED_OUT", R, "The request timed out.";
    BrokerNotAvailable = 8, "BROKER_NOT_AVAILABLE", M, "The broker is not available.";
    ReplicaNotAvailable = 9, "REPLICA_NOT_AVAILABLE", R | M, "The replica is not available for the requested topic-partition. Produce/Fetch requests and other requests intended only for the leader or follower return NOT_LEADER_OR_FOLLOWER if the broker is not a replica of the topic-partition.";
    MessageTooLarge = 10, "MESSAGE_TOO_LARGE", 0, "The request included a message larger than the max message size the server will accept.";
    StaleControllerEpoch = 11, "STALE_CONTROLLER_EPOCH", 0, "The controller moved to another broker.";
    OffsetMetadataTooLarge = 12, "OFFSET_METADATA_TOO_LARGE", 0, "The metadata field of the offset request was too large.";
    NetworkException = 13, "NETWORK_EXCEPTION", R, "The server disconnected before a response was received.";
    CoordinatorLoadInProgress = 14, "COORDINATOR_LOAD_IN_PROGRESS", R | C, "The coordinator is loading and hence can't process requests.";
    CoordinatorNotAvailable = 15, "COORDINATOR_NOT_AVAILABLE", R | C, "The coordinator is not available.";
    NotCoordinator = 16, "NOT_COORDINATOR", R | C, "This is not the correct coordinator.";
    InvalidTopicException = 17, "INVALID_TOPIC_EXCEPTION", 0, "The request attempted to perform an operation on an invalid topic.";
    RecordListTooLarge = 18, "RECORD_LIST_TOO_LARGE", 0, "The request included message batch larger than the configured segment size on the server.";
    NotEnoughReplicas = 19, "NOT_ENOUGH_REPLICAS", R, "Messages are rejected since there are fewer in-sync replicas than required.";
    NotEnoughReplicasAfterAppend = 20, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", R, "Messages are written to the log, but to fewer in-sync replicas than required.";
    InvalidRequiredAcks = 21, "INVALID_REQUIRED_ACKS", 0, "Produce request specified an invalid value for required acks.";
    IllegalGeneration = 22, "ILLEGAL_GENERATION", 0, "Specified group generation id is not valid.";
    InconsistentGroupProtocol = 23, "INCONSISTENT_GROUP_PROTOCOL", 0, "The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list.";
    InvalidGroupId = 24, "INVALID_GROUP_ID", 0, "The configured groupId is invalid.";
    UnknownMemberId = 25, "UNKNOWN_MEMBER_ID", 0, "The coordinator is not aware of this member.";
    InvalidSessionTimeout = 26, "INVALID_SESSION_TIMEOUT", 0, "The session timeout is not within the range allowed by the broker (as configured by group.min.session.timeout.ms and group.max.session.timeout.ms).";
    RebalanceInProgress = 27, "REBALANCE_IN_PROGRESS", 0, "The group is rebalancing, so a rejoin is needed.";
    InvalidCommitOffsetSize = 28, "INVALID_COMMIT_OFFSET_SIZE", 0, "The committing offset data size is not valid.";
    TopicAuthorizationFailed = 29, "TOPIC_AUTHORIZATION_FAILED", 0, "Topic authorization failed.";
    GroupAuthorizationFailed = 30, "GROUP_AUTHORIZATION_FAILED", 0, "Group authorization failed.";
    ClusterAuthorizationFailed = 31, "CLUSTER_AUTHORIZATION_FAILED", 0, "Cluster authorization failed.";
    InvalidTimestamp = 32, "INVALID_TIMESTAMP", 0, "The timestamp of the message is out of acceptable range.";
    UnsupportedSaslMechanism = 33, "UNSUPPORTED_SASL_MECHANISM", 0, "The broker does not support the requested SASL mechanism.";
    IllegalSaslState = 34, "ILLEGAL_SASL_STATE", 0, "Request is not valid given the current SASL state.";
    UnsupportedVersion = 35, "UNSUPPORTED_VERSION", 0, "The version of API is not supported.";
    TopicAlreadyExists = 36, "TOPIC_ALREADY_EXISTS", 0, "Topic with this name already exists.";
    InvalidPartitions = 37, "INVALID_PARTITIONS", 0, "Number of partitions is below 1.";
    InvalidReplicationFactor = 38, "INVALID_REPLICATION_FACTOR", 0, "Replication factor is below 1 or larger than the number of available brokers.";
    InvalidReplicaAssignment = 39, "INVALID_REPLICA_ASSIGNMENT", 0, "Replica assignment is invalid.";
    InvalidConfig = 40, "INVALID_CONFIG", 0, "Configuration is invalid.";
    NotController = 41, "NOT_CONTROLLER", R | M, "This is not the correct controller for this cluster.";
    InvalidRequest = 42, "INVALID_REQUEST", 0, "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.";
    UnsupportedForMessageFormat = 43, "UNSUPPORTED_FOR_MESSAGE_FORMAT", 0, "The message format version on the broker does not support the request.";
    PolicyViolation = 44, "POLICY_VIOLATION", 0, "Request parameters do not satisfy the configured policy.";
    OutOfOrderSequenceNumber = 45, "OUT_OF_ORDER_SEQUENCE_NUMBER", 0, "The broker received an out of order sequence number.";
    DuplicateSequenceNumber = 46, "DUPLICATE_SEQUENCE_NUMBER", 0, "The broker received a duplicate sequence number.";
    InvalidProducerEpoch = 47, "INVALID_PRODUCER_EPOCH", 0, "Producer attempted to produce with an old epoch.";
    InvalidTxnState = 48, "INVALID_TXN_STATE", 0, "The producer attempted a transactional operation in an invalid state.";
    InvalidProducerIdMapping = 49, "INVALID_PRODUCER_ID_MAPPING", 0, "The producer attempted to use a producer id which is not currently assigned to its transactional id.";
    InvalidTransactionTimeout = 50, "INVALID_TRANSACTION_TIMEOUT", 0, "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).";
    ConcurrentTransactions = 51, "CONCURRENT_TRANSACTIONS", 0, "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.";
    TransactionCoordinatorFenced = 52, "TRANSACTION_COORDINATOR_FENCED", 0, "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer.";
    TransactionalIdAuthorizationFailed = 53, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", 0, "Transactional Id authorization failed.";
    SecurityDisabled = 54, "SECURITY_DISABLED", 0, "Security features are disabled.";
    OperationNotAttempted = 55, "OPERATION_NOT_ATTEMPTED", 0, "The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest.";
    KafkaStorageError = 56, "KAFKA_STORAGE_ERROR", R | M, "Disk error when trying to access log file on the disk.";
    LogDirNotFound = 57, "LOG_DIR_NOT_FOUND", 0, "The user-specified log directory is not found in the broker config.";
    SaslAuthenticationFailed = 58, "SASL_AUTHENTICATION_FAILED", 0, "SASL Authentication failed.";
    UnknownProducerId = 59, "UNKNOWN_PRODUCER_ID", 0, "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception.";
    ReassignmentInProgress = 60, "REASSIGNMENT_IN_PROGRESS", 0, "A partition reassignment is in progress.";
    DelegationTokenAuthDisabled = 61, "DELEGATION_TOKEN_AUTH_DISABLED", 0, "Delegation Token feature is not enabled.";
    DelegationTokenNotFound = 62, "DELEGATION_TOKEN_NOT_FOUND", 0, "Delegation Token is not found on server.";
    DelegationTokenOwnerMismatch = 63, "DELEGATION_TOKEN_OWNER_MISMATCH", 0, "Specified Principal is not valid Owner/Renewer.";
    DelegationTokenRequestNotAllowed = 64, "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", 0, "Delegation Token requests are not allowed on PLAINTEXT/1-way SSL channels and on delegation token authenticated channels.";
    DelegationTokenAuthorizationFailed = 65, "DELEGATION_TOKEN_AUTHORIZATION_FAILED", 0, "Delegation Token authorization failed.";
    DelegationTokenExpired = 66, "DELEGATION_TOKEN_EXPIRED", 0, "Delegation Token is expired.";
    InvalidPrincipalType = 67, "INVALID_PRINCIPAL_TYPE", 0, "Supplied principalType is not supported.";
    NonEmptyGroup = 68, "NON_EMPTY_GROUP", 0, "The group is not empty.";
    GroupIdNotFound = 69, "GROUP_ID_NOT_FOUND", 0, "The group id does not exist.";
    FetchSessionIdNotFound = 70, "FETCH_SESSION_ID_NOT_FOUND", R, "The fetch session ID was not found.";
    InvalidFetchSessionEpoch = 71, "INVALID_FETCH_SESSION_EPOCH", R, "The fetch session epoch is invalid.";
    ListenerNotFound = 72, "LISTENER_NOT_FOUND", R, "There is no listener on the leader broker that matches the listener on which metadata request was processed.";
    TopicDeletionDisabled = 73, "TOPIC_DELETION_DISABLED", 0, "Topic deletion is disabled.";
    FencedLeaderEpoch = 74, "FENCED_LEADER_EPOCH", R | M, "The leader epoch in the request is older than the epoch on the broker.";
    UnknownLeaderEpoch = 75, "UNKNOWN_LEADER_EPOCH", R | M, "The leader epoch in the request is newer than the epoch on the broker.";
    UnsupportedCompressionType = 76, "UNSUPPORTED_COMPRESSION_TYPE", 0, "The requesting client does not support the compression type of given partition.";
    StaleBrokerEpoch = 77, "STALE_BROKER_EPOCH", 0, "Broker epoch has changed.";
    OffsetNotAvailable = 78, "OFFSET_NOT_AVAILABLE", R | M, "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.";
    MemberIdRequired = 79, "MEMBER_ID_REQUIRED", 0, "The group member needs to have a valid member id before actually entering a consumer group.";
    PreferredLeaderNotAvailable = 80, "PREFERRED_LEADER_NOT_AVAILABLE", R | M, "The preferred leader was not available.";
    GroupMaxSizeReached = 81, "GROUP_MAX_SIZE_REACHED", 0, "The consumer group has reached its max size.";
    FencedInstanceId = 82, "FENCED_INSTANCE_ID", 0, "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.";
    EligibleLeadersNotAvailable = 83, "ELIGIBLE_LEADERS_NOT_AVAILABLE", R, "Eligible topic partition leaders are not available.";
    ElectionNotNeeded = 84, "ELECTION_NOT_NEEDED", R, "Leader election not needed for topic partition.";
    NoReassignmentInProgress = 85, "NO_REASSIGNMENT_IN_PROGRESS", 0, "No partition reassignment is in progress.";
    GroupSubscribedToTopic = 86, "GROUP_SUBSCRIBED_TO_TOPIC", 0, "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.";
    InvalidRecord = 87, "INVALID_RECORD", 0, "This record has failed the validation on broker and hence will be rejected.";
    UnstableOffsetCommit = 88, "UNSTABLE_OFFSET_COMMIT", R, "There are unstable offsets that need to be cleared.";
    ThrottlingQuotaExceeded = 89, "THROTTLING_QUOTA_EXCEEDED", R, "The throttling quota has been exceeded.";
    ProducerFenced = 90, "PRODUCER_FENCED", 0, "There is a newer producer with the same transactionalId which fences the current one.";
    ResourceNotFound = 91, "RESOURCE_NOT_FOUND", 0, "A request illegally referred to a resource that does not exist.";
    DuplicateResource = 92, "DUPLICATE_RESOURCE", 0, "A request illegally referred to the same resource twice.";
    UnacceptableCredential = 93, "UNACCEPTABLE_CREDENTIAL", 0, "Requested credential would not meet criteria for acceptability.";
    InconsistentVoterSet = 94, "INCONSISTENT_VOTER_SET", 0, "Indicates that the either the sender or recipient of a voter-only request is not one of the expected voters";
    InvalidUpdateVersion = 95, "INVALID_UPDATE_VERSION", 0, "The given update version was invalid.";
    FeatureUpdateFailed = 96, "FEATURE_UPDATE_FAILED", 0, "Unable to update finalized features due to an unexpected server error.";
    PrincipalDeserializationFailure = 97, "PRINCIPAL_DESERIALIZATION_FAILURE", 0, "Request principal deserialization failed during forwarding. This indicates an internal error on the broker cluster security setup.";
    SnapshotNotFound = 98, "SNAPSHOT_NOT_FOUND", 0, "Requested snapshot was not found";
    PositionOutOfRange = 99, "POSITION_OUT_OF_RANGE", 0, "Requested position is not greater than or equal to zero, and less than the size of the snapshot.";
    UnknownTopicId = 100, "UNKNOWN_TOPIC_ID", R | M, "This server does not host this topic ID.";
    DuplicateBrokerRegistration = 101, "DUPLICATE_BROKER_REGISTRATION", 0, "This broker ID is already in use.";
    BrokerIdNotRegistered = 102, "BROKER_ID_NOT_REGISTERED", 0, "The given broker ID was not registered.";
    InconsistentTopicId = 103, "INCONSISTENT_TOPIC_ID", R | M, "The log's topic ID did not match the topic ID in the request";
    InconsistentClusterId = 104, "INCONSISTENT_CLUSTER_ID", 0, "The clusterId in the request does not match that found on the server";
    TransactionalIdNotFound = 105, "TRANSACTIONAL_ID_NOT_FOUND", 0, "The transactionalId could not be found";
    FetchSessionTopicIdError = 106, "FETCH_SESSION_TOPIC_ID_ERROR", R | M, "The fetch session encountered inconsistent topic ID usage";
    IneligibleReplica = 107, "INELIGIBLE_REPLICA", 0, "The new ISR contains at least one ineligible replica.";
    NewLeaderElected = 108, "NEW_LEADER_ELECTED", 0, "The AlterPartition request successfully updated the partition state but the leader has changed.";
    OffsetMovedToTieredStorage = 109, "OFFSET_MOVED_TO_TIERED_STORAGE", 0, "The requested offset is moved to tiered storage.";
    FencedMemberEpoch = 110, "FENCED_MEMBER_EPOCH", 0, "The member epoch is fenced by the group coordinator. The member must abandon all its partitions and rejoin.";
    UnreleasedInstanceId = 111, "UNRELEASED_INSTANCE_ID", 0, "The instance ID is still used by another member in the consumer group. That member must leave first.";
    UnsupportedAssignor = 112, "UNSUPPORTED_ASSIGNOR", 0, "The assignor or its version range is not supported by the consumer group.";
    StaleMemberEpoch = 113, "STALE_MEMBER_EPOCH", 0, "The member epoch is stale. The member must retry after receiving its updated member epoch via the ConsumerGroupHeartbeat API.";
    MismatchedEndpointType = 114, "MISMATCHED_ENDPOINT_TYPE", 0, "The request was sent to an endpoint of the wrong type.";
    UnsupportedEndpointType = 115, "UNSUPPORTED_ENDPOINT_TYPE", 0, "This endpoint type is not supported yet.";
    UnknownControllerId = 116, "UNKNOWN_CONTROLLER_ID", M, "This controller ID is not known.";
    UnknownSubscriptionId = 117, "UNKNOWN_SUBSCRIPTION_ID", 0, "Client sent a push telemetry request with an invalid or outdated subscription ID.";
    TelemetryTooLarge = 118, "TELEMETRY_TOO_LARGE", 0, "Client sent a push telemetry request larger than the maximum size the broker will accept.";
    InvalidRegistration = 119, "INVALID_REGISTRATION", 0, "The controller has considered the broker registration to be invalid.";
    TransactionAbortable = 120, "TRANSACTION_ABORTABLE", 0, "The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID.";
    InvalidRecordState = 121, "INVALID_RECORD_STATE", 0, "The record state is invalid. The acknowledgement of delivery could not be completed.";
    ShareSessionNotFound = 122, "SHARE_SESSION_NOT_FOUND", R, "The share session was not found.";
    InvalidShareSessionEpoch = 123, "INVALID_SHARE_SESSION_EPOCH", R, "The share session epoch is invalid.";
    FencedStateEpoch = 124, "FENCED_STATE_EPOCH", 0, "The share coordinator rejected the request because the share-group state epoch did not match.";
    InvalidVoterKey = 125, "INVALID_VOTER_KEY", 0, "The voter key doesn't match the receiving replica's key.";
    DuplicateVoter = 126, "DUPLICATE_VOTER", 0, "The voter is already part of the set of voters.";
    VoterNotFound = 127, "VOTER_NOT_FOUND", 0, "The voter is not part of the set of voters.";
    InvalidRegularExpression = 128, "INVALID_REGULAR_EXPRESSION", 0, "The regular expression is not valid.";
    RebootstrapRequired = 129, "REBOOTSTRAP_REQUIRED", M, "Client metadata is stale, client should rebootstrap to obtain new metadata.";
    StreamsInvalidTopology = 130, "STREAMS_INVALID_TOPOLOGY", 0, "The supplied topology is invalid.";
    StreamsInvalidTopologyEpoch = 131, "STREAMS_INVALID_TOPOLOGY_EPOCH", 0, "The supplied topology epoch is invalid.";
    StreamsTopologyFenced = 132, "STREAMS_TOPOLOGY_FENCED", 0, "The supplied topology epoch is outdated.";
    ShareSessionLimitReached = 133, "SHARE_SESSION_LIMIT_REACHED", R, "The limit of share sessions has been reached.";
}

impl ErrorCode {
    /// Whether the same request may succeed if sent again (Kafka's
    /// `RetriableException`).
    pub fn retriable(self) -> bool {
        self.flags() & R != 0
    }

    /// Whether the code means the client's view of leaders or topics is
    /// stale and metadata should be refreshed before retrying.
    pub fn needs_metadata_refresh(self) -> bool {
        self.flags() & M != 0
    }

    /// Whether the code means the group or transaction coordinator should be
    /// looked up again.
    pub fn needs_coordinator_refresh(self) -> bool {
        self.flags() & C != 0
    }
}

/// The name in lower case with spaces, as a status line shows it:
/// `not leader or follower`.
impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorCode::Unknown(code) => write!(f, "unknown error code {code}"),
            known => {
                for (i, word) in known.name().split('_').enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    f.write_str(&word.to_ascii_lowercase())?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_success_and_every_known_code_round_trips() {
        assert_eq!(ErrorCode::from_code(0), None);
        for &code in ALL_ERROR_CODES {
            assert_eq!(ErrorCode::from_code(code.code()), Some(code));
        }
        assert_eq!(ALL_ERROR_CODES.len(), 134);
        assert_eq!(
            ErrorCode::from_code(133),
            Some(ErrorCode::ShareSessionLimitReached)
        );
    }

    #[test]
    fn unknown_codes_keep_their_value() {
        let code = ErrorCode::from_code(999);
        assert_eq!(code, Some(ErrorCode::Unknown(999)));
        assert_eq!(code.map(ErrorCode::code), Some(999));
        assert!(!ErrorCode::Unknown(999).retriable());
    }

    #[test]
    fn names_messages_and_display() {
        let code = ErrorCode::NotLeaderOrFollower;
        assert_eq!(code.code(), 6);
        assert_eq!(code.name(), "NOT_LEADER_OR_FOLLOWER");
        assert_eq!(code.to_string(), "not leader or follower");
        assert!(code.message().contains("not the current leader"));
    }

    #[test]
    fn classification() {
        for code in [
            ErrorCode::NotLeaderOrFollower,
            ErrorCode::LeaderNotAvailable,
            ErrorCode::UnknownTopicOrPartition,
            ErrorCode::UnknownTopicId,
            ErrorCode::FencedLeaderEpoch,
            ErrorCode::KafkaStorageError,
        ] {
            assert!(code.needs_metadata_refresh(), "{code:?}");
            assert!(code.retriable(), "{code:?}");
            assert!(!code.needs_coordinator_refresh(), "{code:?}");
        }
        for code in [
            ErrorCode::NotCoordinator,
            ErrorCode::CoordinatorNotAvailable,
            ErrorCode::CoordinatorLoadInProgress,
        ] {
            assert!(code.needs_coordinator_refresh(), "{code:?}");
            assert!(code.retriable(), "{code:?}");
            assert!(!code.needs_metadata_refresh(), "{code:?}");
        }
        for code in [
            ErrorCode::SaslAuthenticationFailed,
            ErrorCode::TopicAuthorizationFailed,
            ErrorCode::InvalidRequest,
            ErrorCode::UnsupportedVersion,
        ] {
            assert!(!code.retriable(), "{code:?}");
        }
    }
}
