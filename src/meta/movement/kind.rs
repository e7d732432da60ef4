//! The kinds of change, with their own fields, and their names.

use serde::{Deserialize, Serialize};

/// What changed. Serialized with a `kind` tag in `snake_case`, for the CLI
/// and for recordings (`crate::recording`), which read it back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MovementKind {
    /// Leadership moved between two brokers.
    LeaderChanged {
        /// The previous leader.
        from: i32,
        /// The new leader.
        to: i32,
        /// The new leader epoch.
        epoch: i32,
    },
    /// The partition lost its leader.
    PartitionOffline {
        /// The last leader.
        from: i32,
        /// The new leader epoch.
        epoch: i32,
    },
    /// The partition has a leader again.
    PartitionOnline {
        /// The new leader.
        to: i32,
        /// The new leader epoch.
        epoch: i32,
    },
    /// Replicas left the in-sync set.
    IsrShrank {
        /// The new in-sync set.
        isr: Vec<i32>,
        /// Who left it.
        removed: Vec<i32>,
    },
    /// Replicas (re)joined the in-sync set.
    IsrExpanded {
        /// The new in-sync set.
        isr: Vec<i32>,
        /// Who joined it.
        added: Vec<i32>,
    },
    /// The replica set or its order (the preferred leader) changed.
    ReplicasChanged {
        /// The previous replicas.
        from: Vec<i32>,
        /// The new replicas.
        to: Vec<i32>,
    },
    /// A broker appeared in the metadata.
    BrokerJoined {
        /// Its node id.
        broker: i32,
        /// Its advertised `host:port`.
        address: String,
    },
    /// A broker disappeared from the metadata.
    BrokerLeft {
        /// Its node id.
        broker: i32,
    },
    /// The metadata names another controller.
    ControllerChanged {
        /// The previous controller.
        from: Option<i32>,
        /// The new controller.
        to: Option<i32>,
    },
    /// kscope's liveness check got no answer from a broker (hung or
    /// unreachable), whatever the metadata says of it.
    BrokerNotAnswering {
        /// Its node id.
        broker: i32,
    },
    /// A broker that was not answering answers again.
    BrokerAnswering {
        /// Its node id.
        broker: i32,
    },
    /// The controller fenced a broker (its heartbeats stopped for
    /// `broker.session.timeout.ms`, or it shut down): registered, serving
    /// nothing. From `DescribeCluster` v2 (Kafka 3.9+), which the liveness
    /// check asks; older brokers are not asked, and nothing is guessed.
    BrokerFenced {
        /// Its node id.
        broker: i32,
    },
    /// The controller unfenced a broker (restarted and caught up).
    BrokerUnfenced {
        /// Its node id.
        broker: i32,
    },
    /// The cluster's metadata stopped changing: the `KRaft` quorum has no
    /// leader, does not answer, or commits nothing. What is shown is what
    /// it was when this happened.
    MetadataFrozen {
        /// Why kscope thinks so.
        reason: String,
    },
    /// The quorum commits again.
    MetadataLive {
        /// The quorum's leader (the active controller).
        leader: i32,
    },
    /// A topic appeared (or was recreated with a new id).
    TopicCreated {
        /// Its partition count.
        partitions: usize,
    },
    /// A topic disappeared (or was recreated with a new id).
    TopicDeleted,
    /// A topic's partition count grew (`kafka-topics --alter --partitions`):
    /// one event per topic, however many partitions were added.
    PartitionsAdded {
        /// The partition count before.
        from: usize,
        /// The partition count now.
        to: usize,
    },
    /// The `KRaft` quorum elected a leader (the active controller): another
    /// node, or the same one in a new epoch. From `DescribeQuorum`, which
    /// the liveness check asks every few seconds.
    QuorumLeaderChanged {
        /// The previous leader, when one was known.
        from: Option<i32>,
        /// The new leader.
        to: i32,
        /// The new leader epoch.
        epoch: i32,
    },
    /// A consumer group's state changed (`Stable` → `PreparingRebalance`,
    /// `Empty`, `Dead`, …), seen between two reads of the group list.
    GroupStateChanged {
        group: String,
        /// The state before.
        from: String,
        /// The state now.
        to: String,
    },
    /// A consumer group's member count changed (members joined or left: a
    /// rebalance), seen between two reads of the group list.
    GroupMembersChanged {
        group: String,
        /// Members before.
        from: usize,
        /// Members now.
        to: usize,
    },
    /// Retention deleted records a group had not read: its committed offset
    /// on the event's partition is below the partition's log start.
    GroupRecordsLost {
        group: String,
        /// Its committed offset.
        committed: i64,
        /// The log start offset now (records below it are gone).
        start: i64,
    },
    /// A group's partition is STUCK (kscope's judgement over its reads of
    /// the group list): its committed offset stood still over the last
    /// reads while the end offset moved, lag is left, and the group has
    /// members.
    GroupStuck {
        group: String,
        /// The committed offset it stands at.
        committed: i64,
        /// The partition's end offset now.
        end: i64,
    },
    /// A STUCK partition's committed offset moves again (or it has no lag
    /// or no member left to wait for).
    GroupMoving {
        group: String,
        /// Its committed offset now.
        committed: i64,
    },
    /// A group's lag on the event's topic changed direction sharply, or
    /// grew four times as fast (kscope's judgement over its reads of the
    /// group: see `crate::groups::lag_trend` for the rule and its floor).
    GroupLagTrendChanged {
        group: String,
        /// The trend before: `growing`, `shrinking` or `steady`.
        from: String,
        /// The trend now: `growing`, `shrinking` or `steady`.
        to: String,
        /// The lag's change per second before (records; negative:
        /// draining): over the reads before, when growth starts; the growth
        /// last said, when it speeds up or ends.
        rate_before: i64,
        /// The lag's change per second now.
        rate_after: i64,
        /// The group's lag on the topic now (records).
        lag: i64,
    },
    /// KIP-848 (a `consumer` or `streams` group): members' assignments
    /// differ from their targets — the coordinator moved partitions and the
    /// members have not all converged. Said when the group is first seen so.
    GroupReconciling {
        group: String,
        /// The group epoch (bumped on every membership change).
        group_epoch: Option<i32>,
        /// The target assignment's epoch.
        assignment_epoch: Option<i32>,
        /// The members reconciling: `assignment` what each owns,
        /// `target_assignment` its target.
        members: Vec<super::MemberChange>,
    },
    /// Every member of a reconciling group owns its target again.
    GroupReconciled {
        group: String,
        /// The members that were reconciling: `assignment` what each owned
        /// when it was first seen reconciling, `target_assignment` the
        /// target it reached.
        members: Vec<super::MemberChange>,
    },
    /// A partition's ISR fell below its topic's `min.insync.replicas`:
    /// `acks=all` writes to it fail (`NOT_ENOUGH_REPLICAS`).
    UnderMinIsr {
        /// The in-sync set now.
        isr: Vec<i32>,
        /// The topic's `min.insync.replicas`.
        min_isr: usize,
    },
    /// A partition's ISR is back at its topic's `min.insync.replicas`.
    MinIsrRestored {
        /// The in-sync set now.
        isr: Vec<i32>,
        /// The topic's `min.insync.replicas`.
        min_isr: usize,
    },
    /// A config set on the event's topic changed, seen between two reads
    /// of the topics' configs (`DescribeConfigs`): set, changed or
    /// removed. Only topic-level configs (not Kafka's or the broker's
    /// defaults); a secret's values are masked.
    TopicConfigChanged {
        /// The config's name, e.g. `retention.ms`.
        config: String,
        /// Its value before; `None` when it was not set on the topic.
        from: Option<String>,
        /// Its value now; `None` when it was removed from the topic.
        to: Option<String>,
        /// Whether the values are a secret's, masked (Kafka's
        /// `IsSensitive`, or a name such as `*.password`).
        sensitive: bool,
    },
    /// A dynamic broker config changed (`kafka-configs --entity-type
    /// brokers --alter`), of one broker or of the cluster-wide defaults,
    /// seen between two reads of the brokers' configs.
    BrokerConfigChanged {
        /// The broker; `None` for the cluster-wide defaults.
        broker: Option<i32>,
        /// The config's name.
        config: String,
        /// Its dynamic value before; `None` when it was not set.
        from: Option<String>,
        /// Its dynamic value now; `None` when it was removed.
        to: Option<String>,
        /// Whether the values are a secret's, masked.
        sensitive: bool,
    },
    /// More events of one kind came within its rate-limit window than the
    /// log keeps: they are folded into this one record, never dropped
    /// unseen (see [`crate::meta::movement_log::Limits`]).
    EventsSuppressed {
        /// The kind folded, e.g. `isr_shrank`.
        #[serde(deserialize_with = "crate::meta::severity::kind_name")]
        suppressed: &'static str,
        /// How many events of that kind this record stands for.
        count: u64,
        /// The severity of the kind folded.
        #[serde(skip)]
        severity: crate::meta::severity::Severity,
    },
}

