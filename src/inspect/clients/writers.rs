//! The producers writing to a topic now: one `DescribeProducers` per
//! partition leader carrying every partition it leads (a topic of 100
//! partitions over 3 leaders costs 3 requests), the answers folded by
//! producer id, then the transactional ids of those producers from
//! `ListTransactions` on every broker, filtered by producer id (each broker
//! lists only the transactional ids it coordinates).
//!
//! Every partition is accounted for: one whose leader is unknown, did not
//! answer or answered with an error is in [`TopicWriters::failed`] with why.

use std::collections::BTreeMap;

use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::describe_producers_request::TopicRequest;
use crate::conn::protocol::messages::{
    DescribeProducersRequest, DescribeProducersResponse, ListTransactionsRequest,
    ListTransactionsResponse, ProducerId, TopicName,
};
use crate::inspect::error::{Error, Result};
use crate::inspect::transactions::{self, Producer};
use crate::meta::{Cluster, MetadataSnapshot};

/// One producer with state on the topic, over every partition it wrote.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TopicProducer {
    pub producer_id: i64,
    /// Its highest epoch seen on any partition.
    pub producer_epoch: i32,
    /// Its transactional id; `None` for an idempotent producer, or when
    /// no coordinator listed one (see [`TopicWriters::transactional_ids_failed`]).
    pub transactional_id: Option<String>,
    /// The state of its last transaction (`Ongoing`, `CompleteCommit`, …)
    /// as its coordinator lists it; `None` without a transactional id.
    pub transaction_state: Option<String>,
    /// When it last wrote to any partition of the topic (ms since the epoch).
    pub last_timestamp_ms: i64,
    /// The highest transaction coordinator epoch seen; -1 for none.
    pub coordinator_epoch: i32,
    /// The partitions it has state on, by partition.
    pub partitions: Vec<ProducerPartition>,
}

/// A producer's state on one partition.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ProducerPartition {
    pub partition: i32,
    /// The last sequence number it wrote there.
    pub last_sequence: i32,
    /// When it last wrote there (ms since the epoch).
    pub last_timestamp_ms: i64,
    /// The first offset of its open transaction there, if any.
    pub txn_start_offset: Option<i64>,
}

/// A partition whose producers are unknown, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FailedPartition {
    pub partition: i32,
    /// Its leader as the metadata knew it; `None` for a leaderless one.
    pub leader: Option<i32>,
    /// Why, in words.
    pub error: String,
}

/// Who writes to a topic.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TopicWriters {
    /// The producers, most recent write first.
    pub producers: Vec<TopicProducer>,
    /// Partitions that could not be asked or answered with an error.
    pub failed: Vec<FailedPartition>,
    /// Brokers whose `ListTransactions` failed, with why: a transactional
    /// id they coordinate may be missing.
    pub transactional_ids_failed: Vec<String>,
}

/// The producers of `partitions` of `topic`: one request for one leader.
pub fn producers_request(topic: &str, partitions: &[i32]) -> DescribeProducersRequest {
    DescribeProducersRequest::default().with_topics(vec![
        TopicRequest::default()
            .with_name(TopicName(StrBytes::from_string(topic.to_owned())))
            .with_partition_indexes(partitions.to_vec()),
    ])
}

/// The transactional ids of `producer_ids` in every state (an empty state
/// filter is every state).
pub fn list_request(producer_ids: &[i64]) -> ListTransactionsRequest {
    ListTransactionsRequest::default()
        .with_state_filters(Vec::new())
        .with_producer_id_filters(producer_ids.iter().map(|id| ProducerId(*id)).collect())
}

/// `producer id → (transactional id, state)` from one broker's listing.
pub fn read_list(
    response: &ListTransactionsResponse,
    broker: i32,
) -> Result<BTreeMap<i64, (String, String)>> {
    if let Some(error) = Error::answer(
        format!("transactions on broker {broker}"),
        response.error_code,
        None,
    ) {
        return Err(error);
    }
    Ok(response
        .transaction_states
        .iter()
        .map(|t| {
            (
                t.producer_id.0,
                (
                    t.transactional_id.0.as_str().to_owned(),
                    t.transaction_state.as_str().to_owned(),
                ),
            )
        })
        .collect())
}

