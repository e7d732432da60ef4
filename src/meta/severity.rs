//! What an event means for its reader: how bad it is ([`Severity`]), how
//! kscope learned it ([`Source`]), and which broker it is about.
//!
//! Derived from the kind, never stored per event: an event stays as small as
//! its kind, and every kind added later (group state, config changes) says
//! its severity and source in `movement_meaning`, in one match the compiler
//! keeps complete. This file is the vocabulary only, so that `movement` can
//! name it without importing what imports `movement`.

use serde::{Deserialize, Serialize};

/// How bad an event is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Normal operation: a leader moved, a replica caught up.
    #[default]
    Info,
    /// Redundancy or reachability is reduced: the ISR shrank, a broker left.
    Warn,
    /// Data is unavailable or the view is stale: a partition has no
    /// leader, a broker does not answer, the metadata is frozen.
    Critical,
}

impl Severity {
    /// `info`, `warn` or `critical`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Critical => "critical",
        }
    }
}

/// How kscope learned of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// kscope's own observation (a broker that did not answer it, a quorum
    /// whose high watermark stood still, events it folded).
    Observed,
    /// The cluster's claim, read from its metadata or quorum answers.
    Reported,
}

impl Source {
    /// `observed` or `reported`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Observed => "observed",
            Source::Reported => "reported",
        }
    }
}

/// Every kind name, in the order `--kinds` lists them.
pub const KIND_NAMES: &[&str] = &[
    "leader_changed",
    "partition_offline",
    "partition_online",
    "isr_shrank",
    "isr_expanded",
    "replicas_changed",
    "partitions_added",
    "topic_created",
    "topic_deleted",
    "broker_joined",
    "broker_left",
    "broker_not_answering",
    "broker_answering",
    "broker_fenced",
    "broker_unfenced",
    "controller_changed",
    "quorum_leader_changed",
    "metadata_frozen",
    "metadata_live",
    "group_state_changed",
    "group_members_changed",
    "group_records_lost",
    "group_stuck",
    "group_moving",
    "group_lag_trend_changed",
    "group_reconciling",
    "group_reconciled",
    "under_min_isr",
    "min_isr_restored",
    "topic_config_changed",
    "broker_config_changed",
    "events_suppressed",
];

/// Read a kind name back as the `'static` name [`KIND_NAMES`] holds (for
/// `events_suppressed` read from a recording); an unknown name is an error.
pub(super) fn kind_name<'de, D>(deserializer: D) -> Result<&'static str, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let name = String::deserialize(deserializer)?;
    KIND_NAMES
        .iter()
        .find(|known| **known == name)
        .copied()
        .ok_or_else(|| serde::de::Error::custom(format!("unknown event kind '{name}'")))
}
