//! The metadata layer: lock-free cluster snapshots, routing, retries, leader
//! movement, and the dispatcher everything above sends requests through.
//!
//! - [`Cluster`] routes and retries requests ([`routing`], [`RetryPolicy`]) and
//!   is built from owned parts, each keeping its invariants in its own file:
//!   the snapshot cell (`snapshot_cell`: the current [`MetadataSnapshot`]
//!   behind an `ArcSwap`, installs, generations, single flight), the
//!   coordinator cache, the refresher (`refresher`: when background rounds
//!   run), liveness, and the [`MovementLog`]. `refresh` says what a refresh
//!   does: fetch, guard leader epochs against going backwards, diff
//!   consecutive snapshots into the movement log.
//! - Connections come from the [`BrokerPool`].
//!
//! Nothing here imports a terminal crate.

mod cluster;
mod coordinator;
pub mod coordinator_cache;
mod epochs;
mod error;
mod event_limits;
mod fencing;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod liveness;
mod liveness_check;
pub mod liveness_probe;
pub mod metadata_answer;
mod metadata_request;
pub mod min_isr;
pub mod movement;
pub mod movement_log;
mod movement_meaning;
pub mod offsets;
mod pacing;
pub mod pool;
mod quorum;
mod quorum_ask;
mod race;
mod records;
mod refresh;
mod refresher;
pub mod retry;
pub mod routing;
pub mod severity;
pub mod snapshot;
mod snapshot_cell;
mod topic_id;
mod watermarks;

pub use cluster::{Cluster, ClusterConfig};
pub use error::{Disposition, Error, Result};
pub use event_limits::{EventGate, RateLimiter};
pub use liveness::{Frozen, Health};
pub use liveness_probe::{LivenessProbe, PROBE_GRACE, ProbeReport};
pub use metadata_answer::MetadataAnswer;
pub use metadata_request::MetadataAsk;
pub use movement::{MemberChange, MovementEvent, MovementKind, diff};
pub use movement_log::{Limits, MovementLog};
pub use offsets::{TopicPartition, Watermarks};
pub use pool::BrokerPool;
pub use quorum::{QUORUM_DEADLINE, quorum_request};
pub use refresher::RefresherProbe;
pub use retry::{Budget, RetryPolicy, drive, drive_pending};
pub use routing::{BrokerSelector, CoordinatorKind, Routing, routing};
pub use severity::{KIND_NAMES, Severity, Source};
pub use snapshot::{
    BrokerInfo, MetadataSnapshot, NodeIds, PartitionInfo, TopicId, TopicInfo, TopicStats,
};
pub use snapshot_cell::Degraded;