/// The partitions of `topic` by leader, and the leaderless ones as failed.
pub fn by_leader(
    snapshot: &MetadataSnapshot,
    topic: &str,
) -> (BTreeMap<i32, Vec<i32>>, Vec<FailedPartition>) {
    let mut leaders: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
    let mut failed = Vec::new();
    for p in snapshot.topic(topic).iter().flat_map(|t| &t.partitions) {
        match p.leader {
            Some(leader) => leaders.entry(leader).or_default().push(p.partition),
            None => failed.push(FailedPartition {
                partition: p.partition,
                leader: None,
                error: "no leader".to_owned(),
            }),
        }
    }
    (leaders, failed)
}

/// Split one leader's answer into each partition's producers or error.
fn read_leader(
    response: &DescribeProducersResponse,
    partitions: &[i32],
) -> Vec<(i32, Result<Vec<Producer>>)> {
    partitions
        .iter()
        .map(|&p| {
            let answered = response
                .topics
                .iter()
                .flat_map(|t| &t.partitions)
                .any(|a| a.partition_index == p);
            let result = if answered {
                transactions::read_producers(response, p)
            } else {
                Err(Error::answer(
                    format!("producers of partition {p}"),
                    ErrorCode::UnknownTopicOrPartition.code(),
                    Some("not in the leader's answer"),
                )
                .unwrap_or(Error::Task {
                    what: "describe producers",
                    message: format!("partition {p} not answered"),
                }))
            };
            (p, result)
        })
        .collect()
}

/// Ask one leader for its partitions; a partition it no longer leads is
/// asked again alone through the routed path (which refreshes the leader).
async fn ask_leader(
    cluster: &Cluster,
    topic: &str,
    leader: i32,
    partitions: Vec<i32>,
) -> Vec<(i32, Option<i32>, Result<Vec<Producer>>)> {
    let what = format!("producers of '{topic}' on broker {leader}");
    let answers = match cluster
        .send_to_node(leader, producers_request(topic, &partitions))
        .await
    {
        Ok(response) => read_leader(&response, &partitions),
        Err(error) => {
            let error = Error::request(what, error);
            return partitions
                .into_iter()
                .map(|p| (p, Some(leader), Err(error.clone())))
                .collect();
        }
    };
    let mut out = Vec::with_capacity(answers.len());
    for (partition, result) in answers {
        let result = match result {
            Err(e) if e.code() == Some(ErrorCode::NotLeaderOrFollower) => {
                transactions::describe_producers(cluster, topic, partition).await
            }
            other => other,
        };
        out.push((partition, Some(leader), result));
    }
    out
}

/// Fold per-partition producer states into one row per producer.
pub fn fold(states: Vec<(i32, Vec<Producer>)>) -> Vec<TopicProducer> {
    let mut by_id: BTreeMap<i64, TopicProducer> = BTreeMap::new();
    for (partition, producers) in states {
        for p in producers {
            let row = by_id.entry(p.producer_id).or_insert_with(|| TopicProducer {
                producer_id: p.producer_id,
                producer_epoch: p.producer_epoch,
                transactional_id: None,
                transaction_state: None,
                last_timestamp_ms: p.last_timestamp_ms,
                coordinator_epoch: p.coordinator_epoch,
                partitions: Vec::new(),
            });
            row.producer_epoch = row.producer_epoch.max(p.producer_epoch);
            row.last_timestamp_ms = row.last_timestamp_ms.max(p.last_timestamp_ms);
            row.coordinator_epoch = row.coordinator_epoch.max(p.coordinator_epoch);
            row.partitions.push(ProducerPartition {
                partition,
                last_sequence: p.last_sequence,
                last_timestamp_ms: p.last_timestamp_ms,
                txn_start_offset: p.txn_start_offset,
            });
        }
    }
    let mut rows: Vec<TopicProducer> = by_id.into_values().collect();
    for row in &mut rows {
        row.partitions.sort_by_key(|p| p.partition);
    }
    rows.sort_by_key(|r| (std::cmp::Reverse(r.last_timestamp_ms), r.producer_id));
    rows
}

