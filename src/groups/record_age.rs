//! Lag in time: how old the oldest unconsumed record is, per partition.
//!
//! Cost, bounded: only on request (the group being viewed), only for
//! partitions with lag > 0, at most [`MAX_AGE_PARTITIONS`] of them, in one
//! `Fetch` per leader broker at the committed offset with
//! [`HEADER_BYTES`] per partition. Those bytes are the head of the record
//! batch holding the committed offset, and the timestamp is read from the
//! batch header (no record is decoded): `baseTimestamp` for create-time
//! topics, the append time for log-append-time ones. The age is therefore
//! that of the batch's first record — at most one producer batch (its
//! `linger.ms`) older than the exact record. The broker may return one whole
//! batch for the first partition of a response (KIP-74), so a response is
//! at most one batch (`max.message.bytes`, 1 MiB by default) larger.

use std::collections::BTreeMap;

use bytes::Bytes;
use tokio::task::JoinSet;

use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::fetch_request::{FetchPartition, FetchTopic};
use crate::conn::protocol::messages::{FetchRequest, FetchResponse, TopicName};
use crate::meta::MetadataSnapshot;
use crate::meta::offsets::{self, TopicPartition};

use super::client::GroupsClient;
use super::error::{Error, Result};
use super::lag::GroupLag;

/// Bytes asked for per partition: a v2 record batch header is 61 bytes.
pub const HEADER_BYTES: i32 = 64;
/// Partitions looked at per call at most (the most lagging first).
pub const MAX_AGE_PARTITIONS: usize = 256;
/// The first `Fetch` version naming topics by id instead of by name.
const FETCH_BY_ID: i16 = 13;

/// The timestamp (ms since the epoch) of the record batch at the head of
/// `records`, if they start with a complete v2 batch header.
pub fn batch_timestamp(records: &Bytes) -> Option<i64> {
    let read = |at: usize| -> Option<i64> {
        let bytes: [u8; 8] = records.get(at..at + 8)?.try_into().ok()?;
        Some(i64::from_be_bytes(bytes))
    };
    if records.len() < 43 || records[16] != 2 {
        return None;
    }
    let log_append_time = records[22] & 0x08 != 0;
    let timestamp = if log_append_time {
        read(35)?
    } else {
        read(27)?
    };
    (timestamp >= 0).then_some(timestamp)
}

fn fetch_request(
    snapshot: &MetadataSnapshot,
    by_id: bool,
    asked: &[(TopicPartition, i64)],
) -> FetchRequest {
    let mut topics: BTreeMap<&str, Vec<FetchPartition>> = BTreeMap::new();
    for (tp, offset) in asked {
        topics.entry(tp.topic.as_str()).or_default().push(
            FetchPartition::default()
                .with_partition(tp.partition)
                .with_fetch_offset(*offset)
                .with_partition_max_bytes(HEADER_BYTES),
        );
    }
    let topics = topics
        .into_iter()
        .map(|(name, partitions)| {
            let topic = FetchTopic::default().with_partitions(partitions);
            if by_id {
                let id = snapshot
                    .topic(name)
                    .map(|t| *t.topic_id.as_bytes())
                    .unwrap_or_default();
                topic.with_topic_id(uuid::Uuid::from_bytes(id))
            } else {
                topic.with_topic(TopicName(StrBytes::from_string(name.to_owned())))
            }
        })
        .collect();
    let count = i32::try_from(asked.len()).unwrap_or(i32::MAX);
    FetchRequest::default()
        .with_max_wait_ms(0)
        .with_min_bytes(0)
        .with_max_bytes(HEADER_BYTES.saturating_mul(count))
        .with_topics(topics)
}

fn read_fetch(snapshot: &MetadataSnapshot, response: &FetchResponse) -> Vec<(TopicPartition, i64)> {
    let mut out = Vec::new();
    for topic in &response.responses {
        let name = if topic.topic.is_empty() {
            let id = *topic.topic_id.as_bytes();
            match snapshot
                .topics()
                .iter()
                .find(|t| *t.topic_id.as_bytes() == id)
            {
                Some(info) => info.name.clone(),
                None => continue,
            }
        } else {
            topic.topic.0.to_string()
        };
        for p in &topic.partitions {
            if p.error_code == 0
                && let Some(ts) = p.records.as_ref().and_then(batch_timestamp)
            {
                out.push((TopicPartition::new(name.clone(), p.partition_index), ts));
            }
        }
    }
    out
}

