//! The metadata layer against the real shared 3-broker cluster.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use kscope::conn::ErrorCode;
use kscope::conn::protocol::StrBytes;
use kscope::conn::protocol::messages::create_topics_request::CreatableTopic;
use kscope::conn::protocol::messages::{CreateTopicsRequest, TopicName};
use kscope::meta::{Cluster, ClusterConfig, Error, MovementKind, TopicPartition};

/// Serializes `scripts/kafka-cluster move-leader` within this test binary.
static MOVES: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn unique(prefix: &str) -> String {
    format!("{prefix}-{:08x}", rand::random::<u32>())
}

/// One partition as `kafka-topics --describe` prints it.
#[derive(Debug, PartialEq, Eq)]
struct Described {
    leader: Option<i32>,
    replicas: Vec<i32>,
    isr: Vec<i32>,
}

fn ids(text: &str) -> Vec<i32> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

/// Kafka's own view of a topic, from `TopicCommand --describe`.
fn describe(env: &support::ClusterEnv, topic: &str) -> BTreeMap<i32, Described> {
    let out = env.topic_command(&["--describe", "--topic", topic]);
    out.lines()
        .filter(|line| line.contains("Partition: "))
        .map(|line| {
            let fields: BTreeMap<&str, &str> = line
                .split('\t')
                .filter_map(|f| {
                    f.split_once(": ")
                        .or_else(|| f.strip_suffix(':').map(|k| (k, "")))
                })
                .collect();
            let partition = fields["Partition"].parse().unwrap();
            let mut isr = ids(fields["Isr"]);
            isr.sort_unstable();
            let leader = fields["Leader"].parse().ok();
            (
                partition,
                Described {
                    leader,
                    replicas: ids(fields["Replicas"]),
                    isr,
                },
            )
        })
        .collect()
}

fn list_topics(env: &support::ClusterEnv) -> Vec<String> {
    env.topic_command(&["--list"])
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Create a topic with kscope's own `CreateTopics` (routed to the controller).
async fn create_topic(cluster: &Cluster, name: &str, partitions: i32, replication: i16) {
    let request = CreateTopicsRequest::default()
        .with_timeout_ms(30_000)
        .with_topics(vec![
            CreatableTopic::default()
                .with_name(TopicName(StrBytes::from_string(name.to_owned())))
                .with_num_partitions(partitions)
                .with_replication_factor(replication),
        ]);
    let response = cluster.send_routed(request).await.expect("create topics");
    let code = response.topics[0].error_code;
    assert_eq!(code, 0, "creating '{name}' failed with code {code}");
    wait_for_leaders(cluster, name, partitions).await;
}

async fn wait_for_leaders(cluster: &Cluster, name: &str, partitions: i32) {
    support::wait_until_async(
        Duration::from_secs(30),
        "leaders for every partition",
        || async {
            let snapshot = cluster.refresh_topics(&[name]).await.ok()?;
            let topic = snapshot.topic(name)?;
            let complete = topic.partitions.len() == usize::try_from(partitions).unwrap()
                && topic
                    .partitions
                    .iter()
                    .all(|p| p.leader.is_some() && p.isr.len() == p.replicas.len());
            complete.then_some(())
        },
    )
    .await;
}

fn our_view(cluster: &Cluster, topic: &str) -> BTreeMap<i32, Described> {
    let snapshot = cluster.snapshot();
    snapshot
        .topic(topic)
        .expect("topic in snapshot")
        .partitions
        .iter()
        .map(|p| {
            let mut isr = p.isr.to_vec();
            isr.sort_unstable();
            (
                p.partition,
                Described {
                    leader: p.leader,
                    replicas: p.replicas.to_vec(),
                    isr,
                },
            )
        })
        .collect()
}

async fn connect(env: &support::ClusterEnv, config: ClusterConfig) -> Cluster {
    Cluster::connect(env.bootstrap_list(), config)
        .await
        .expect("connect")
}

#[tokio::test]
async fn a_full_refresh_sees_what_kafkas_tools_report() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let topic = unique("meta-full");
    create_topic(&cluster, &topic, 6, 3).await;

    let snapshot = cluster.refresh().await.expect("full refresh");
    let brokers: Vec<i32> = snapshot.brokers().iter().map(|b| b.node_id).collect();
    assert_eq!(brokers, [1, 2, 3]);
    assert!(snapshot.controller_id().is_some());
    assert!(
        snapshot
            .topic("__consumer_offsets")
            .is_some_and(|t| t.internal)
    );
    assert_eq!(our_view(&cluster, &topic), describe(&env, &topic));
    let stats = snapshot.topic_stats(&topic).copied().unwrap();
    assert_eq!(
        (stats.partitions, stats.replication_factor, stats.offline),
        (6, 3, 0)
    );
    let led: usize = brokers.iter().map(|b| snapshot.leader_count(*b)).sum();
    assert_eq!(led, snapshot.partition_count());
}

