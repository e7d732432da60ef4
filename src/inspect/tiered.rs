//! Tiered storage (KIP-405): a topic with `remote.storage.enable=true`
//! keeps its older segments in remote storage, and its leader's own disk
//! holds only the records from the *local log start offset* on. Between
//! the log start and the local log start, a read is served from remote
//! storage (slower, and gone if the remote store is). `ListOffsets` with
//! timestamp -4 answers it, from v8 (Kafka 3.7).

use std::collections::BTreeMap;

use crate::conn::protocol::messages::ListOffsetsRequest;
use crate::meta::{Cluster, TopicPartition};

use super::config_source::ConfigResource;
use super::configs::{self, TopicSummary};
use super::error::{Error, Result};

/// The first `ListOffsets` version that knows the local log start.
const LOCAL_START_VERSION: i16 = 8;

/// The local log start offset of each of `topic`'s `partitions` that has a
/// leader; [`Error::Unsupported`] on brokers before Kafka 3.7.
pub async fn local_log_starts(
    cluster: &Cluster,
    topic: &str,
    partitions: &[i32],
) -> Result<BTreeMap<i32, i64>> {
    let what = || format!("the local log start of topic '{topic}'");
    let version = cluster
        .negotiated_for::<ListOffsetsRequest>()
        .await
        .map_err(|e| Error::request(what(), e))?;
    if version < LOCAL_START_VERSION {
        return Err(Error::Unsupported {
            what: what(),
            needs: "Kafka 3.7 or newer (ListOffsets v8)",
        });
    }
    let partitions: Vec<TopicPartition> = partitions
        .iter()
        .map(|&p| TopicPartition::new(topic, p))
        .collect();
    let starts = cluster
        .local_log_starts(&partitions)
        .await
        .map_err(|e| Error::request(what(), e))?;
    Ok(starts
        .into_iter()
        .map(|(tp, offset)| (tp.partition, offset))
        .collect())
}

/// [`local_log_starts`] when `topic`'s configs say it is tiered; `None`
/// when it is not (one `DescribeConfigs` decides).
pub async fn local_log_starts_if_tiered(
    cluster: &Cluster,
    topic: &str,
    partitions: &[i32],
) -> Result<Option<BTreeMap<i32, i64>>> {
    let resource = ConfigResource::Topic(topic.to_owned());
    let described = configs::describe(cluster, std::slice::from_ref(&resource)).await?;
    let Some((_, entries)) = described.into_iter().next() else {
        return Ok(None);
    };
    if !TopicSummary::of(&entries?).remote_storage {
        return Ok(None);
    }
    local_log_starts(cluster, topic, partitions).await.map(Some)
}
