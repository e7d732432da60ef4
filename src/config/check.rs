//! Connecting with a resolved context: the first step of every session, and
//! `kscope config check`, which proves a context works before the UI exists.

use kafka_protocol::messages::MetadataRequest;

use super::error::ConfigError;
use super::resolve::ResolvedContext;
use crate::conn::{Connection, Error};

/// What a successful check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterSummary {
    /// The bootstrap address that answered.
    pub address: String,
    /// How many brokers the cluster reports.
    pub brokers: usize,
    /// The cluster id, when the broker reports one.
    pub cluster_id: Option<String>,
}

/// Connect to the first bootstrap server that answers.
///
/// An authentication failure stops at once: every broker would refuse the same
/// credentials, and retrying them only risks locking the account.
pub async fn connect(context: &ResolvedContext) -> Result<(Connection, String), ConfigError> {
    let mut last: Option<Error> = None;
    for address in &context.bootstrap_servers {
        tracing::debug!(context = %context.name, %address, security = %context.security(), "connecting");
        match Connection::connect(address, None, &context.connection).await {
            Ok(connection) => return Ok((connection, address.clone())),
            Err(error) => {
                tracing::warn!(context = %context.name, %address, %error, "connect failed");
                let auth = error.is_authentication();
                last = Some(error);
                if auth {
                    break;
                }
            }
        }
    }
    let source = last.unwrap_or_else(|| Error::InvalidRequest("no bootstrap servers".to_owned()));
    Err(ConfigError::Connect {
        context: context.name.clone(),
        security: context.security(),
        source: Box::new(source),
    })
}

/// Connect and ask for the broker list (no topics: cheap on any cluster size).
pub async fn check(context: &ResolvedContext) -> Result<ClusterSummary, ConfigError> {
    let (connection, address) = connect(context).await?;
    let request = MetadataRequest::default()
        .with_allow_auto_topic_creation(false)
        .with_topics(Some(Vec::new()));
    let response = connection
        .send(request)
        .await
        .map_err(|source| ConfigError::Connect {
            context: context.name.clone(),
            security: context.security(),
            source: Box::new(source),
        })?;
    let summary = ClusterSummary {
        address,
        brokers: response.brokers.len(),
        cluster_id: response.cluster_id.map(|id| id.to_string()),
    };
    tracing::info!(context = %context.name, address = %summary.address, brokers = summary.brokers, "context checked");
    Ok(summary)
}
