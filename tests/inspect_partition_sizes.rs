//! Per-partition replica sizes against the real shared cluster: every
//! broker holding a replica of a partition reports it (one current replica
//! each, none future: nothing is being moved between log dirs), empty
//! before producing and grown after. A future replica's lag needs two log
//! dirs per broker and an `AlterReplicaLogDirs` in flight; the test
//! cluster has one dir per broker, so that path is tested on decoded
//! answers (`inspect::log_dirs`, `inspect::sizes`, `app::screens::partitions::columns`
//! unit tests and `tests/tui_partition_sizes.rs`).

mod groups_fixture;
mod support;

use std::time::Duration;

use kscope::inspect::{BrokerReplica, ClusterSizes, log_dirs};
use kscope::meta::Cluster;

/// Every broker's log dirs summed against a fresh snapshot of `topic`.
async fn sizes(cluster: &Cluster, topic: &str) -> ClusterSizes {
    let snapshot = cluster
        .refresh_topics(&[topic])
        .await
        .expect("the topic's metadata");
    let brokers: Vec<i32> = snapshot.brokers().iter().map(|b| b.node_id).collect();
    ClusterSizes::of(log_dirs::describe(cluster, &brokers).await, &snapshot)
}

/// The brokers holding a current replica of `partition`, and its sizes.
fn current(sizes: &ClusterSizes, topic: &str, partition: i32) -> Vec<BrokerReplica> {
    let replicas = sizes.replicas(topic, partition);
    assert!(
        replicas.iter().all(|r| !r.future),
        "no move between log dirs: {replicas:?}"
    );
    replicas
}

#[tokio::test]
async fn each_replica_of_a_partition_reports_its_size_and_grows_after_producing() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("inspect-replicas");
    env.create_topic_with_kafka(&topic, &["--partitions", "2", "--replication-factor", "3"]);
    let cluster = groups_fixture::cluster(&env).await;

    let empty = sizes(&cluster, &topic).await;
    for partition in [0, 1] {
        let replicas = current(&empty, &topic, partition);
        let brokers: Vec<i32> = replicas.iter().map(|r| r.broker).collect();
        assert_eq!(brokers, [1, 2, 3], "partition {partition}: every broker");
        assert!(replicas.iter().all(|r| r.size == 0), "{replicas:?}");
    }

    groups_fixture::produce_spread(&env, &topic, 2000);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let grown = loop {
        let sizes = sizes(&cluster, &topic).await;
        let all_grown = [0, 1].iter().all(|&p| {
            let replicas = current(&sizes, &topic, p);
            replicas.len() == 3 && replicas.iter().all(|r| r.size > 0)
        });
        if all_grown {
            break sizes;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "every replica grown within 30 s: {:?}",
            [sizes.replicas(&topic, 0), sizes.replicas(&topic, 1)]
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    let total: i64 = [0, 1]
        .iter()
        .flat_map(|&p| grown.replicas(&topic, p))
        .map(|r| r.size)
        .sum();
    let topic_size = grown.topics.get(&topic).and_then(|s| s.all_replicas);
    assert_eq!(
        topic_size,
        Some(total),
        "the topic's size is the sum of its partitions' replicas"
    );
}
