//! A `SIGKILL`ed broker, on a throwaway cluster of its own: leaders move, the
//! events say so, routed requests follow the new leader, and after a restart
//! the broker rejoins and the ISR grows back. The snapshot is never empty.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use kscope::conn::protocol::StrBytes;
use kscope::conn::protocol::messages::create_topics_request::CreatableTopic;
use kscope::conn::protocol::messages::list_offsets_request::{
    ListOffsetsPartition, ListOffsetsTopic,
};
use kscope::conn::protocol::messages::{
    BrokerId, CreateTopicsRequest, ListOffsetsRequest, TopicName,
};
use kscope::meta::{Cluster, ClusterConfig, MovementEvent, MovementKind, RetryPolicy};

const TOPIC: &str = "meta-kill-orders";

fn latest_offset_request(partition: i32) -> ListOffsetsRequest {
    ListOffsetsRequest::default()
        .with_replica_id(BrokerId(-1))
        .with_topics(vec![
            ListOffsetsTopic::default()
                .with_name(TopicName(StrBytes::from_static_str(TOPIC)))
                .with_partitions(vec![
                    ListOffsetsPartition::default()
                        .with_partition_index(partition)
                        .with_timestamp(-1),
                ]),
        ])
}

async fn events_until(
    feed: &mut kscope::meta::movement_log::MovementFeed,
    seen: &mut Vec<MovementEvent>,
    what: &str,
    done: impl Fn(&[MovementEvent]) -> bool,
) {
    tokio::time::timeout(Duration::from_secs(90), async {
        while !done(seen) {
            let received = feed.recv().await.expect("movement feed");
            assert_eq!(received.missed, 0, "no movement event was skipped");
            seen.extend(received.events.iter().cloned());
        }
    })
    .await
    .unwrap_or_else(|_| panic!("timed out waiting for {what}; saw {seen:#?}"));
}