#[tokio::test]
async fn a_topic_scoped_refresh_sees_what_kafkas_tools_report() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let topic = unique("meta-scoped");
    let before = cluster.snapshot();
    assert!(before.topic(&topic).is_none());
    create_topic(&cluster, &topic, 4, 2).await;
    let merged = cluster
        .refresh_topics(&[&topic])
        .await
        .expect("topic refresh");
    assert_eq!(merged.topic(&topic).map(|t| t.partitions.len()), Some(4));
    assert_eq!(our_view(&cluster, &topic), describe(&env, &topic));
    assert!(
        cluster
            .movements()
            .iter()
            .any(|e| e.topic.as_deref() == Some(topic.as_str())
                && matches!(e.kind, MovementKind::TopicCreated { partitions: 4 })),
        "the new topic is a topic_created event"
    );
}

#[tokio::test]
async fn refreshing_a_missing_topic_creates_nothing() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let missing = unique("meta-missing");
    let snapshot = cluster.refresh_topics(&[&missing]).await.expect("refresh");
    assert!(snapshot.topic(&missing).is_none());
    let error = cluster
        .leader_for(&missing, 0)
        .await
        .expect_err("no such topic");
    assert_eq!(
        error.code(),
        Some(ErrorCode::UnknownTopicOrPartition),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        format!("topic '{missing}': unknown topic or partition")
    );
    // The cluster has auto.create.topics.enable=true: the request is what keeps it away.
    assert!(!list_topics(&env).contains(&missing));
    assert!(cluster.refresh().await.unwrap().topic(&missing).is_none());
}

#[tokio::test]
async fn a_preferred_leader_move_is_one_event_at_once_when_watched() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    leader_move_is_exactly_one_leader_changed_event(&env, true).await;
}

#[tokio::test]
async fn a_preferred_leader_move_is_one_event_within_the_refresh_interval() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    leader_move_is_exactly_one_leader_changed_event(&env, false).await;
}

/// Reorder the replicas and elect: one `leader_changed` with the new epoch,
/// seen by the watched-topic refresh or by the background full refresh.
async fn leader_move_is_exactly_one_leader_changed_event(env: &support::ClusterEnv, watched: bool) {
    let config = ClusterConfig {
        refresh_interval: if watched {
            Duration::from_mins(5)
        } else {
            Duration::from_secs(1)
        },
        watched_refresh_interval: Duration::from_millis(500),
        ..ClusterConfig::default()
    };
    let cluster = connect(env, config).await;
    let topic = unique("meta-move");
    create_topic(&cluster, &topic, 1, 3).await;
    let before = cluster.snapshot().partition(&topic, 0).cloned().unwrap();
    let from = before.leader.unwrap();
    let to = *before.replicas.iter().find(|r| **r != from).unwrap();

    if watched {
        // The view's topic is watched: the move shows up without a full refresh.
        cluster.watch_topics(vec![topic.clone()]);
    }
    let mut feed = cluster.subscribe_movements();
    let moved = {
        let env = env.clone();
        let topic = topic.clone();
        tokio::task::spawn_blocking(move || {
            // `move-leader` writes one reassignment file per cluster: two at
            // once in this process would race on it.
            let _one_at_a_time = MOVES
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            env.script(&["move-leader", &topic, "0", &to.to_string()]);
        })
    };
    let event = tokio::time::timeout(Duration::from_secs(90), async {
        loop {
            let received = feed.recv().await.expect("movement feed");
            if let Some(event) = received.events.iter().find(|event| {
                event.topic.as_deref() == Some(topic.as_str())
                    && matches!(event.kind, MovementKind::LeaderChanged { .. })
            }) {
                return event.clone();
            }
        }
    })
    .await
    .expect("a leader_changed event within the deadline");
    moved.await.unwrap();
    assert_eq!(event.partition, Some(0));
    let MovementKind::LeaderChanged {
        from: seen_from,
        to: seen_to,
        epoch,
    } = event.kind
    else {
        unreachable!()
    };
    assert_eq!((seen_from, seen_to), (from, to));
    assert!(
        epoch > before.leader_epoch,
        "epoch {epoch} after {}",
        before.leader_epoch
    );

    let after = cluster.refresh().await.unwrap();
    assert_eq!(after.leader_for(&topic, 0), Some(to));
    assert_eq!(
        after.partition(&topic, 0).map(|p| p.leader_epoch),
        Some(epoch)
    );
    let leader_events = cluster
        .movements()
        .into_iter()
        .filter(|e| e.topic.as_deref() == Some(topic.as_str()))
        .filter(|e| matches!(e.kind, MovementKind::LeaderChanged { .. }))
        .count();
    assert_eq!(leader_events, 1);
}

