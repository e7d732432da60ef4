//! Lag in time: how old the oldest unconsumed record is, per partition.
//!
//! Every lagging partition gets one (at most [`MAX_AGE_PARTITIONS`], the most
//! lagging first; [`GroupDetail`](super::GroupDetail) says how many were left
//! out), only on request (the group being viewed). The record read is the
//! first one still in the log: at the committed offset, or at the log start
//! offset if retention deleted it. Its timestamp is read from the header of
//! the record batch holding it (no record is decoded): `baseTimestamp` for
//! create-time topics, the append time for log-append-time ones. The age is
//! therefore that of the batch's first record — at most one producer batch
//! (its `linger.ms`) older than the exact record.
//!
//! A broker never returns part of a batch, and returns a batch larger than
//! the limit asked only for the first partition of a response (KIP-74): a
//! `Fetch` naming many partitions answers one of them. So each partition is
//! its own one-partition `Fetch` with a limit of [`HEADER_BYTES`] (the broker
//! sends exactly the one batch holding the offset), pipelined on the
//! leader's connection with at most [`IN_FLIGHT_PER_LEADER`] at once: the
//! bytes in flight are bounded by that many batches per leader.

use std::collections::BTreeMap;
use std::sync::Arc;

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
pub const MAX_AGE_PARTITIONS: usize = 2_000;
/// One-partition fetches in flight per leader at most.
pub const IN_FLIGHT_PER_LEADER: usize = 16;
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

/// The lagging partitions of `lag` worth a look, the most lagging first, with
/// the offset to read at (the committed one, or the log start offset when
/// retention deleted it); and how many lagging ones the cap left out.
fn lagging(lag: &GroupLag) -> (Vec<(TopicPartition, i64)>, usize) {
    let mut lagging: Vec<(TopicPartition, i64, i64)> = lag
        .partitions
        .iter()
        .filter_map(|p| {
            let records = p.records().filter(|n| *n > 0)?;
            let at = p.committed?.max(p.start.unwrap_or(0));
            // Everything unconsumed was deleted: no record to date.
            (p.end.is_some_and(|end| at < end))
                .then(|| (TopicPartition::new(&*p.topic, p.partition), at, records))
        })
        .collect();
    lagging.sort_by_key(|(_, _, records)| std::cmp::Reverse(*records));
    let left_out = lagging.len().saturating_sub(MAX_AGE_PARTITIONS);
    lagging.truncate(MAX_AGE_PARTITIONS);
    (
        lagging.into_iter().map(|(tp, at, _)| (tp, at)).collect(),
        left_out,
    )
}

impl GroupsClient {
    /// The timestamp of the oldest unconsumed record (see the module docs for
    /// the bound on cost and precision) of each lagging partition of `lag`,
    /// and how many lagging partitions were left out by
    /// [`MAX_AGE_PARTITIONS`].
    pub async fn oldest_unconsumed(
        &self,
        lag: &GroupLag,
    ) -> Result<(BTreeMap<TopicPartition, i64>, usize)> {
        let (lagging, left_out) = lagging(lag);
        let mut found = BTreeMap::new();
        if lagging.is_empty() {
            return Ok((found, left_out));
        }
        let by_id = self.cluster().negotiated_for::<FetchRequest>().await? >= FETCH_BY_ID;
        let snapshot = self.cluster().snapshot();
        let at: BTreeMap<TopicPartition, i64> = lagging.into_iter().collect();
        let tps: Vec<TopicPartition> = at.keys().cloned().collect();
        let mut leaders = JoinSet::new();
        for (leader, tps) in offsets::plan(&snapshot, &tps).by_leader {
            let asked: Vec<(TopicPartition, i64)> =
                tps.into_iter().map(|tp| (tp.clone(), at[&tp])).collect();
            let (client, snapshot) = (self.clone(), snapshot.clone());
            leaders.spawn(async move { client.ages_from(leader, asked, by_id, snapshot).await });
        }
        while let Some(joined) = leaders.join_next().await {
            found.extend(joined.map_err(|e| Error::Task(e.to_string()))?);
        }
        Ok((found, left_out))
    }

    /// One-partition fetches of `asked` from `leader`, a few at a time.
    async fn ages_from(
        &self,
        leader: i32,
        asked: Vec<(TopicPartition, i64)>,
        by_id: bool,
        snapshot: Arc<MetadataSnapshot>,
    ) -> Vec<(TopicPartition, i64)> {
        let mut queue = asked.into_iter();
        let mut in_flight = JoinSet::new();
        let mut found = Vec::new();
        loop {
            while in_flight.len() < IN_FLIGHT_PER_LEADER {
                let Some(one) = queue.next() else { break };
                let request = fetch_request(&snapshot, by_id, &[one]);
                let client = self.clone();
                in_flight.spawn(async move { client.send_to_node(leader, request).await });
            }
            let Some(joined) = in_flight.join_next().await else {
                break;
            };
            match joined {
                Ok(Ok(response)) => found.extend(read_fetch(&snapshot, &response)),
                Ok(Err(error)) => {
                    tracing::debug!(%error, leader, "fetching a batch header for record age failed");
                }
                Err(error) => tracing::debug!(%error, "record age task failed"),
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::lag::PartitionLag;

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

    fn lagging_partition(partition: i32, committed: i64, end: i64, start: i64) -> PartitionLag {
        PartitionLag {
            topic: "t".into(),
            partition,
            committed: Some(committed),
            end: Some(end),
            start: Some(start),
            reported: None,
        }
    }

    #[test]
    fn every_lagging_partition_is_looked_at_from_the_first_offset_still_in_the_log() {
        let mut parts: Vec<PartitionLag> = (0..60)
            .map(|p| lagging_partition(p, 0, 100 + i64::from(p), 0))
            .collect();
        parts.push(lagging_partition(60, 10, 100, 40)); // retention passed the commit
        parts.push(lagging_partition(61, 10, 90, 90)); // all unconsumed deleted
        parts.push(lagging_partition(62, 50, 50, 0)); // caught up
        let (asked, left_out) = lagging(&GroupLag::new(parts));
        assert_eq!(left_out, 0);
        assert_eq!(asked.len(), 61);
        assert_eq!(
            asked[0],
            (TopicPartition::new("t", 59), 0),
            "most lagging first"
        );
        assert!(asked.contains(&(TopicPartition::new("t", 60), 40)));
        assert!(!asked.iter().any(|(tp, _)| tp.partition >= 61));
    }

    #[test]
    fn the_cap_says_how_many_it_left_out() {
        let parts: Vec<PartitionLag> = (0..i32::try_from(MAX_AGE_PARTITIONS + 7).unwrap_or(0))
            .map(|p| lagging_partition(p, 0, 10, 0))
            .collect();
        let (asked, left_out) = lagging(&GroupLag::new(parts));
        assert_eq!((asked.len(), left_out), (MAX_AGE_PARTITIONS, 7));
    }
}
