//! `DescribeLogDirs`: one request per broker, all at once, each bounded by
//! [`LOG_DIRS_DEADLINE`] so a hung broker costs its own answer only.

use std::time::Duration;

use tokio::task::JoinSet;

use super::error::{Error, Result};
use crate::conn::ErrorCode;
use crate::conn::protocol::messages::describe_log_dirs_response::DescribeLogDirsTopic;
use crate::conn::protocol::messages::{DescribeLogDirsRequest, DescribeLogDirsResponse};
use crate::meta::Cluster;

/// How long one broker has to describe its log dirs.
pub const LOG_DIRS_DEADLINE: Duration = Duration::from_secs(5);

/// One log dir of a broker.
#[derive(Debug, Clone, PartialEq)]
pub struct LogDir {
    /// Its path on the broker.
    pub path: String,
    /// Why the broker could not read it (offline dir), if it could not.
    pub error: Option<ErrorCode>,
    /// The volume's size, where the broker reports it (v4+).
    pub total_bytes: Option<i64>,
    /// The volume's free space usable by Kafka, where reported (v4+).
    pub usable_bytes: Option<i64>,
    /// The replicas in it, topic by topic, sorted by topic name.
    pub topics: Vec<TopicReplicas>,
}

impl LogDir {
    /// Bytes the current (not future) replicas in it take.
    pub fn used_bytes(&self) -> i64 {
        self.topics
            .iter()
            .flat_map(|t| &t.partitions)
            .filter(|r| !r.future)
            .map(|r| r.size)
            .sum()
    }

    /// The replicas of `topic` in this dir, if it holds any.
    pub fn topic(&self, topic: &str) -> Option<&TopicReplicas> {
        self.topics
            .binary_search_by(|t| t.name.as_str().cmp(topic))
            .ok()
            .and_then(|i| self.topics.get(i))
    }
}

/// The replicas of one topic in a log dir: the name once, then each
/// partition's replica.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicReplicas {
    /// The topic.
    pub name: String,
    /// Its replicas in the dir, sorted by partition (a current replica
    /// before a future one of the same partition).
    pub partitions: Vec<ReplicaSize>,
}

impl TopicReplicas {
    /// The replicas of `partition` in the dir: none, the current one, the
    /// future one, or (briefly, mid-move) both.
    pub fn partition(&self, partition: i32) -> &[ReplicaSize] {
        let start = self.partitions.partition_point(|r| r.partition < partition);
        let end = self
            .partitions
            .partition_point(|r| r.partition <= partition);
        self.partitions.get(start..end).unwrap_or_default()
    }
}

/// One replica's size in a log dir.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplicaSize {
    pub partition: i32,
    /// Bytes on disk.
    pub size: i64,
    /// For a future replica (being moved between dirs), how far behind it is.
    pub offset_lag: i64,
    /// Whether it is the future replica of an intra-broker move.
    pub future: bool,
}

/// One broker's answer, or why there is none.
pub type BrokerLogDirs = (i32, Result<Vec<LogDir>>);

/// Asks for every topic's replicas (the default, an empty list, asks for none).
pub fn request() -> DescribeLogDirsRequest {
    DescribeLogDirsRequest::default().with_topics(None)
}

/// The log dirs in a broker's answer.
pub fn read(response: &DescribeLogDirsResponse, broker: i32) -> Result<Vec<LogDir>> {
    if let Some(error) = Error::answer(
        format!("log dirs of broker {broker}"),
        response.error_code,
        None,
    ) {
        return Err(error);
    }
    let reported = |v: i64| (v >= 0).then_some(v);
    Ok(response
        .results
        .iter()
        .map(|dir| LogDir {
            path: dir.log_dir.as_str().to_owned(),
            error: ErrorCode::from_code(dir.error_code),
            total_bytes: reported(dir.total_bytes),
            usable_bytes: reported(dir.usable_bytes),
            topics: topics(&dir.topics),
        })
        .collect())
}

/// A dir's topics as kscope keeps them: sorted by name, each topic's
/// replicas sorted by partition (a topic the broker lists twice is merged).
fn topics(answered: &[DescribeLogDirsTopic]) -> Vec<TopicReplicas> {
    let mut topics: Vec<TopicReplicas> = answered
        .iter()
        .map(|t| {
            let mut partitions: Vec<ReplicaSize> = t
                .partitions
                .iter()
                .map(|p| ReplicaSize {
                    partition: p.partition_index,
                    size: p.partition_size,
                    offset_lag: p.offset_lag,
                    future: p.is_future_key,
                })
                .collect();
            partitions.sort_unstable_by_key(|r| (r.partition, r.future));
            TopicReplicas {
                name: t.name.0.as_str().to_owned(),
                partitions,
            }
        })
        .collect();
    topics.sort_by(|a, b| a.name.cmp(&b.name));
    topics.dedup_by(|later, kept| {
        let same = later.name == kept.name;
        if same {
            kept.partitions.append(&mut later.partitions);
            kept.partitions
                .sort_unstable_by_key(|r| (r.partition, r.future));
        }
        same
    });
    topics
}

