//! A partition's active producers (`DescribeProducers`, asked of its
//! leader) and the open transactions writing to it (`ListTransactions` on
//! every broker — each lists the transactional ids it coordinates — then
//! `DescribeTransactions` on the same broker for the ones not finished). A
//! transaction left open is what holds a `read_committed` consumer back
//! at the last stable offset.

use std::collections::BTreeSet;

use super::error::{Error, Result};
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::describe_producers_request::TopicRequest;
use crate::conn::protocol::messages::{
    DescribeProducersRequest, DescribeProducersResponse, DescribeTransactionsRequest,
    DescribeTransactionsResponse, ListTransactionsRequest, ListTransactionsResponse, TopicName,
    TransactionalId,
};
use crate::meta::Cluster;

/// One producer with state on a partition.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Producer {
    pub producer_id: i64,
    pub producer_epoch: i32,
    /// The last sequence number it wrote here.
    pub last_sequence: i32,
    /// When it last wrote here (ms since the epoch).
    pub last_timestamp_ms: i64,
    /// The epoch of the transaction coordinator that last wrote a marker
    /// for it; -1 for none.
    pub coordinator_epoch: i32,
    /// The first offset of its open transaction here; `None` when it has
    /// none.
    pub txn_start_offset: Option<i64>,
}

/// A transaction not yet complete.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct OpenTransaction {
    pub transactional_id: String,
    /// `Ongoing`, `PrepareCommit`, `PrepareAbort`, …
    pub state: String,
    /// Its producer id and epoch.
    pub producer_id: i64,
    pub producer_epoch: i16,
    /// When it started (ms since the epoch); -1 when not started.
    pub start_ms: i64,
    /// Its timeout: the coordinator aborts it once this has passed.
    pub timeout_ms: i32,
    /// The broker coordinating it.
    pub coordinator: i32,
    /// The partitions it has written to.
    pub partitions: Vec<TxnPartition>,
}

/// A partition a transaction has written to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TxnPartition {
    pub topic: String,
    pub partition: i32,
}

impl OpenTransaction {
    /// Whether it writes to `topic`-`partition`.
    pub fn touches(&self, topic: &str, partition: i32) -> bool {
        self.partitions
            .iter()
            .any(|p| p.topic == topic && p.partition == partition)
    }
}

/// States of a transaction that is not finished.
const OPEN: [&str; 3] = ["Ongoing", "PrepareCommit", "PrepareAbort"];

/// The producers of one partition.
pub fn producers_request(topic: &str, partition: i32) -> DescribeProducersRequest {
    DescribeProducersRequest::default().with_topics(vec![
        TopicRequest::default()
            .with_name(TopicName(StrBytes::from_string(topic.to_owned())))
            .with_partition_indexes(vec![partition]),
    ])
}

/// The producers in an answer for `partition`.
pub fn read_producers(
    response: &DescribeProducersResponse,
    partition: i32,
) -> Result<Vec<Producer>> {
    let Some(answer) = response
        .topics
        .iter()
        .flat_map(|t| &t.partitions)
        .find(|p| p.partition_index == partition)
    else {
        return Ok(Vec::new());
    };
    if let Some(error) = Error::answer(
        format!("producers of partition {partition}"),
        answer.error_code,
        answer.error_message.as_deref(),
    ) {
        return Err(error);
    }
    let mut producers: Vec<Producer> = answer
        .active_producers
        .iter()
        .map(|p| Producer {
            producer_id: p.producer_id.0,
            producer_epoch: p.producer_epoch,
            last_sequence: p.last_sequence,
            last_timestamp_ms: p.last_timestamp,
            coordinator_epoch: p.coordinator_epoch,
            txn_start_offset: (p.current_txn_start_offset >= 0)
                .then_some(p.current_txn_start_offset),
        })
        .collect();
    producers.sort_by_key(|p| std::cmp::Reverse(p.last_timestamp_ms));
    Ok(producers)
}

/// Every transaction a broker coordinates that is not finished (the state
/// filter; an empty one would list every state).
pub fn list_request() -> ListTransactionsRequest {
    ListTransactionsRequest::default()
        .with_state_filters(OPEN.iter().map(|s| StrBytes::from_static_str(s)).collect())
        .with_producer_id_filters(Vec::new())
}

/// The transactional ids in a listing that are still open.
pub fn read_list(response: &ListTransactionsResponse, broker: i32) -> Result<Vec<String>> {
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
        .filter(|t| OPEN.contains(&t.transaction_state.as_str()))
        .map(|t| t.transactional_id.0.as_str().to_owned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect())
}

/// The transactions in a description that are still open; ids that failed
/// (moved coordinator, finished meanwhile) are left out.
pub fn read_descriptions(
    response: &DescribeTransactionsResponse,
    broker: i32,
) -> Vec<OpenTransaction> {
    response
        .transaction_states
        .iter()
        .filter(|t| t.error_code == 0 && OPEN.contains(&t.transaction_state.as_str()))
        .map(|t| OpenTransaction {
            transactional_id: t.transactional_id.0.as_str().to_owned(),
            state: t.transaction_state.as_str().to_owned(),
            producer_id: t.producer_id.0,
            producer_epoch: t.producer_epoch,
            start_ms: t.transaction_start_time_ms,
            timeout_ms: t.transaction_timeout_ms,
            coordinator: broker,
            partitions: t
                .topics
                .iter()
                .flat_map(|topic| {
                    topic.partitions.iter().map(|&partition| TxnPartition {
                        topic: topic.topic.0.as_str().to_owned(),
                        partition,
                    })
                })
                .collect(),
        })
        .collect()
}

