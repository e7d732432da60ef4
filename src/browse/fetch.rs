//! One `Fetch` request per leader and what its answer says per partition.
//!
//! Limits are explicit (the crate's default `max_bytes` is 2 GiB, above the
//! frame cap): a response budget and a per-partition budget. No group, no
//! session (`session_id` 0, epoch -1: a full fetch each time), replica -1.

use bytes::Bytes;

use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::fetch_request::{FetchPartition, FetchTopic};
use crate::conn::protocol::messages::{FetchRequest, FetchResponse, TopicName};

/// The first `Fetch` version naming topics by id instead of by name.
pub const FETCH_BY_ID: i16 = 13;

/// What one partition asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ask {
    pub partition: i32,
    /// The offset to read from.
    pub offset: i64,
    /// The leader epoch the snapshot knows (fences a stale leader).
    pub leader_epoch: i32,
    /// Bytes at most for this partition.
    pub max_bytes: i32,
}

/// How the topic is named in the request.
#[derive(Debug, Clone)]
pub enum TopicRef {
    /// By name (Fetch v4–v12).
    Name(String),
    /// By id (Fetch v13+).
    Id(uuid::Uuid),
}

/// A `Fetch` for one topic's partitions on one leader.
pub fn request(
    topic: &TopicRef,
    asks: &[Ask],
    max_bytes: i32,
    max_wait_ms: i32,
    isolation_level: i8,
) -> FetchRequest {
    let partitions = asks
        .iter()
        .map(|a| {
            FetchPartition::default()
                .with_partition(a.partition)
                .with_fetch_offset(a.offset)
                .with_current_leader_epoch(a.leader_epoch)
                .with_partition_max_bytes(a.max_bytes)
        })
        .collect();
    let topic = match topic {
        TopicRef::Name(name) => {
            FetchTopic::default().with_topic(TopicName(StrBytes::from_string(name.clone())))
        }
        TopicRef::Id(id) => FetchTopic::default().with_topic_id(*id),
    };
    FetchRequest::default()
        .with_max_wait_ms(max_wait_ms)
        .with_min_bytes(i32::from(max_wait_ms > 0))
        .with_max_bytes(max_bytes)
        .with_isolation_level(isolation_level)
        .with_session_id(0)
        .with_session_epoch(-1)
        .with_topics(vec![topic.with_partitions(partitions)])
}

/// One partition's part of an answer.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    pub partition: i32,
    /// Its error code (0: none).
    pub error_code: i16,
    pub high_watermark: i64,
    /// Its last stable offset (-1 if unknown).
    pub last_stable_offset: i64,
    /// Its log start offset (-1 if unknown).
    pub log_start_offset: i64,
    /// Aborted transactions: (producer id, first offset).
    pub aborted: Vec<(i64, i64)>,
    /// The record batches.
    pub records: Bytes,
}

/// The answers of a response, per partition.
pub fn read(response: &FetchResponse) -> Vec<Answer> {
    response
        .responses
        .iter()
        .flat_map(|t| &t.partitions)
        .map(|p| Answer {
            partition: p.partition_index,
            error_code: p.error_code,
            high_watermark: p.high_watermark,
            last_stable_offset: p.last_stable_offset,
            log_start_offset: p.log_start_offset,
            aborted: p
                .aborted_transactions
                .iter()
                .flatten()
                .map(|a| (a.producer_id.0, a.first_offset))
                .collect(),
            records: p.records.clone().unwrap_or_default(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_carries_explicit_limits_and_no_session() {
        let asks = [Ask {
            partition: 3,
            offset: 42,
            leader_epoch: 5,
            max_bytes: 1 << 20,
        }];
        let request = request(&TopicRef::Name("t".to_owned()), &asks, 16 << 20, 0, 1);
        assert_eq!(request.max_bytes, 16 << 20);
        assert_eq!(request.isolation_level, 1);
        assert_eq!((request.session_id, request.session_epoch), (0, -1));
        assert_eq!(request.replica_id.0, -1);
        let p = &request.topics[0].partitions[0];
        assert_eq!(
            (p.partition, p.fetch_offset, p.current_leader_epoch),
            (3, 42, 5)
        );
        assert_eq!(p.partition_max_bytes, 1 << 20);
        assert_eq!(request.min_bytes, 0);
        assert_eq!(
            super::request(&TopicRef::Name("t".to_owned()), &asks, 1, 500, 0).min_bytes,
            1
        );
    }
}