/// Connect (patiently), check the first coordinator lookup, create the topic.
async fn connect_and_create(env: &support::ClusterEnv) -> Cluster {
    let config = ClusterConfig {
        refresh_interval: Duration::from_secs(1),
        retry: RetryPolicy {
            max_attempts: 40,
            ..RetryPolicy::default()
        },
        ..ClusterConfig::default()
    };
    let cluster = Cluster::connect(env.bootstrap_list(), config)
        .await
        .expect("connect");

    // A fresh cluster: __consumer_offsets does not exist yet, and the first
    // lookup is answered COORDINATOR_NOT_AVAILABLE until it has leaders.
    let coordinator = cluster.coordinator_for("meta-kill-first-group").await;
    assert!(
        coordinator.is_ok(),
        "first coordinator lookup: {coordinator:?}"
    );

    let create = CreateTopicsRequest::default()
        .with_timeout_ms(30_000)
        .with_topics(vec![
            CreatableTopic::default()
                .with_name(TopicName(StrBytes::from_static_str(TOPIC)))
                .with_num_partitions(6)
                .with_replication_factor(3),
        ]);
    assert_eq!(
        cluster.send_routed(create).await.unwrap().topics[0].error_code,
        0
    );
    support::wait_until_async(
        Duration::from_secs(30),
        "leaders for the new topic",
        || async {
            let snapshot = cluster.refresh_topics(&[TOPIC]).await.ok()?;
            let topic = snapshot.topic(TOPIC)?;
            (topic.partitions.len() == 6 && topic.partitions.iter().all(|p| p.isr.len() == 3))
                .then_some(())
        },
    )
    .await;

    cluster
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_broker_moves_its_leaders_and_rejoins() {
    let Some(throwaway) = support::ThrowawayCluster::start("meta-kill", 3, 21092, false) else {
        return;
    };
    let env = throwaway.env().clone();
    let cluster = connect_and_create(&env).await;

    // Watch every installed snapshot: none may be empty.
    let emptiest = Arc::new(AtomicUsize::new(usize::MAX));
    let watcher = {
        let cluster = cluster.clone();
        let emptiest = emptiest.clone();
        let mut generations = cluster.watch_generation();
        tokio::spawn(async move {
            while generations.changed().await.is_ok() {
                let snapshot = cluster.snapshot();
                let size = snapshot.brokers().len().min(snapshot.topics().len());
                emptiest.fetch_min(size, Ordering::Relaxed);
            }
        })
    };

    let victim = cluster.snapshot().leader_for(TOPIC, 0).unwrap();
    let led: BTreeSet<i32> = cluster
        .snapshot()
        .topic(TOPIC)
        .unwrap()
        .partitions
        .iter()
        .filter(|p| p.leader == Some(victim))
        .map(|p| p.partition)
        .collect();
    let mut feed = cluster.subscribe_movements();
    let mut seen = Vec::new();
    env.script(&["kill", &victim.to_string()]);

    // Routed to the dead leader first, retried until it reaches the new one.
    let answer = cluster
        .send_to_leader(TOPIC, 0, latest_offset_request(0))
        .await;
    assert!(answer.is_ok(), "list offsets after the kill: {answer:?}");
    let new_leader = cluster.snapshot().leader_for(TOPIC, 0).unwrap();
    assert_ne!(new_leader, victim);

    events_until(&mut feed, &mut seen, "every led partition to move", |seen| {
        let moved: BTreeSet<i32> = seen.iter()
            .filter(|e| e.topic.as_deref() == Some(TOPIC))
            .filter(|e| matches!(e.kind, MovementKind::LeaderChanged { from, .. } if from == victim))
            .filter_map(|e| e.partition)
            .collect();
        moved == led
    })
    .await;
    events_until(&mut feed, &mut seen, "the ISR to shrink", |seen| {
        seen.iter().any(|e| matches!(&e.kind, MovementKind::IsrShrank { removed, .. } if removed.contains(&victim)))
    })
    .await;
    assert_eq!(cluster.snapshot().leader_count(victim), 0);
    assert!(
        cluster.snapshot().broker(victim).is_none(),
        "a fenced broker leaves the metadata"
    );

    let restart = {
        let env = env.clone();
        tokio::task::spawn_blocking(move || env.script(&["restart", &victim.to_string()]))
    };
    events_until(&mut feed, &mut seen, "the broker to rejoin and the ISR to expand", |seen| {
        let joined = seen.iter().any(|e| matches!(e.kind, MovementKind::BrokerJoined { broker, .. } if broker == victim));
        let expanded: BTreeSet<i32> = seen.iter()
            .filter(|e| e.topic.as_deref() == Some(TOPIC))
            .filter(|e| matches!(&e.kind, MovementKind::IsrExpanded { added, .. } if added.contains(&victim)))
            .filter_map(|e| e.partition)
            .collect();
        joined && expanded.len() == 6
    })
    .await;
    restart.await.unwrap();

    watcher.abort();
    assert!(
        emptiest.load(Ordering::Relaxed) > 0,
        "an empty snapshot was installed"
    );
    assert!(cluster.degraded().is_none());

    whole_cluster_down_is_degraded_not_empty(&env).await;
}

/// Every broker gone: refreshes fail, the last snapshot stays, and the
/// degraded status says since when and why.
async fn whole_cluster_down_is_degraded_not_empty(env: &support::ClusterEnv) {
    let cluster = Cluster::connect(env.bootstrap_list(), ClusterConfig::default())
        .await
        .expect("connect");
    let before = cluster.snapshot();
    for node in ["1", "2", "3"] {
        env.script(&["kill", node]);
    }
    let error = cluster.refresh().await.expect_err("no broker is up");
    let degraded = cluster.degraded().expect("degraded after a failed refresh");
    assert_eq!(degraded.last_error.to_string(), error.to_string());
    assert!(degraded.since <= std::time::SystemTime::now());
    let after = cluster.snapshot();
    assert_eq!(after.brokers().len(), before.brokers().len());
    assert!(
        after.topic(TOPIC).is_some(),
        "the old snapshot stays readable"
    );
}
