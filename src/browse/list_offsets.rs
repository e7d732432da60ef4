//! `ListOffsets` for one topic's partitions at a timestamp (-2 the log
//! start, -1 the end; the end is the LSO under `read_committed`), one request
//! per leader, leaders that moved re-asked after a topic-scoped refresh.

use std::collections::BTreeMap;

use tokio::task::JoinSet;

use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::list_offsets_request::{
    ListOffsetsPartition, ListOffsetsTopic,
};
use crate::conn::protocol::messages::{BrokerId, ListOffsetsRequest, TopicName};
use crate::meta::{self, Cluster};

use super::Isolation;
use super::error::{Error, Result};

/// The log start offset.
pub const EARLIEST: i64 = -2;
/// The end: high watermark, or LSO under `read_committed`.
pub const LATEST: i64 = -1;

fn request(
    topic: &str,
    partitions: &[(i32, i32)],
    timestamp: i64,
    isolation: Isolation,
) -> ListOffsetsRequest {
    let partitions = partitions
        .iter()
        .map(|(partition, epoch)| {
            ListOffsetsPartition::default()
                .with_partition_index(*partition)
                .with_current_leader_epoch(*epoch)
                .with_timestamp(timestamp)
        })
        .collect();
    ListOffsetsRequest::default()
        .with_replica_id(BrokerId(-1))
        .with_isolation_level(isolation.level())
        .with_topics(vec![
            ListOffsetsTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic.to_owned())))
                .with_partitions(partitions),
        ])
}

/// One partition's log start and end (the LSO under `read_committed`).
pub async fn watermarks(
    cluster: &Cluster,
    topic: &str,
    partition: i32,
    isolation: Isolation,
) -> Result<(i64, i64)> {
    let low = list(
        cluster,
        topic,
        &[partition],
        EARLIEST,
        Isolation::ReadUncommitted,
    )
    .await?;
    let end = list(cluster, topic, &[partition], LATEST, isolation).await?;
    Ok((
        low.get(&partition).copied().unwrap_or(0),
        end.get(&partition).copied().unwrap_or(0),
    ))
}

/// Each partition's offset at `timestamp` (-1 in the answer: no record at
/// or after it).
pub async fn list(
    cluster: &Cluster,
    topic: &str,
    partitions: &[i32],
    timestamp: i64,
    isolation: Isolation,
) -> Result<BTreeMap<i32, i64>> {
    let (found, outcome) = meta::drive_pending(
        &cluster.config().retry,
        meta::Disposition::RefreshMetadata,
        BTreeMap::new(),
        partitions.to_vec(),
        |mut found, pending, last| async move {
            let again = round(
                cluster, topic, &pending, timestamp, isolation, last, &mut found,
            )
            .await;
            (found, again)
        },
        |found, again| async move {
            if let Err(error) = cluster.refresh_topics(&[topic]).await {
                tracing::debug!(%error, topic, "refresh before re-asking list offsets failed");
            }
            (found, again)
        },
    )
    .await;
    outcome.map(|()| found)
}

/// One `ListOffsets` per leader, concurrently; answers into `found`.
/// Returns the partitions to ask again (leaderless, or a retriable error);
/// on the last round those fail.
async fn round(
    cluster: &Cluster,
    topic: &str,
    pending: &[i32],
    timestamp: i64,
    isolation: Isolation,
    last: bool,
    found: &mut BTreeMap<i32, i64>,
) -> Result<Vec<i32>> {
    let snapshot = cluster.snapshot();
    let mut by_leader: BTreeMap<i32, Vec<(i32, i32)>> = BTreeMap::new();
    let mut retry = Vec::new();
    for &p in pending {
        match snapshot
            .partition(topic, p)
            .and_then(|i| Some((i.leader?, i)))
        {
            Some((leader, info)) => by_leader
                .entry(leader)
                .or_default()
                .push((p, info.leader_epoch)),
            _ => retry.push(p),
        }
    }
    if last && let Some(p) = retry.first() {
        let partition = Some(format!("topic '{topic}' partition {p}"));
        let leaderless = meta::Error::from_code(ErrorCode::LeaderNotAvailable, partition);
        return Err(fetch_error(topic, leaderless));
    }
    let mut requests = JoinSet::new();
    for (leader, asked) in by_leader {
        let request = request(topic, &asked, timestamp, isolation);
        let cluster = cluster.clone();
        requests.spawn(async move { (asked, cluster.send_to_node(leader, request).await) });
    }
    while let Some(joined) = requests.join_next().await {
        let (asked, answer) = joined.map_err(|e| Error::Task(e.to_string()))?;
        let response = match answer {
            Ok(response) => response,
            Err(error) if error.retriable() && !last => {
                retry.extend(asked.iter().map(|(p, _)| *p));
                continue;
            }
            Err(error) => return Err(fetch_error(topic, error)),
        };
        for p in response.topics.iter().flat_map(|t| &t.partitions) {
            match ErrorCode::from_code(p.error_code) {
                None => {
                    found.insert(p.partition_index, p.offset);
                }
                Some(code) if code.retriable() && !last => retry.push(p.partition_index),
                Some(code) => {
                    return Err(fetch_error(
                        topic,
                        meta::Error::from_code(
                            code,
                            Some(format!("topic '{topic}' partition {}", p.partition_index)),
                        ),
                    ));
                }
            }
        }
    }
    Ok(retry)
}

fn fetch_error(topic: &str, source: meta::Error) -> Error {
    Error::Fetch {
        topic: topic.to_owned(),
        source,
    }
}