#[tokio::test]
async fn watermarks_come_from_one_request_per_leader() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let topic = unique("meta-offsets");
    create_topic(&cluster, &topic, 6, 3).await;
    env.produce_perf(&topic, 300, 10, &["acks=all"]);
    let partitions: Vec<TopicPartition> = (0..6).map(|p| TopicPartition::new(&topic, p)).collect();
    let marks = cluster.watermarks(&partitions).await.expect("watermarks");
    assert_eq!(marks.len(), 6);
    let total: i64 = marks.values().map(|w| w.high - w.low).sum();
    assert_eq!(total, 300);
    assert!(marks.values().all(|w| w.low == 0));

    let missing = [TopicPartition::new(&topic, 99)];
    let error = cluster
        .watermarks(&missing)
        .await
        .expect_err("no partition 99");
    assert!(
        error
            .to_string()
            .contains(&format!("topic '{topic}' partition 99")),
        "{error}"
    );
}

#[tokio::test]
async fn concurrent_refreshes_collapse_and_old_invalidations_are_no_ops() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let start = cluster.generation();
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let cluster = cluster.clone();
        tasks.push(tokio::spawn(
            async move { cluster.refresh().await.map(|_| ()) },
        ));
    }
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    let installs = cluster.generation() - start;
    assert!(
        (1..8).contains(&installs),
        "8 concurrent refreshes made {installs} installs"
    );

    let mut generations = cluster.watch_generation();
    let seen = cluster.generation();
    cluster.refresh().await.unwrap();
    assert!(
        !cluster.invalidate_generation(seen),
        "a newer snapshot answered it already"
    );
    assert!(cluster.invalidate_generation(cluster.generation()));
    tokio::time::timeout(Duration::from_secs(10), async {
        generations.borrow_and_update();
        generations.changed().await.unwrap();
        while *generations.borrow_and_update() <= seen + 1 {
            generations.changed().await.unwrap();
        }
    })
    .await
    .expect("the invalidation refreshes in the background");
    assert!(!cluster.snapshot().brokers().is_empty());
    assert!(cluster.degraded().is_none());
}

#[tokio::test]
async fn a_group_coordinator_is_found() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let node = cluster
        .coordinator_for(&unique("meta-group"))
        .await
        .expect("coordinator");
    assert!((1..=3).contains(&node));
}

#[tokio::test]
async fn send_routed_refuses_what_needs_a_key() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let request = kscope::conn::protocol::messages::ListOffsetsRequest::default();
    let error = cluster
        .send_routed(request)
        .await
        .expect_err("needs a leader");
    assert!(
        matches!(error, Error::Unroutable { .. }) && error.to_string().contains("send_to_leader"),
        "{error}"
    );
}

#[tokio::test]
async fn dropping_the_last_cluster_stops_the_background_task() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let clone = cluster.clone();
    let probe = cluster.refresher_probe();
    assert!(probe.is_running());
    drop(cluster);
    assert!(probe.is_running(), "a clone still holds the cluster");
    drop(clone);
    tokio::time::timeout(Duration::from_secs(5), probe.clone().stopped())
        .await
        .expect("the refresher stops when the last cluster is dropped");
    assert!(!probe.is_running());
}

/// Kafka's own answer to "who is the active controller", from
/// `MetadataQuorumCommand describe --status` (`LeaderId:`).
fn quorum_leader(env: &support::ClusterEnv) -> i32 {
    let out = env.script(&[
        "tool",
        "org.apache.kafka.tools.MetadataQuorumCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "describe",
        "--status",
    ]);
    out.lines()
        .find_map(|line| line.strip_prefix("LeaderId:"))
        .and_then(|id| id.trim().parse().ok())
        .unwrap_or_else(|| panic!("no LeaderId in:\n{out}"))
}

#[tokio::test]
async fn the_controller_is_the_quorum_leader_and_does_not_flap_between_refreshes() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = connect(&env, ClusterConfig::default()).await;
    let expected = quorum_leader(&env);
    // A KRaft broker's Metadata names a random live broker as controller on
    // every answer: over a dozen refreshes of a 3-broker cluster that would
    // change (all equal by chance: (1/3)^11).
    let mut seen = Vec::new();
    for _ in 0..12 {
        let snapshot = cluster.refresh().await.expect("full refresh");
        seen.push(snapshot.controller_id());
    }
    assert!(
        seen.iter().all(|id| *id == Some(expected)),
        "controller per refresh {seen:?}, quorum leader {expected}"
    );
    // The test cluster runs three combined broker+controller nodes.
    assert_eq!(cluster.snapshot().quorum_voters(), [1, 2, 3]);
    let flaps: Vec<_> = cluster
        .movements()
        .into_iter()
        .filter(|e| matches!(e.kind, MovementKind::ControllerChanged { .. }))
        .filter(|e| {
            e.kind
                != MovementKind::ControllerChanged {
                    from: None,
                    to: Some(expected),
                }
        })
        .collect();
    assert!(flaps.is_empty(), "controller_changed events: {flaps:?}");
}
