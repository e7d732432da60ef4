//! Who touches a topic: the producers writing it now ([`writers`]), the
//! groups reading it ([`crate::groups::GroupsClient::readers_of`]) and the
//! principals the authorizer lets write and read it ([`principals`]), read
//! at once and each stamped with when it was read. A section that fails
//! carries why in words; the others stand.
//!
//! Kafka keeps no list of a topic's clients: this is assembled from what
//! brokers know now. A producer shows while the partition leader keeps its
//! state (`transactional.id.expiration.ms`/`producer.id.expiration.ms`), a
//! group while it has members or committed offsets.
//!
//! Layering: this is the one place the inspect layer reads through the
//! groups layer (for the readers section); the groups layer does not import
//! the inspect layer, so there is no cycle.

pub mod principals;
pub mod writers;

use std::time::{SystemTime, UNIX_EPOCH};

use crate::conn::ErrorCode;
use crate::groups::{GroupsClient, TopicReaders};
use crate::meta::Cluster;

pub use principals::{TopicPrincipals, principals};
pub use writers::{FailedPartition, ProducerPartition, TopicProducer, TopicWriters, writers};

use super::error::{Error, Result};

/// One section's answer and when it arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section<T> {
    /// When the answer arrived (ms since the epoch).
    pub read_at_ms: i64,
    /// The answer, or why there is none, in words.
    pub answer: std::result::Result<T, String>,
}

impl<T> Section<T> {
    /// Stamp `answer` with the time now.
    pub fn now<E: std::fmt::Display>(answer: std::result::Result<T, E>) -> Section<T> {
        Section {
            read_at_ms: now_ms(),
            answer: answer.map_err(|e| e.to_string()),
        }
    }
}

/// Who writes, reads and may touch a topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicClients {
    pub topic: String,
    /// Its partition count when asked.
    pub partitions: usize,
    /// The producers with state on its partitions.
    pub writers: Section<TopicWriters>,
    /// The groups committed to it or assigned it, with their members.
    pub readers: Section<TopicReaders>,
    /// The ACLs that apply to it for WRITE, READ, DESCRIBE and ALL.
    pub principals: Section<TopicPrincipals>,
}

/// The time now in ms since the epoch (0 before 1970).
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Who touches `topic`: its metadata refreshed (never creating it), then
/// the three sections read concurrently. Fails only when the topic does not
/// exist (`UNKNOWN_TOPIC_OR_PARTITION`) or its metadata cannot be read.
pub async fn topic_clients(cluster: &Cluster, topic: &str) -> Result<TopicClients> {
    let snapshot = cluster
        .refresh_topics(&[topic])
        .await
        .map_err(|e| Error::request(format!("metadata of topic '{topic}'"), e))?;
    let Some(info) = snapshot.topic(topic) else {
        return Err(Error::Answer {
            what: format!("topic '{topic}'"),
            code: ErrorCode::UnknownTopicOrPartition,
            message: None,
        });
    };
    let partitions = info.partitions.len();
    let groups = GroupsClient::new(cluster.clone());
    let (writers, readers, principals) = tokio::join!(
        async { Section::now(Ok::<_, Error>(writers(cluster, &snapshot, topic).await)) },
        async { Section::now(groups.readers_of(topic).await) },
        async { Section::now(principals(cluster, topic).await) },
    );
    Ok(TopicClients {
        topic: topic.to_owned(),
        partitions,
        writers,
        readers,
        principals,
    })
}