impl MovementKind {
    /// The tag used in JSON, e.g. `leader_changed`.
    pub fn name(&self) -> &'static str {
        match self {
            MovementKind::LeaderChanged { .. } => "leader_changed",
            MovementKind::PartitionOffline { .. } => "partition_offline",
            MovementKind::PartitionOnline { .. } => "partition_online",
            MovementKind::IsrShrank { .. } => "isr_shrank",
            MovementKind::IsrExpanded { .. } => "isr_expanded",
            MovementKind::ReplicasChanged { .. } => "replicas_changed",
            MovementKind::BrokerJoined { .. } => "broker_joined",
            MovementKind::BrokerLeft { .. } => "broker_left",
            MovementKind::ControllerChanged { .. } => "controller_changed",
            MovementKind::BrokerNotAnswering { .. } => "broker_not_answering",
            MovementKind::BrokerAnswering { .. } => "broker_answering",
            MovementKind::BrokerFenced { .. } => "broker_fenced",
            MovementKind::BrokerUnfenced { .. } => "broker_unfenced",
            MovementKind::MetadataFrozen { .. } => "metadata_frozen",
            MovementKind::MetadataLive { .. } => "metadata_live",
            MovementKind::TopicCreated { .. } => "topic_created",
            MovementKind::TopicDeleted => "topic_deleted",
            MovementKind::PartitionsAdded { .. } => "partitions_added",
            MovementKind::QuorumLeaderChanged { .. } => "quorum_leader_changed",
            MovementKind::EventsSuppressed { .. } => "events_suppressed",
            MovementKind::GroupStateChanged { .. } => "group_state_changed",
            MovementKind::GroupMembersChanged { .. } => "group_members_changed",
            MovementKind::GroupRecordsLost { .. } => "group_records_lost",
            MovementKind::GroupStuck { .. } => "group_stuck",
            MovementKind::GroupMoving { .. } => "group_moving",
            MovementKind::GroupLagTrendChanged { .. } => "group_lag_trend_changed",
            MovementKind::GroupReconciling { .. } => "group_reconciling",
            MovementKind::GroupReconciled { .. } => "group_reconciled",
            MovementKind::UnderMinIsr { .. } => "under_min_isr",
            MovementKind::MinIsrRestored { .. } => "min_isr_restored",
            MovementKind::TopicConfigChanged { .. } => "topic_config_changed",
            MovementKind::BrokerConfigChanged { .. } => "broker_config_changed",
        }
    }
}