/// The active producers of `topic`-`partition`, asked of its leader.
pub async fn describe_producers(
    cluster: &Cluster,
    topic: &str,
    partition: i32,
) -> Result<Vec<Producer>> {
    let what = format!("producers of '{topic}' partition {partition}");
    let response = cluster
        .send_to_leader(topic, partition, producers_request(topic, partition))
        .await
        .map_err(|e| Error::request(what, e))?;
    read_producers(&response, partition)
}

/// The open transactions of one broker's coordinator.
async fn open_on(cluster: &Cluster, broker: i32) -> Result<Vec<OpenTransaction>> {
    let listed = cluster
        .send_to_node(broker, list_request())
        .await
        .map_err(|e| Error::request(format!("transactions on broker {broker}"), e))?;
    let ids = read_list(&listed, broker)?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let request = DescribeTransactionsRequest::default().with_transactional_ids(
        ids.into_iter()
            .map(|id| TransactionalId(StrBytes::from_string(id)))
            .collect(),
    );
    let described = cluster
        .send_to_node(broker, request)
        .await
        .map_err(|e| Error::request(format!("describe transactions on broker {broker}"), e))?;
    Ok(read_descriptions(&described, broker))
}

/// Every open transaction, asked of every broker at once, by transactional
/// id; the brokers that failed are listed with why.
pub async fn open_transactions(cluster: &Cluster) -> (Vec<OpenTransaction>, Vec<Error>) {
    let brokers: Vec<i32> = cluster
        .snapshot()
        .brokers()
        .iter()
        .map(|b| b.node_id)
        .collect();
    let mut requests = tokio::task::JoinSet::new();
    for broker in brokers {
        let cluster = cluster.clone();
        requests.spawn(async move { open_on(&cluster, broker).await });
    }
    let mut open = Vec::new();
    let mut failed = Vec::new();
    while let Some(joined) = requests.join_next().await {
        match joined {
            Ok(Ok(mut transactions)) => open.append(&mut transactions),
            Ok(Err(error)) => failed.push(error),
            Err(error) => failed.push(Error::Task {
                what: "list transactions",
                message: error.to_string(),
            }),
        }
    }
    open.sort_by(|a, b| a.transactional_id.cmp(&b.transactional_id));
    open.dedup_by(|a, b| a.transactional_id == b.transactional_id);
    (open, failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::ProducerId;
    use crate::conn::protocol::messages::describe_producers_response::{
        PartitionResponse, ProducerState, TopicResponse,
    };
    use crate::conn::protocol::messages::describe_transactions_response::{
        TopicData, TransactionState,
    };

    #[test]
    fn producers_with_and_without_an_open_transaction() {
        let response = DescribeProducersResponse::default().with_topics(vec![
            TopicResponse::default().with_partitions(vec![
                PartitionResponse::default()
                    .with_partition_index(2)
                    .with_active_producers(vec![
                        ProducerState::default()
                            .with_producer_id(ProducerId(7))
                            .with_last_timestamp(100)
                            .with_current_txn_start_offset(-1),
                        ProducerState::default()
                            .with_producer_id(ProducerId(9))
                            .with_last_timestamp(200)
                            .with_current_txn_start_offset(42),
                    ]),
            ]),
        ]);
        let producers = read_producers(&response, 2).expect("no error");
        let shown: Vec<(i64, Option<i64>)> = producers
            .iter()
            .map(|p| (p.producer_id, p.txn_start_offset))
            .collect();
        assert_eq!(shown, [(9, Some(42)), (7, None)], "most recent first");
        assert!(read_producers(&response, 3).is_ok_and(|p| p.is_empty()));
    }

    #[test]
    fn only_unfinished_transactions_with_their_partitions() {
        let state = |id: &'static str, state: &'static str| {
            TransactionState::default()
                .with_transactional_id(TransactionalId(StrBytes::from_static_str(id)))
                .with_transaction_state(StrBytes::from_static_str(state))
                .with_topics(vec![
                    TopicData::default()
                        .with_topic(TopicName(StrBytes::from_static_str("orders")))
                        .with_partitions(vec![0, 2]),
                ])
        };
        let response = DescribeTransactionsResponse::default().with_transaction_states(vec![
            state("open", "Ongoing"),
            state("done", "CompleteCommit"),
            state("gone", "Ongoing").with_error_code(15),
        ]);
        let open = read_descriptions(&response, 2);
        assert_eq!(open.len(), 1);
        assert_eq!(open[0].transactional_id, "open");
        assert!(open[0].touches("orders", 2) && !open[0].touches("orders", 1));
        assert_eq!(open[0].coordinator, 2);
        let request = list_request();
        assert_eq!(request.state_filters.len(), 3, "unfinished states only");
    }
}
