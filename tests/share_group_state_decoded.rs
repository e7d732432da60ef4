//! `kscope consume __share_group_state` against the real cluster (Kafka
//! 4.2+): a share group run by Kafka's own `ConsoleShareConsumer` consumes
//! a topic, and its state records come back decoded: snapshots and updates
//! of the group's one share-partition, keyed by the topic's id (as Kafka's
//! `TopicCommand` prints it), with a start offset that ends where the group
//! stands (the start offset `describe group` reads from the coordinator).
//! `--group G --share-partition T:0` reads only the partition kscope
//! computes for it; reading every partition for the group finds its records
//! in that partition and no other, so the computation is the coordinator's.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use support::{ClusterEnv, kscope, unique, wait_until};

/// `ConsoleShareConsumer` in the share group, its process group killed on
/// drop.
struct ShareConsumer(Child);

impl ShareConsumer {
    fn start(env: &ClusterEnv, topic: &str, group: &str) -> ShareConsumer {
        let child = Command::new(support::repo().join("scripts/kafka-cluster"))
            .args(["tool", "--name", env.name()])
            .args([
                "org.apache.kafka.tools.consumer.ConsoleShareConsumer",
                "--bootstrap-server",
                env.bootstrap(),
                "--topic",
                topic,
                "--group",
                group,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start ConsoleShareConsumer");
        ShareConsumer(child)
    }
}

impl Drop for ShareConsumer {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.wait();
    }
}

/// The topic's id as Kafka's `TopicCommand --describe` prints it.
fn kafka_topic_id(env: &ClusterEnv, topic: &str) -> String {
    let text = env.topic_command(&["--describe", "--topic", topic]);
    text.split_whitespace()
        .skip_while(|w| *w != "TopicId:")
        .nth(1)
        .unwrap_or_else(|| panic!("no TopicId in: {text}"))
        .to_owned()
}

/// The records `kscope consume ARGS -o json` prints, and its stderr.
fn consume_json(env: &ClusterEnv, args: &[&str]) -> (Vec<Value>, String) {
    let mut all = vec!["consume", "__share_group_state"];
    all.extend(args);
    all.extend(["-o", "json"]);
    let output = kscope(env, &all);
    support::assert_success(&output, "consume __share_group_state");
    let records = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect();
    (
        records,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The share-partition start offset the group's records leave: the last
/// one that sets it (an update may leave it, writing -1).
fn last_start_offset(records: &[Value]) -> Option<i64> {
    records
        .iter()
        .filter_map(|r| r["decoded"]["start_offset"].as_i64())
        .rfind(|start| *start >= 0)
}

/// The start offset `describe group` reports for the group's partition 0.
fn described_start(env: &ClusterEnv, group: &str) -> Option<i64> {
    let output = kscope(env, &["describe", "group", group, "-o", "json"]);
    let json: Value = serde_json::from_slice(&output.stdout).ok()?;
    json["offsets"]
        .as_array()?
        .iter()
        .find(|o| o["partition"] == 0)?["committed"]
        .as_i64()
}

/// One of the share-partition's state records, as the coordinator writes
/// them: a snapshot or update of the group's partition 0 of the topic (by
/// id), in the state partition kscope computed, with plausible offsets for
/// a topic of 50 records.
fn check_record(record: &Value, group: &str, topic_id: &str, state_partition: i64) {
    let decoded = &record["decoded"];
    assert!(
        decoded["type"] == "share_snapshot" || decoded["type"] == "share_update",
        "{record}"
    );
    assert_eq!(decoded["group_id"], group, "{record}");
    assert_eq!(decoded["topic_id"], topic_id, "{record}");
    assert_eq!(decoded["partition"], 0, "{record}");
    assert_eq!(record["partition"].as_i64(), Some(state_partition));
    assert_eq!(decoded["value_version"], 0, "{record}");
    let start = decoded["start_offset"].as_i64().unwrap();
    assert!((-1..=50).contains(&start), "{record}");
    for batch in decoded["state_batches"].as_array().unwrap() {
        let (first, last) = (
            batch["first_offset"].as_i64().unwrap(),
            batch["last_offset"].as_i64().unwrap(),
        );
        assert!(0 <= first && first <= last && last < 50, "{record}");
        assert!(batch["delivery_count"].as_i64().unwrap() >= 0, "{record}");
    }
}

/// The share-partition's records (and stderr) once its state settled where
/// the group stands: every record delivered and acknowledged (the start
/// offset at the end, or an acknowledged batch ending at the last offset),
/// the start offset the one `describe group` reads from the coordinator.
fn settled(env: &ClusterEnv, group: &str, args: &[&str]) -> (Vec<Value>, String) {
    wait_until(
        Duration::from_secs(90),
        "the state records to acknowledge the whole topic",
        || {
            let (records, stderr) = consume_json(env, args);
            let start = last_start_offset(&records)?;
            let acked_to_end = start == 50
                || records.iter().any(|r| {
                    r["decoded"]["state_batches"].as_array().is_some_and(|b| {
                        b.iter()
                            .any(|b| b["last_offset"] == 49 && b["delivery_state"] == "Acked")
                    })
                });
            (acked_to_end && described_start(env, group) == Some(start))
                .then_some((records, stderr))
        },
    )
}

#[test]
fn a_share_groups_state_records_are_its_share_partitions_state() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("share-state");
    let group = unique("share-state-group");
    support::create_topic(&env, &topic, "1", &[]);
    let topic_id = kafka_topic_id(&env, &topic);
    let _consumer = ShareConsumer::start(&env, &topic, &group);
    wait_until(Duration::from_mins(1), "the share consumer to join", || {
        let output = kscope(&env, &["describe", "group", &group, "-o", "json"]);
        let json: Value = serde_json::from_slice(&output.stdout).ok()?;
        (json["members"].as_array()?.first()?["assignment"][&topic]
            .as_array()?
            .len()
            == 1)
            .then_some(())
    });
    let lines: Vec<String> = (0..50).map(|i| format!("job-{i}")).collect();
    env.console_produce(&topic, &lines, &[]);

    // The state settles where the group stands.
    let share_partition = format!("{topic}:0");
    let one = [
        "--group",
        group.as_str(),
        "--share-partition",
        &share_partition,
    ];
    let (records, stderr) = settled(&env, &group, &one);
    assert!(
        stderr.contains(&format!(
            "share group '{group}' on '{topic}' partition 0 is in partition"
        )),
        "{stderr}"
    );
    let state_partition = records[0]["partition"].as_i64().unwrap();
    for record in &records {
        check_record(record, &group, &topic_id, state_partition);
    }
    // The first record of a share-partition is the coordinator's snapshot
    // of its initial state, with its state epoch and times; the update that
    // acknowledged the records counts them complete.
    let first = &records[0]["decoded"];
    assert_eq!(first["type"], "share_snapshot", "{first}");
    assert!(first["state_epoch"].as_i64().is_some(), "{first}");
    assert!(
        first["write_timestamp"].as_i64().is_some_and(|t| t > 0),
        "{first}"
    );
    assert!(
        records
            .iter()
            .any(|r| r["decoded"]["delivery_complete_count"].as_i64() == Some(50)),
        "no record counts the 50 records complete: {records:?}"
    );

    // Every partition read for the group: its records sit in the partition
    // kscope computed and in no other.
    let (all, stderr) = consume_json(&env, &["--group", &group]);
    assert!(stderr.contains("spread over every partition"), "{stderr}");
    assert!(
        all.len() >= records.len(),
        "{} < {}",
        all.len(),
        records.len()
    );
    for record in &all {
        assert_eq!(record["decoded"]["group_id"], group.as_str(), "{record}");
        assert_eq!(
            record["partition"].as_i64(),
            Some(state_partition),
            "{record}"
        );
    }

    // The table shows each record as one line.
    let table = kscope(
        &env,
        &[
            "consume",
            "__share_group_state",
            "--group",
            &group,
            "--share-partition",
            &share_partition,
        ],
    );
    support::assert_success(&table, "consume __share_group_state (table)");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains(&format!("share snapshot {group} {topic_id}-0 start")),
        "{text}"
    );

    // The flag belongs to its topic.
    let wrong = kscope(
        &env,
        &[
            "consume",
            &topic,
            "--group",
            &group,
            "--share-partition",
            &share_partition,
        ],
    );
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("--share-partition reads"),
        "{}",
        String::from_utf8_lossy(&wrong.stderr)
    );
}