/// The transactional ids of `producer_ids`, asked of every broker at once;
/// the brokers that failed, with why.
async fn transactional_ids(
    cluster: &Cluster,
    producer_ids: &[i64],
) -> (BTreeMap<i64, (String, String)>, Vec<String>) {
    let mut requests = tokio::task::JoinSet::new();
    for broker in cluster.snapshot().brokers().iter().map(|b| b.node_id) {
        let cluster = cluster.clone();
        let request = list_request(producer_ids);
        requests.spawn(async move {
            let response = cluster
                .send_to_node(broker, request)
                .await
                .map_err(|e| Error::request(format!("transactions on broker {broker}"), e))?;
            read_list(&response, broker)
        });
    }
    let mut ids = BTreeMap::new();
    let mut failed = Vec::new();
    while let Some(joined) = requests.join_next().await {
        match joined {
            Ok(Ok(listed)) => ids.extend(listed),
            Ok(Err(error)) => failed.push(error.to_string()),
            Err(error) => failed.push(format!("list transactions task failed: {error}")),
        }
    }
    failed.sort();
    (ids, failed)
}

/// Who writes to `topic` now, as the metadata in `snapshot` places its
/// leaders: every partition asked, one request per leader, in parallel.
pub async fn writers(cluster: &Cluster, snapshot: &MetadataSnapshot, topic: &str) -> TopicWriters {
    let (leaders, mut failed) = by_leader(snapshot, topic);
    let mut requests = tokio::task::JoinSet::new();
    for (leader, partitions) in leaders {
        let cluster = cluster.clone();
        let topic = topic.to_owned();
        requests.spawn(async move { ask_leader(&cluster, &topic, leader, partitions).await });
    }
    let mut states = Vec::new();
    while let Some(joined) = requests.join_next().await {
        let Ok(answers) = joined else {
            // A panicked task cannot name its partitions: say so once.
            failed.push(FailedPartition {
                partition: -1,
                leader: None,
                error: "describe producers task failed".to_owned(),
            });
            continue;
        };
        for (partition, leader, result) in answers {
            match result {
                Ok(producers) => states.push((partition, producers)),
                Err(error) => failed.push(FailedPartition {
                    partition,
                    leader,
                    error: error.to_string(),
                }),
            }
        }
    }
    failed.sort_by_key(|f| f.partition);
    let mut producers = fold(states);
    let mut transactional_ids_failed = Vec::new();
    if !producers.is_empty() {
        let wanted: Vec<i64> = producers.iter().map(|p| p.producer_id).collect();
        let (ids, why) = transactional_ids(cluster, &wanted).await;
        transactional_ids_failed = why;
        for producer in &mut producers {
            if let Some((id, state)) = ids.get(&producer.producer_id) {
                producer.transactional_id = Some(id.clone());
                producer.transaction_state = Some(state.clone());
            }
        }
    }
    TopicWriters {
        producers,
        failed,
        transactional_ids_failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Producer id, last write, and (partition, last sequence) pairs.
    type Shown = (i64, i64, Vec<(i32, i32)>);

    fn producer(id: i64, ts: i64, seq: i32) -> Producer {
        Producer {
            producer_id: id,
            producer_epoch: 0,
            last_sequence: seq,
            last_timestamp_ms: ts,
            coordinator_epoch: -1,
            txn_start_offset: None,
        }
    }

    #[test]
    fn one_row_per_producer_with_every_partition_it_wrote() {
        let rows = fold(vec![
            (3, vec![producer(7, 100, 4), producer(9, 50, 0)]),
            (1, vec![producer(7, 300, 11)]),
        ]);
        let shown: Vec<Shown> = rows
            .iter()
            .map(|r| {
                (
                    r.producer_id,
                    r.last_timestamp_ms,
                    r.partitions
                        .iter()
                        .map(|p| (p.partition, p.last_sequence))
                        .collect(),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [(7, 300, vec![(1, 11), (3, 4)]), (9, 50, vec![(3, 0)])],
            "most recent first, partitions in order"
        );
    }

    #[test]
    fn one_request_carries_every_partition_of_a_leader_and_lists_filter_by_id() {
        let request = producers_request("orders", &[0, 4, 8]);
        assert_eq!(request.topics[0].partition_indexes, [0, 4, 8]);
        let listing = list_request(&[7, 9]);
        assert!(listing.state_filters.is_empty(), "every state");
        assert_eq!(listing.producer_id_filters.len(), 2);
    }

    #[test]
    fn a_partition_missing_from_the_answer_is_an_error_not_silence() {
        let response = DescribeProducersResponse::default();
        let answers = read_leader(&response, &[2]);
        assert!(answers[0].1.is_err(), "{answers:?}");
    }
}