/// Every broker in `brokers` describes its log dirs, concurrently.
pub async fn describe(cluster: &Cluster, brokers: &[i32]) -> Vec<BrokerLogDirs> {
    let mut requests = JoinSet::new();
    for &broker in brokers {
        let cluster = cluster.clone();
        requests.spawn(async move { (broker, ask(&cluster, broker).await) });
    }
    let mut answers = Vec::with_capacity(brokers.len());
    while let Some(joined) = requests.join_next().await {
        match joined {
            Ok(answer) => answers.push(answer),
            Err(error) => tracing::warn!(%error, "a log dirs task failed"),
        }
    }
    for &broker in brokers {
        if !answers.iter().any(|(b, _)| *b == broker) {
            let error = Error::Task {
                what: "describe log dirs",
                message: format!("broker {broker} gave no result"),
            };
            answers.push((broker, Err(error)));
        }
    }
    answers.sort_by_key(|(broker, _)| *broker);
    answers
}

async fn ask(cluster: &Cluster, broker: i32) -> Result<Vec<LogDir>> {
    let what = format!("log dirs of broker {broker}");
    match tokio::time::timeout(LOG_DIRS_DEADLINE, cluster.send_to_node(broker, request())).await {
        Ok(Ok(response)) => read(&response, broker),
        Ok(Err(error)) => Err(Error::request(what, error)),
        Err(_) => Err(Error::Timeout {
            what,
            after: LOG_DIRS_DEADLINE,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::StrBytes;
    use crate::conn::protocol::messages::TopicName;
    use crate::conn::protocol::messages::describe_log_dirs_response::{
        DescribeLogDirsPartition, DescribeLogDirsResult, DescribeLogDirsTopic,
    };

    pub(crate) fn dir(
        path: &str,
        total: i64,
        replicas: &[(&str, i32, i64, bool)],
    ) -> DescribeLogDirsResult {
        let topics = replicas
            .iter()
            .map(|(topic, partition, size, future)| {
                DescribeLogDirsTopic::default()
                    .with_name(TopicName(StrBytes::from_string((*topic).to_owned())))
                    .with_partitions(vec![
                        DescribeLogDirsPartition::default()
                            .with_partition_index(*partition)
                            .with_partition_size(*size)
                            .with_is_future_key(*future),
                    ])
            })
            .collect();
        DescribeLogDirsResult::default()
            .with_log_dir(StrBytes::from_string(path.to_owned()))
            .with_total_bytes(total)
            .with_usable_bytes(total / 2)
            .with_topics(topics)
    }

    #[test]
    fn the_request_asks_for_every_topic() {
        assert!(
            request().topics.is_none(),
            "null is every topic; [] is none"
        );
    }

    #[test]
    fn dirs_sum_current_replicas_and_unreported_space_is_none() {
        let response = DescribeLogDirsResponse::default().with_results(vec![
            dir(
                "/a",
                1000,
                &[
                    ("orders", 0, 100, false),
                    ("orders", 1, 50, false),
                    ("orders", 1, 7, true),
                ],
            ),
            dir("/b", -1, &[]),
        ]);
        let dirs = read(&response, 1).expect("no error");
        assert_eq!(
            dirs[0].used_bytes(),
            150,
            "the future replica is not counted"
        );
        let orders = dirs[0].topic("orders").expect("orders in /a");
        assert_eq!(dirs[0].topics.len(), 1, "one entry per topic");
        let partition_1: Vec<(i64, bool)> = orders
            .partition(1)
            .iter()
            .map(|r| (r.size, r.future))
            .collect();
        assert_eq!(partition_1, [(50, false), (7, true)], "current first");
        assert_eq!(orders.partition(0).len(), 1);
        assert!(orders.partition(2).is_empty());
        assert!(dirs[0].topic("payments").is_none());
        assert_eq!(dirs[0].total_bytes, Some(1000));
        assert_eq!(dirs[0].usable_bytes, Some(500));
        assert_eq!(dirs[1].total_bytes, None, "-1: not reported");
        assert_eq!(dirs[1].used_bytes(), 0);
        let denied = DescribeLogDirsResponse::default().with_error_code(31);
        assert!(read(&denied, 1).is_err_and(|e| e.is_not_authorised()));
    }
}
