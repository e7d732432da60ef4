//! What a movement event means for its reader: its [`Severity`] and
//! [`Source`], and the broker or group it is about. One match per question
//! over every kind, which the compiler keeps complete; the vocabulary is in
//! `severity`.

use super::movement::{MovementEvent, MovementKind};
use super::severity::{Severity, Source};

impl MovementKind {
    /// How bad this is.
    pub fn severity(&self) -> Severity {
        use MovementKind as K;
        match self {
            K::PartitionOffline { .. }
            | K::BrokerNotAnswering { .. }
            | K::MetadataFrozen { .. }
            | K::GroupRecordsLost { .. }
            | K::UnderMinIsr { .. } => Severity::Critical,
            K::GroupStateChanged { to, .. } if matches!(to.as_str(), "Empty" | "Dead") => {
                Severity::Warn
            }
            // Lag that starts growing (or grows four times as fast) warns;
            // the end of growth informs.
            K::GroupLagTrendChanged { to, .. } if to == "growing" => Severity::Warn,
            K::IsrShrank { .. }
            | K::BrokerLeft { .. }
            | K::BrokerFenced { .. }
            | K::TopicDeleted
            | K::GroupStuck { .. } => Severity::Warn,
            K::EventsSuppressed { severity, .. } => *severity,
            K::TopicConfigChanged { .. }
            | K::BrokerConfigChanged { .. }
            | K::GroupStateChanged { .. }
            | K::GroupMembersChanged { .. }
            | K::GroupMoving { .. }
            | K::GroupLagTrendChanged { .. }
            | K::GroupReconciling { .. }
            | K::GroupReconciled { .. }
            | K::MinIsrRestored { .. }
            | K::LeaderChanged { .. }
            | K::PartitionOnline { .. }
            | K::IsrExpanded { .. }
            | K::ReplicasChanged { .. }
            | K::BrokerJoined { .. }
            | K::BrokerAnswering { .. }
            | K::BrokerUnfenced { .. }
            | K::ControllerChanged { .. }
            | K::QuorumLeaderChanged { .. }
            | K::MetadataLive { .. }
            | K::TopicCreated { .. }
            | K::PartitionsAdded { .. } => Severity::Info,
        }
    }

    /// How kscope learned it.
    pub fn source(&self) -> Source {
        use MovementKind as K;
        match self {
            K::BrokerNotAnswering { .. }
            | K::BrokerAnswering { .. }
            | K::MetadataFrozen { .. }
            | K::MetadataLive { .. }
            | K::GroupStuck { .. }
            | K::GroupMoving { .. }
            | K::GroupLagTrendChanged { .. }
            | K::EventsSuppressed { .. } => Source::Observed,
            _ => Source::Reported,
        }
    }

    /// The broker this is about, for broker events.
    pub fn broker(&self) -> Option<i32> {
        use MovementKind as K;
        match self {
            K::BrokerJoined { broker, .. }
            | K::BrokerLeft { broker }
            | K::BrokerNotAnswering { broker }
            | K::BrokerAnswering { broker }
            | K::BrokerFenced { broker }
            | K::BrokerUnfenced { broker } => Some(*broker),
            K::BrokerConfigChanged { broker, .. } => *broker,
            _ => None,
        }
    }

    /// Whether `watch leaders` and the Leaders screen show it: the kinds
    /// they always showed (leaders, ISR, replicas, brokers, controller,
    /// metadata liveness, topics), and the folds of those kinds.
    pub fn is_leader_movement(&self) -> bool {
        match self {
            MovementKind::PartitionsAdded { .. }
            | MovementKind::QuorumLeaderChanged { .. }
            | MovementKind::GroupStateChanged { .. }
            | MovementKind::GroupMembersChanged { .. }
            | MovementKind::GroupRecordsLost { .. }
            | MovementKind::GroupStuck { .. }
            | MovementKind::GroupMoving { .. }
            | MovementKind::GroupLagTrendChanged { .. }
            | MovementKind::GroupReconciling { .. }
            | MovementKind::GroupReconciled { .. }
            | MovementKind::UnderMinIsr { .. }
            | MovementKind::MinIsrRestored { .. }
            | MovementKind::TopicConfigChanged { .. }
            | MovementKind::BrokerConfigChanged { .. }
            | MovementKind::BrokerFenced { .. }
            | MovementKind::BrokerUnfenced { .. } => false,
            MovementKind::EventsSuppressed { suppressed, .. } => !matches!(
                *suppressed,
                "partitions_added"
                    | "quorum_leader_changed"
                    | "group_state_changed"
                    | "group_members_changed"
                    | "group_records_lost"
                    | "group_stuck"
                    | "group_moving"
                    | "group_lag_trend_changed"
                    | "group_reconciling"
                    | "group_reconciled"
                    | "under_min_isr"
                    | "min_isr_restored"
                    | "topic_config_changed"
                    | "broker_config_changed"
                    | "broker_fenced"
                    | "broker_unfenced"
            ),
            _ => true,
        }
    }
}

impl MovementEvent {
    /// The broker this is about, for broker events.
    pub fn broker(&self) -> Option<i32> {
        self.kind.broker()
    }

    /// The consumer group this is about, for group events.
    pub fn group(&self) -> Option<&str> {
        match &self.kind {
            MovementKind::GroupStateChanged { group, .. }
            | MovementKind::GroupMembersChanged { group, .. }
            | MovementKind::GroupRecordsLost { group, .. }
            | MovementKind::GroupStuck { group, .. }
            | MovementKind::GroupMoving { group, .. }
            | MovementKind::GroupLagTrendChanged { group, .. }
            | MovementKind::GroupReconciling { group, .. }
            | MovementKind::GroupReconciled { group, .. } => Some(group),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::severity::KIND_NAMES;

    #[test]
    fn every_kind_name_is_listed_once() {
        let mut names = KIND_NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KIND_NAMES.len());
        let sample = [
            MovementKind::TopicDeleted,
            MovementKind::PartitionsAdded { from: 1, to: 2 },
            MovementKind::QuorumLeaderChanged {
                from: None,
                to: 1,
                epoch: 1,
            },
        ];
        assert!(sample.iter().all(|k| KIND_NAMES.contains(&k.name())));
    }

    #[test]
    fn offline_is_critical_a_shrink_warns_a_move_informs() {
        let offline = MovementKind::PartitionOffline { from: 1, epoch: 2 };
        let shrank = MovementKind::IsrShrank {
            isr: vec![1],
            removed: vec![2],
        };
        let moved = MovementKind::LeaderChanged {
            from: 1,
            to: 2,
            epoch: 3,
        };
        assert_eq!(offline.severity(), Severity::Critical);
        assert_eq!(shrank.severity(), Severity::Warn);
        assert_eq!(moved.severity(), Severity::Info);
        assert_eq!(moved.source(), Source::Reported);
        let silent = MovementKind::BrokerNotAnswering { broker: 3 };
        assert_eq!(
            (silent.severity(), silent.source(), silent.broker()),
            (Severity::Critical, Source::Observed, Some(3))
        );
    }
}
