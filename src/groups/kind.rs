//! A group's type (which protocol it speaks) and state, as the broker names them.

use std::fmt;

/// Which group protocol a group uses.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupType {
    /// The classic JoinGroup/SyncGroup protocol (consumers before KIP-848,
    /// Connect, Schema Registry, …).
    Classic,
    /// The KIP-848 `consumer` protocol (`group.protocol=consumer`).
    Consumer,
    /// A KIP-932 share group.
    Share,
    /// A KIP-1071 streams group.
    Streams,
    /// The broker did not say (`ListGroups` below v5), or said something new.
    Unknown(String),
}

impl GroupType {
    /// The type for the broker's `group_type` string (case-insensitive).
    pub fn parse(name: &str) -> GroupType {
        match name.to_ascii_lowercase().as_str() {
            "classic" => GroupType::Classic,
            "consumer" => GroupType::Consumer,
            "share" => GroupType::Share,
            "streams" => GroupType::Streams,
            _ => GroupType::Unknown(name.to_owned()),
        }
    }

    /// The lower-case name kscope shows (`classic`, `consumer`, …; `unknown`).
    pub fn as_str(&self) -> &str {
        match self {
            GroupType::Classic => "classic",
            GroupType::Consumer => "consumer",
            GroupType::Share => "share",
            GroupType::Streams => "streams",
            GroupType::Unknown(name) if !name.is_empty() => name,
            GroupType::Unknown(_) => "unknown",
        }
    }
}

impl fmt::Display for GroupType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A group's state: the classic states and the KIP-848 / KIP-1071 ones.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupState {
    /// Members and a settled assignment.
    Stable,
    /// Classic: a rebalance started, members are rejoining.
    PreparingRebalance,
    /// Classic: waiting for the leader's assignment.
    CompletingRebalance,
    /// KIP-848: the target assignment is being computed.
    Assigning,
    /// KIP-848: members are converging on the target assignment.
    Reconciling,
    /// Streams: the topology is not ready (missing internal topics).
    NotReady,
    /// No members; committed offsets may remain.
    Empty,
    /// No members and no metadata left: the group is gone or going.
    Dead,
    /// A state this build does not know; the broker's string is kept.
    Unknown(String),
}

impl GroupState {
    /// The state for the broker's string (case-insensitive, `_` ignored:
    /// `ListGroups` says `Stable`, some tools print `STABLE`).
    pub fn parse(name: &str) -> GroupState {
        let key: String = name
            .chars()
            .filter(|c| *c != '_')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match key.as_str() {
            "stable" => GroupState::Stable,
            "preparingrebalance" => GroupState::PreparingRebalance,
            "completingrebalance" => GroupState::CompletingRebalance,
            "assigning" => GroupState::Assigning,
            "reconciling" => GroupState::Reconciling,
            "notready" => GroupState::NotReady,
            "empty" => GroupState::Empty,
            "dead" => GroupState::Dead,
            _ => GroupState::Unknown(name.to_owned()),
        }
    }

    /// Kafka's name for the state (`Stable`, `PreparingRebalance`, …).
    pub fn as_str(&self) -> &str {
        match self {
            GroupState::Stable => "Stable",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Assigning => "Assigning",
            GroupState::Reconciling => "Reconciling",
            GroupState::NotReady => "NotReady",
            GroupState::Empty => "Empty",
            GroupState::Dead => "Dead",
            GroupState::Unknown(name) => name,
        }
    }

    /// Whether the group has no live members (`Empty` or `Dead`): the ones a
    /// list can hide.
    pub fn is_inactive(&self) -> bool {
        matches!(self, GroupState::Empty | GroupState::Dead)
    }
}

impl fmt::Display for GroupState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_parse_whatever_case_the_broker_uses() {
        assert_eq!(GroupType::parse("Classic"), GroupType::Classic);
        assert_eq!(GroupType::parse("consumer"), GroupType::Consumer);
        assert_eq!(GroupType::parse("share"), GroupType::Share);
        assert_eq!(GroupType::parse("Streams"), GroupType::Streams);
        assert_eq!(GroupType::parse("").as_str(), "unknown");
        assert_eq!(GroupType::parse("future").as_str(), "future");
    }

    #[test]
    fn kip_848_states_are_states_not_unknown() {
        for (text, state) in [
            ("Stable", GroupState::Stable),
            ("ASSIGNING", GroupState::Assigning),
            ("Reconciling", GroupState::Reconciling),
            ("PreparingRebalance", GroupState::PreparingRebalance),
            ("COMPLETING_REBALANCE", GroupState::CompletingRebalance),
            ("NotReady", GroupState::NotReady),
            ("Empty", GroupState::Empty),
            ("Dead", GroupState::Dead),
        ] {
            assert_eq!(GroupState::parse(text), state, "{text}");
        }
        assert_eq!(GroupState::parse("Odd").as_str(), "Odd");
        assert!(GroupState::Empty.is_inactive());
        assert!(!GroupState::Reconciling.is_inactive());
    }
}
