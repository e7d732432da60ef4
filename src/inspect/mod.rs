//! Read-only inspection of the cluster beyond its metadata: configs
//! (`DescribeConfigs`; swept for config-change events), disk usage (`DescribeLogDirs`), ACLs, client quotas,
//! SCRAM users and the `KRaft` quorum.
//!
//! Every request here only reads (all are on the read-only guard's
//! allow-list), is batched per broker, and is bounded by a deadline so a
//! hung broker costs its own answer, never a stall. The request defaults of
//! kafka-protocol ask for *nothing* (an empty list) where kscope means
//! *everything* (null); each request builder here says which it sends.
//!
//! No terminal crate is imported here.

pub mod clients;
pub mod cluster_info;
pub mod config_changes;
pub mod config_overrides;
pub mod config_source;
pub mod config_sweep;
pub mod configs;
pub mod elr;
mod error;
pub mod log_dirs;
pub mod quorum;
pub mod quotas;
pub mod security;
pub mod sizes;
pub mod tiered;
pub mod transactions;

pub use cluster_info::{ClusterInfo, Feature, Reassignment};
pub use config_changes::ConfigWatch;
pub use config_source::{ConfigResource, ConfigSource, ConfigType};
pub use config_sweep::Sweep;
pub use configs::{ConfigEntry, Described, Synonym, TopicSummary};
pub use error::{Error, Result};
pub use log_dirs::{BrokerLogDirs, LogDir, ReplicaSize, TopicReplicas};
pub use quotas::Quota;
pub use security::{Acl, Acls, Credential, ScramUser};
pub use sizes::{BrokerDisk, BrokerReplica, ClusterSizes, TopicSize};
