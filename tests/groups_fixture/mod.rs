//! What the groups integration tests share: a cluster handle, topics,
//! records, offset commits made the cheap way (an `OffsetCommit` from the
//! test, never from the code under test), and Kafka's console consumer as a
//! live member.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use kscope::conn::protocol::StrBytes;
use kscope::conn::protocol::messages::create_topics_request::CreatableTopic;
use kscope::conn::protocol::messages::offset_commit_request::{
    OffsetCommitRequestPartition, OffsetCommitRequestTopic,
};
use kscope::conn::protocol::messages::{
    CreateTopicsRequest, GroupId, OffsetCommitRequest, TopicName,
};
use kscope::meta::offsets::TopicPartition;
use kscope::meta::{Cluster, ClusterConfig, CoordinatorKind};

use super::support::{self, ClusterEnv};

/// A name nobody else on the shared cluster uses.
pub fn unique(prefix: &str) -> String {
    format!("{prefix}-{:08x}", rand::random::<u32>())
}

pub async fn cluster(env: &ClusterEnv) -> Cluster {
    Cluster::connect(env.bootstrap_list(), ClusterConfig::default())
        .await
        .expect("connect to the cluster")
}

/// Create `topic` and wait until every partition has a leader.
pub async fn create_topic(cluster: &Cluster, topic: &str, partitions: i32) {
    let request = CreateTopicsRequest::default()
        .with_topics(vec![
            CreatableTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic.to_owned())))
                .with_num_partitions(partitions)
                .with_replication_factor(3),
        ])
        .with_timeout_ms(30_000);
    let response = cluster
        .send_to_controller(request)
        .await
        .expect("create topics");
    assert_eq!(response.topics[0].error_code, 0, "creating '{topic}'");
    support::wait_until_async(Duration::from_secs(30), "topic leaders", || async {
        let snapshot = cluster.refresh_topics(&[topic]).await.ok()?;
        let info = snapshot.topic(topic)?;
        (info.partitions.len() == usize::try_from(partitions).unwrap()
            && info.partitions.iter().all(|p| p.leader.is_some()))
        .then_some(())
    })
    .await;
}

/// Produce `n` records to `topic` with Kafka's `ProducerPerformance`.
pub fn produce(env: &ClusterEnv, topic: &str, n: u32) {
    produce_with(env, topic, n, &[]);
}

/// Produce `n` records spread over every partition of `topic`: tiny batches
/// make the default (sticky) partitioner switch partitions every few records.
pub fn produce_spread(env: &ClusterEnv, topic: &str, n: u32) {
    produce_with(env, topic, n, &["batch.size=64", "linger.ms=0"]);
}

/// Produce `n` records with extra producer properties.
pub fn produce_with(env: &ClusterEnv, topic: &str, n: u32, props_extra: &[&str]) {
    let records = n.to_string();
    let props = format!("bootstrap.servers={}", env.bootstrap());
    env.script(
        &[
            "tool",
            "org.apache.kafka.tools.ProducerPerformance",
            "--topic",
            topic,
            "--num-records",
            &records,
            "--record-size",
            "16",
            "--throughput",
            "-1",
            "--producer-props",
            &props,
            "acks=all",
        ]
        .into_iter()
        .chain(props_extra.iter().copied())
        .collect::<Vec<&str>>(),
    );
}

/// Each partition's end offset, read with the metadata layer (not groups).
pub async fn ends(cluster: &Cluster, topic: &str, partitions: i32) -> Vec<i64> {
    let tps: Vec<TopicPartition> = (0..partitions)
        .map(|p| TopicPartition::new(topic, p))
        .collect();
    let marks = cluster.watermarks(&tps).await.expect("watermarks");
    tps.iter().map(|tp| marks[tp].high).collect()
}

