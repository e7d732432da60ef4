//! One observed change: when kscope saw it, its subject, and its kind.

use std::time::SystemTime;

use super::MovementKind;

/// One observed change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovementEvent {
    /// When kscope saw it (the refresh that brought it), not when it happened.
    pub time: SystemTime,
    /// The topic, for topic and partition events.
    pub topic: Option<String>,
    /// The partition, for partition events.
    pub partition: Option<i32>,
    /// What changed.
    pub kind: MovementKind,
}
