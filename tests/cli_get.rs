//! The headless CLI, run as the built binary against the shared cluster.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use support::{kscope, unique};

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

fn json(env: &support::ClusterEnv, args: &[&str]) -> Vec<Value> {
    let output = kscope(env, args);
    support::assert_success(&output, &format!("kscope {}", args.join(" ")));
    serde_json::from_slice::<Value>(&output.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn keys(row: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = row
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[test]
fn get_brokers_prints_the_three_brokers_with_stable_fields() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let rows = json(&env, &["get", "brokers", "-o", "json"]);
    assert_eq!(rows.len(), 3);
    assert_eq!(
        keys(&rows[0]),
        ["controller", "host", "id", "leaders", "port", "rack"]
    );
    assert_eq!(rows.iter().filter(|r| r["controller"] == true).count(), 1);
    let ids: Vec<i64> = rows.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, [1, 2, 3]);

    let table = kscope(&env, &["get", "brokers"]);
    support::assert_success(&table, "kscope get brokers");
    let text = String::from_utf8(table.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with("ID  HOST"));
    // Numbers are right-aligned under their header: a port ends where PORT ends.
    let column = lines[0].find("PORT").unwrap() + "PORT".len();
    let ports: Vec<String> = env
        .bootstrap_list()
        .iter()
        .map(|address| address.rsplit(':').next().unwrap().to_owned())
        .collect();
    assert!(
        lines[1..]
            .iter()
            .zip(&ports)
            .all(|(line, port)| line[..column].ends_with(port.as_str())),
        "{text}"
    );
}

#[test]
fn get_topics_and_partitions_describe_a_new_topic() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("cli-get");
    support::create_topic(&env, &topic, "3", &[]);

    let topics = json(&env, &["get", "topics", "-o", "json"]);
    let row = topics
        .iter()
        .find(|t| t["name"] == topic.as_str())
        .expect("new topic listed");
    assert_eq!(
        keys(row),
        [
            "id",
            "internal",
            "name",
            "offline",
            "partitions",
            "preferred_leader_pct",
            "replication_factor",
            "under_replicated"
        ]
    );
    assert_eq!(
        (
            row["partitions"].as_i64(),
            row["replication_factor"].as_i64()
        ),
        (Some(3), Some(3))
    );
    assert_eq!(row["internal"], false);
    let described = env.topic_command(&["--describe", "--topic", &topic]);
    assert!(
        described.contains(&format!("TopicId: {}", row["id"].as_str().unwrap())),
        "{described}"
    );

    let partitions = json(&env, &["get", "partitions", &topic, "-o", "json"]);
    assert_eq!(partitions.len(), 3);
    assert_eq!(
        keys(&partitions[0]),
        [
            "high_watermark",
            "isr",
            "leader",
            "leader_epoch",
            "low_watermark",
            "offline_replicas",
            "partition",
            "preferred_leader",
            "replicas",
            "topic"
        ]
    );
    assert!(
        partitions
            .iter()
            .all(|p| p["low_watermark"] == 0 && p["high_watermark"] == 0)
    );
    assert!(
        partitions
            .iter()
            .all(|p| p["replicas"].as_array().unwrap().len() == 3)
    );

    let table = kscope(&env, &["get", "topics", &topic]);
    support::assert_success(&table, "kscope get topics TOPIC");
    let text = String::from_utf8(table.stdout).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().nth(1).unwrap().starts_with(&topic));
}

#[test]
fn an_unknown_topic_is_one_line_on_stderr_and_is_never_created() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let missing = unique("cli-missing");
    for what in ["topics", "partitions"] {
        let output = kscope(&env, &["get", what, &missing]);
        assert!(!output.status.success());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(
            stderr,
            format!("kscope: topic '{missing}' does not exist\n")
        );
        assert!(output.stdout.is_empty());
    }
    let listed = env.topic_command(&["--list"]);
    assert!(
        !listed.lines().any(|l| l == missing),
        "the topic was auto-created"
    );
}

#[test]
fn an_unreachable_cluster_fails_with_one_line() {
    let Some(_env) = support::shared_cluster() else {
        return;
    };
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(["-b", "127.0.0.1:1", "get", "brokers"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("127.0.0.1:1"), "{stderr}");
}

#[test]
fn watch_leaders_prints_one_json_object_per_event() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("cli-watch");
    support::create_topic(&env, &topic, "1", &[]);
    let partition = &json(&env, &["get", "partitions", &topic, "-o", "json"])[0];
    let from = partition["leader"].as_i64().unwrap();
    let to = partition["replicas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_i64().unwrap())
        .find(|r| *r != from)
        .unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args([
            "-b",
            env.bootstrap(),
            "watch",
            "leaders",
            &topic,
            "-o",
            "json",
            "--interval",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (lines, received) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                return;
            }
        }
    });
    env.script(&["move-leader", &topic, "0", &to.to_string()]);

    let deadline = Instant::now() + Duration::from_mins(1);
    let event = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = received
            .recv_timeout(left)
            .expect("a leader_changed line before the deadline");
        let event: Value = serde_json::from_str(&line).expect("each line is one json object");
        if event["kind"] == "leader_changed" {
            break event;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(event["topic"], topic.as_str());
    assert_eq!(event["partition"], 0);
    assert_eq!(
        (event["from"].as_i64(), event["to"].as_i64()),
        (Some(from), Some(to))
    );
    assert!(event["epoch"].as_i64().unwrap() > partition["leader_epoch"].as_i64().unwrap());
    let time = event["time"].as_str().unwrap();
    assert!(
        time.len() >= 20 && time.as_bytes()[10] == b'T' && time.ends_with('Z'),
        "{time}"
    );
}

#[test]
fn get_groups_and_describe_group_through_the_binary() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("cli-groups");
    let group = unique("cli-group");
    support::create_topic(&env, &topic, "2", &[]);
    // A classic group with a commit on partition 0 only, and no member.
    env.script(&[
        "tool",
        "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "--group",
        &group,
        "--reset-offsets",
        "--topic",
        &format!("{topic}:0"),
        "--to-offset",
        "0",
        "--execute",
    ]);
    let rows = json(&env, &["get", "groups", "-o", "json"]);
    let row = rows
        .iter()
        .find(|r| r["group"] == group.as_str())
        .unwrap_or_else(|| panic!("group {group} listed"));
    for field in [
        "group",
        "type",
        "state",
        "members",
        "coordinator",
        "lag",
        "topics",
    ] {
        assert!(row.get(field).is_some(), "field {field} in {row}");
    }
    assert_eq!(row["type"], "classic");
    assert_eq!(row["state"], "Empty");

    let output = kscope(&env, &["describe", "group", &group, "-o", "json"]);
    support::assert_success(&output, "kscope describe group");
    let detail: Value = serde_json::from_slice(&output.stdout).unwrap();
    let offsets = detail["offsets"].as_array().unwrap();
    let committed: Vec<(i64, Value)> = offsets
        .iter()
        .map(|o| (o["partition"].as_i64().unwrap(), o["committed"].clone()))
        .collect();
    assert!(committed.contains(&(0, Value::from(0))), "{committed:?}");
    assert!(
        committed.contains(&(1, Value::Null)),
        "partition 1 has no commit: {committed:?}"
    );
}