/// Commit offsets for `group` as a simple (memberless) consumer would.
pub async fn commit(cluster: &Cluster, group: &str, topic: &str, offsets: &[(i32, i64)]) {
    let partitions = offsets
        .iter()
        .map(|(p, o)| {
            OffsetCommitRequestPartition::default()
                .with_partition_index(*p)
                .with_committed_offset(*o)
                .with_committed_leader_epoch(-1)
        })
        .collect();
    let request = OffsetCommitRequest::default()
        .with_group_id(GroupId(StrBytes::from_string(group.to_owned())))
        .with_generation_id_or_member_epoch(-1)
        .with_member_id(StrBytes::from_static_str(""))
        .with_topics(vec![
            OffsetCommitRequestTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic.to_owned())))
                .with_partitions(partitions),
        ]);
    // A fresh coordinator answers COORDINATOR_LOAD_IN_PROGRESS / NOT_COORDINATOR
    // inside a successful response: re-ask after forgetting the coordinator.
    // A topic created a moment ago may not have reached the coordinator's
    // metadata yet (UNKNOWN_TOPIC_OR_PARTITION): re-ask the same broker.
    support::wait_until_async(
        Duration::from_mins(1),
        "an accepted offset commit",
        || async {
            let response = cluster
                .send_to_coordinator(CoordinatorKind::Group, group, request.clone())
                .await
                .ok()?;
            let codes: Vec<i16> = response
                .topics
                .iter()
                .flat_map(|t| &t.partitions)
                .map(|p| p.error_code)
                .collect();
            if codes.iter().any(|c| [14, 15, 16].contains(c)) {
                cluster.invalidate_coordinator(CoordinatorKind::Group, group);
                return None;
            }
            if codes.contains(&3) {
                return None;
            }
            assert!(
                codes.iter().all(|c| *c == 0),
                "commit for '{group}': {codes:?}"
            );
            Some(())
        },
    )
    .await;
}

/// A console consumer running as a live group member; killed on drop.
pub struct LiveConsumer {
    child: Child,
}

impl LiveConsumer {
    /// Start one for `group` on `topic` (`protocol` `classic` or `consumer`).
    pub fn start(env: &ClusterEnv, group: &str, topic: &str, protocol: &str) -> LiveConsumer {
        use std::os::unix::process::CommandExt;
        let child = Command::new(support::repo().join("scripts/kafka-cluster"))
            .args(["tool", "--name", env.name()])
            .args(["org.apache.kafka.tools.consumer.ConsoleConsumer"])
            .args([
                "--bootstrap-server",
                env.bootstrap(),
                "--topic",
                topic,
                "--group",
                group,
            ])
            .args(["--from-beginning", "--timeout-ms", "60000"])
            .args(["--consumer-property", &format!("group.protocol={protocol}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start console consumer");
        LiveConsumer { child }
    }
}

impl Drop for LiveConsumer {
    fn drop(&mut self) {
        // The script runs java as a child: end the whole process group we started.
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
        let _ = self.child.wait();
    }
}

/// Kafka's console consumer for exactly `max` records, then exit (it commits
/// its position on close).
pub fn consume(env: &ClusterEnv, group: &str, topic: &str, protocol: &str, max: u32) {
    let max = max.to_string();
    let protocol = format!("group.protocol={protocol}");
    env.script(&[
        "tool",
        "org.apache.kafka.tools.consumer.ConsoleConsumer",
        "--bootstrap-server",
        env.bootstrap(),
        "--topic",
        topic,
        "--group",
        group,
        "--from-beginning",
        "--max-messages",
        &max,
        "--timeout-ms",
        "30000",
        "--consumer-property",
        &protocol,
        "--consumer-property",
        "max.poll.records=1",
    ]);
}

/// Delete (empty) groups, batched per coordinator, so the shared cluster does
/// not keep what a test created. Failures are reported, not fatal.
pub async fn delete_groups(cluster: &Cluster, groups: &[(String, i32)]) {
    use kscope::conn::protocol::messages::DeleteGroupsRequest;
    let mut by_node: std::collections::BTreeMap<i32, Vec<GroupId>> =
        std::collections::BTreeMap::new();
    for (group, node) in groups {
        by_node
            .entry(*node)
            .or_default()
            .push(GroupId(StrBytes::from_string(group.clone())));
    }
    for (node, names) in by_node {
        for chunk in names.chunks(200) {
            let request = DeleteGroupsRequest::default().with_groups_names(chunk.to_vec());
            match cluster.send_to_node(node, request).await {
                Ok(response) => {
                    let failed = response
                        .results
                        .iter()
                        .filter(|r| r.error_code != 0)
                        .count();
                    if failed > 0 {
                        eprintln!("{failed} groups on broker {node} were not deleted");
                    }
                }
                Err(error) => eprintln!("deleting groups on broker {node}: {error}"),
            }
        }
    }
}