impl GroupsClient {
    /// The timestamp of the oldest unconsumed record (see the module docs for
    /// the bound on cost and precision) of each lagging partition of `lag`.
    pub async fn oldest_unconsumed(&self, lag: &GroupLag) -> Result<BTreeMap<TopicPartition, i64>> {
        let mut lagging: Vec<(TopicPartition, i64, i64)> = lag
            .partitions
            .iter()
            .filter_map(|p| {
                let records = p.records().filter(|n| *n > 0)?;
                Some((
                    TopicPartition::new(p.topic.clone(), p.partition),
                    p.committed?,
                    records,
                ))
            })
            .collect();
        lagging.sort_by_key(|(_, _, records)| std::cmp::Reverse(*records));
        lagging.truncate(MAX_AGE_PARTITIONS);
        if lagging.is_empty() {
            return Ok(BTreeMap::new());
        }
        let by_id = self.cluster().negotiated_for::<FetchRequest>().await? >= FETCH_BY_ID;
        let snapshot = self.cluster().snapshot();
        let committed: BTreeMap<TopicPartition, i64> =
            lagging.into_iter().map(|(tp, c, _)| (tp, c)).collect();
        let tps: Vec<TopicPartition> = committed.keys().cloned().collect();
        let mut requests = JoinSet::new();
        for (leader, tps) in offsets::plan(&snapshot, &tps).by_leader {
            let asked: Vec<(TopicPartition, i64)> =
                tps.iter().map(|tp| (tp.clone(), committed[tp])).collect();
            let request = fetch_request(&snapshot, by_id, &asked);
            let client = self.clone();
            requests.spawn(async move { client.send_to_node(leader, request).await });
        }
        let mut found = BTreeMap::new();
        while let Some(joined) = requests.join_next().await {
            match joined.map_err(|e| Error::Task(e.to_string()))? {
                Ok(response) => found.extend(read_fetch(&snapshot, &response)),
                Err(error) => {
                    tracing::debug!(%error, "fetching batch headers for record age failed");
                }
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(magic: u8, attributes: u8, base: i64, max: i64) -> Bytes {
        let mut bytes = vec![0u8; 61];
        bytes[16] = magic;
        bytes[22] = attributes;
        bytes[27..35].copy_from_slice(&base.to_be_bytes());
        bytes[35..43].copy_from_slice(&max.to_be_bytes());
        Bytes::from(bytes)
    }

    #[test]
    fn the_timestamp_comes_from_the_batch_header() {
        assert_eq!(batch_timestamp(&header(2, 0, 1_000, 2_000)), Some(1_000));
        assert_eq!(batch_timestamp(&header(2, 0x08, 1_000, 2_000)), Some(2_000));
        assert_eq!(batch_timestamp(&header(1, 0, 1_000, 2_000)), None);
        assert_eq!(batch_timestamp(&Bytes::from_static(&[0; 20])), None);
        assert_eq!(batch_timestamp(&header(2, 0, -1, -1)), None);
    }

    #[test]
    fn a_fetch_asks_a_header_per_partition_at_the_committed_offset() {
        let snapshot = MetadataSnapshot::empty();
        let asked = vec![
            (TopicPartition::new("t", 0), 5),
            (TopicPartition::new("t", 1), 9),
        ];
        let request = fetch_request(&snapshot, false, &asked);
        assert_eq!(request.max_bytes, 2 * HEADER_BYTES);
        assert_eq!(request.max_wait_ms, 0);
        let partitions = &request.topics[0].partitions;
        assert_eq!(partitions[1].fetch_offset, 9);
        assert!(
            partitions
                .iter()
                .all(|p| p.partition_max_bytes == HEADER_BYTES)
        );
        assert_eq!(request.topics[0].topic.as_str(), "t");
    }
}
