//! `kscope consume __consumer_offsets` against the real cluster: a group's
//! offsets committed with Kafka's own `ConsumerGroupCommand --reset-offsets
//! --execute` come back from `--group G -o json` as exactly those commits,
//! in order, with their topic, partition, offset and commit time, read from
//! the one partition the coordinator keeps the group in; a group that Kafka's
//! console consumer joined shows its group metadata (protocol, generation,
//! the member's client id and host) beside its commits.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use support::{ClusterEnv, kscope, unique};

fn now_ms() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// A topic of `partitions` partitions, replicated as far as the cluster allows.
fn create_topic(env: &ClusterEnv, topic: &str, partitions: i32) {
    let nodes: u8 = env.get("KSCOPE_NODES").parse().unwrap_or(1);
    let rf = nodes.min(3).to_string();
    let count = partitions.to_string();
    env.create_topic_with_kafka(
        topic,
        &["--partitions", &count, "--replication-factor", &rf],
    );
    support::wait_until(Duration::from_secs(30), "the topic's leaders", || {
        let output = kscope(env, &["get", "partitions", topic, "-o", "json"]);
        let rows = serde_json::from_slice::<Value>(&output.stdout).ok()?;
        let rows = rows.as_array()?;
        (rows.len() == usize::try_from(partitions).unwrap()
            && rows.iter().all(|r| r["leader"].is_i64()))
        .then_some(())
    });
}

/// Five records in every partition: keys the Java client's partitioner
/// places there, written by Kafka's console producer.
fn produce(env: &ClusterEnv, topic: &str, partitions: i32) {
    let mut per = vec![0; usize::try_from(partitions).unwrap()];
    let mut keys = Vec::new();
    for n in 0.. {
        let key = format!("k{n}");
        let p = kscope::browse::partitioner::partition_for_key(key.as_bytes(), partitions).unwrap();
        let slot = &mut per[usize::try_from(p).unwrap()];
        if *slot < 5 {
            *slot += 1;
            keys.push(key);
        }
        if per.iter().all(|&c| c == 5) {
            break;
        }
    }
    let lines: Vec<String> = keys.iter().map(|k| format!("{k}\tvalue")).collect();
    env.console_produce(topic, &lines, &support::KEYED);
}

/// Commit `offset` for `group` on `topic:partition` with Kafka's own tool.
fn reset(env: &ClusterEnv, group: &str, topic: &str, partition: i32, offset: i64) {
    env.script(&[
        "tool",
        "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "--group",
        group,
        "--reset-offsets",
        "--topic",
        &format!("{topic}:{partition}"),
        "--to-offset",
        &offset.to_string(),
        "--execute",
    ]);
}

/// `consume __consumer_offsets ARGS -o json`: each line's `decoded`, and stderr.
fn history(env: &ClusterEnv, args: &[&str]) -> (Vec<Value>, String) {
    let mut all = vec!["consume", "__consumer_offsets", "-o", "json"];
    all.extend(args);
    let output = kscope(env, &all);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "kscope consume failed: {stderr}");
    let lines = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .collect();
    (lines, stderr)
}

#[test]
fn a_groups_commit_history_is_the_offsets_it_committed_in_order() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("offsets-history");
    create_topic(&env, &topic, 3);
    produce(&env, &topic, 3);
    let group = unique("history");
    let started = now_ms();
    let commits = [(0, 2), (1, 1), (0, 4), (2, 5), (1, 3)];
    for (partition, offset) in commits {
        reset(&env, &group, &topic, partition, offset);
    }
    let ended = now_ms();
    let (records, stderr) = history(&env, &["--group", &group]);
    assert!(stderr.contains("is in partition"), "{stderr}");
    let partition = records.first().map(|r| r["partition"].clone());
    for record in &records {
        let decoded = &record["decoded"];
        assert_eq!(decoded["group"], group.as_str(), "{record}");
        assert_eq!(
            record["partition"],
            partition.clone().unwrap(),
            "one partition"
        );
    }
    let seen: Vec<(i64, i64)> = records
        .iter()
        .map(|r| &r["decoded"])
        .filter(|d| d["type"] == "offset_commit")
        .map(|d| {
            assert_eq!(d["topic"], topic.as_str(), "{d}");
            let at = d["commit_timestamp"].as_i64().unwrap();
            assert!(
                (started - 1000..=ended + 1000).contains(&at),
                "commit time {d}"
            );
            (
                d["partition"].as_i64().unwrap(),
                d["offset"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        commits
            .iter()
            .map(|&(p, o)| (i64::from(p), o))
            .collect::<Vec<_>>(),
        "the commits, in order: {records:#?}"
    );
    // Without --group, the group's partition read whole: the same commits
    // among other groups' records, every record decoded.
    let p = partition.unwrap().as_i64().unwrap().to_string();
    let (all, _) = history(&env, &["-p", &p]);
    assert!(all.iter().all(|r| r["decoded"].is_object()), "{all:#?}");
    let ours = all
        .iter()
        .filter(|r| r["decoded"]["group"] == group.as_str())
        .count();
    assert_eq!(ours, records.len());
    // --group is for __consumer_offsets only.
    let output = kscope(&env, &["consume", &topic, "--group", &group]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--group"));
}

#[test]
fn a_console_consumers_group_shows_its_metadata_and_its_commits() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("offsets-members");
    create_topic(&env, &topic, 2);
    produce(&env, &topic, 2);
    let group = unique("console");
    env.script(&[
        "tool",
        "org.apache.kafka.tools.consumer.ConsoleConsumer",
        "--bootstrap-server",
        env.bootstrap(),
        "--topic",
        &topic,
        "--group",
        &group,
        "--from-beginning",
        "--max-messages",
        "10",
        "--timeout-ms",
        "60000",
        "--consumer-property",
        "client.id=history-client",
    ]);
    let (records, _) = history(&env, &["--group", &group]);
    let metadata: Vec<&Value> = records
        .iter()
        .map(|r| &r["decoded"])
        .filter(|d| d["type"] == "group_metadata")
        .collect();
    let joined = metadata
        .iter()
        .find(|d| d["members"].as_array().is_some_and(|m| !m.is_empty()))
        .unwrap_or_else(|| panic!("a group metadata record with members: {records:#?}"));
    assert_eq!(joined["protocol_type"], "consumer");
    assert!(joined["generation"].as_i64().unwrap() >= 1, "{joined}");
    assert!(joined["protocol"].is_string(), "{joined}");
    let member = &joined["members"][0];
    assert_eq!(member["client_id"], "history-client");
    assert!(member["client_host"].is_string());
    assert!(member["session_timeout_ms"].as_i64().unwrap() > 0);
    assert_eq!(joined["leader"], member["member_id"]);
    // Its last commit per partition is where it stopped: 5 records each.
    let mut last = std::collections::BTreeMap::new();
    for d in records.iter().map(|r| &r["decoded"]) {
        if d["type"] == "offset_commit" && d["topic"] == topic.as_str() {
            last.insert(
                d["partition"].as_i64().unwrap(),
                d["offset"].as_i64().unwrap(),
            );
        }
    }
    assert_eq!(last.into_iter().collect::<Vec<_>>(), vec![(0, 5), (1, 5)]);
    // The table shows each record as one readable line.
    let output = kscope(&env, &["consume", "__consumer_offsets", "--group", &group]);
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(
        table.contains(&format!("commit {group} {topic}-0 @ 5")),
        "{table}"
    );
    assert!(
        table.contains(&format!("group {group} consumer gen ")),
        "{table}"
    );
}
