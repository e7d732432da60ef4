//! `kscope get config|acls|users|quotas|quorum|cluster` and `get topics|brokers
//! --sizes`: the read-only inspection commands, one file per command.

pub mod cluster;
mod config;
pub mod describe_topic;
mod quorum;
mod security;
mod sizes;
pub mod topic_clients;
mod transactions;

use std::io::Write;

use crate::meta::Cluster;

use super::args::{GetCommand, OutputFormat};
use super::error::Error;

/// Print what an inspection `get` asked for, once.
pub async fn run(
    cluster: &Cluster,
    what: &GetCommand,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    match what {
        GetCommand::Config { of } => config::run(cluster, of, format, out).await,
        GetCommand::Quorum => quorum::run(cluster, format, out).await,
        GetCommand::Cluster => cluster::run(cluster, format, out).await,
        GetCommand::Acls { topic } => security::acls(cluster, topic.as_deref(), format, out).await,
        GetCommand::Users => security::users(cluster, format, out).await,
        GetCommand::Quotas => security::quotas(cluster, format, out).await,
        GetCommand::Transactions => transactions::transactions(cluster, format, out).await,
        GetCommand::Producers { topic, partition } => {
            transactions::producers(cluster, topic, *partition, format, out).await
        }
        GetCommand::Brokers { .. } => sizes::brokers(cluster, format, out).await,
        GetCommand::Topics { topic, .. } => {
            sizes::topics(cluster, topic.as_deref(), format, out).await
        }
        other => Err(Error::Usage(format!(
            "{other:?} is not an inspection command"
        ))),
    }
}
