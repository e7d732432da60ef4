//! STUCK and LOSS IN through `kscope describe group --stuck-over` on the
//! real cluster: a classic consumer (Kafka's console consumer, a session
//! timeout of 3 minutes) reads a 6-partition topic with `retention.ms` of 5
//! minutes and catches up; then it is frozen (`SIGSTOP`: still a member,
//! neither reading nor committing) while a producer keeps writing. Every
//! partition is then STUCK with that member as its owner, and LOSS IN is
//! the retention minus the oldest unread record's age; once the consumer
//! goes on (`SIGCONT`) STUCK goes. `kscope watch events --groups` says
//! the same as `group_stuck` and `group_moving` records, one per partition.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::process::Output;
use std::time::Duration;

use serde_json::Value;
use support::consumers::Reading;
use support::producers::Steady;
use support::watch::Watch;

const PARTITIONS: usize = 6;
const RETENTION_MS: i64 = 300_000;
/// Three reads over this span: longer than the consumer's 1 s commit
/// interval, so a consumer that commits is never judged STUCK.
const SPAN: &str = "4s";

fn describe(env: &support::ClusterEnv, group: &str, json: bool) -> Output {
    let mut args = vec!["describe", "group", group, "--stuck-over", SPAN];
    if json {
        args.extend(["-o", "json"]);
    }
    support::kscope(env, &args)
}

/// `describe group --stuck-over -o json`, when it succeeded.
fn described(env: &support::ClusterEnv, group: &str) -> Option<Value> {
    let output = describe(env, group, true);
    if !output.status.success() {
        return None;
    }
    serde_json::from_slice(&output.stdout).ok()
}

fn offsets(group: &Value) -> Vec<Value> {
    group["offsets"].as_array().cloned().unwrap_or_default()
}

/// How many partitions have a `kind` record about `group`.
fn partitions_said(seen: &[Value], kind: &str, group: &str) -> usize {
    let mut partitions: Vec<i64> = seen
        .iter()
        .filter(|e| e["kind"] == kind && e["group"] == group)
        .filter_map(|e| e["partition"].as_i64())
        .collect();
    partitions.sort_unstable();
    partitions.dedup();
    partitions.len()
}

/// `describe group --stuck-over` as a table: LOSS IN, STUCK and OWNER
/// columns, every partition STUCK with `client` owning it.
fn assert_stuck_table(env: &support::ClusterEnv, group: &str, topic: &str, client: &str) {
    let table = describe(env, group, false);
    support::assert_success(&table, "describe group --stuck-over");
    let text = String::from_utf8_lossy(&table.stdout);
    let header = text
        .lines()
        .find(|l| l.starts_with("TOPIC"))
        .expect("offsets header");
    for column in ["LOSS IN", "STUCK", "OWNER"] {
        assert!(header.contains(column), "{text}");
    }
    let stuck_rows = text
        .lines()
        .filter(|l| l.starts_with(topic) && l.contains("STUCK") && l.contains(client))
        .count();
    assert_eq!(stuck_rows, PARTITIONS, "{text}");
    // LOSS IN reads as minutes left of the 5 (e.g. `4m37s`).
    assert!(
        text.lines()
            .filter(|l| l.starts_with(topic))
            .all(|l| l.contains("4m") || l.contains("3m")),
        "{text}"
    );
}

/// `watch events` said `group_stuck` once for every partition of `topic`.
fn assert_stuck_said(watch: &mut Watch, group: &str, topic: &str) {
    watch.until("group_stuck on every partition", |seen| {
        partitions_said(seen, "group_stuck", group) == PARTITIONS
    });
    for event in watch.of("group_stuck", group) {
        assert_eq!(event["topic"], topic, "{event}");
        assert_eq!(
            (&event["severity"], &event["source"]),
            (&Value::from("warn"), &Value::from("observed"))
        );
        assert_eq!(
            (&event["before"], &event["after"]),
            (&Value::from("moving"), &Value::from("stuck"))
        );
        assert!(
            event["end"].as_i64() > event["committed"].as_i64(),
            "{event}"
        );
    }
}

#[test]
fn a_frozen_member_leaves_its_partitions_stuck_with_a_loss_in_until_it_reads_again() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("stuck");
    let group = support::unique("stuck-group");
    let client = "stuck-client";
    let retention = format!("retention.ms={RETENTION_MS}");
    support::create_topic(&env, &topic, "6", &["--config", &retention]);
    let spread = support::kscope(&env, &["get", "partitions", &topic, "-o", "json"]);
    let rows: Value = serde_json::from_slice(&spread.stdout).expect("partitions as json");
    let mut leaders: Vec<i64> = rows
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["leader"].as_i64())
        .collect();
    leaders.sort_unstable();
    leaders.dedup();
    assert_eq!(leaders.len(), 3, "leaders on three brokers: {rows}");

    let producer = Steady::start(&env, &topic, 50);
    let props = [
        "session.timeout.ms=180000",
        "heartbeat.interval.ms=2000",
        "auto.commit.interval.ms=1000",
    ];
    let reading = Reading::start_with(&env, &topic, &group, client, &props);

    // Reading and committing on every partition, and not STUCK.
    support::wait_until(Duration::from_mins(2), "the consumer reading", || {
        let group = described(&env, &group)?;
        let rows = offsets(&group);
        (group["members"].as_array()?.len() == 1
            && rows.len() == PARTITIONS
            && rows.iter().all(|r| r["committed"].as_i64() > Some(0))
            && rows.iter().all(|r| r["stuck"] == Value::Bool(false)))
        .then_some(())
    });

    let mut watch = Watch::start(env.bootstrap(), &format!("^{group}$"), "2");
    let note = watch.baseline();
    assert!(note.contains("watching 1 group(s)"), "{note}");

    reading.pause();
    let stuck = support::wait_until(Duration::from_mins(1), "every partition STUCK", || {
        let group = described(&env, &group)?;
        let rows = offsets(&group);
        (rows.len() == PARTITIONS && rows.iter().all(|r| r["stuck"] == Value::Bool(true)))
            .then_some(group)
    });
    assert_eq!(
        stuck["members"].as_array().map(Vec::len),
        Some(1),
        "{stuck}"
    );
    let member_id = stuck["members"][0]["member_id"]
        .as_str()
        .expect("member id");
    for row in offsets(&stuck) {
        assert_eq!(row["owner"], client, "{row}");
        assert_eq!(row["owner_member_id"], member_id, "{row}");
        assert!(row["lag"].as_i64() > Some(0), "{row}");
        let age = row["oldest_unconsumed_age_ms"].as_i64().expect("an age");
        let loss_in = row["data_loss_in_ms"].as_i64().expect("a LOSS IN");
        assert!(loss_in > 0 && loss_in < RETENTION_MS, "{row}");
        // Both from the same moment: retention minus the age, to the ms.
        assert_eq!(age + loss_in, RETENTION_MS, "{row}");
    }

    assert_stuck_table(&env, &group, &topic, client);
    assert_stuck_said(&mut watch, &group, &topic);

    reading.resume();
    support::wait_until(Duration::from_mins(1), "STUCK gone", || {
        let group = described(&env, &group)?;
        let rows = offsets(&group);
        (rows.len() == PARTITIONS && rows.iter().all(|r| r["stuck"] == Value::Bool(false)))
            .then_some(())
    });
    watch.until("group_moving on every partition", |seen| {
        partitions_said(seen, "group_moving", &group) == PARTITIONS
    });
    assert_eq!(
        watch.of("group_stuck", &group).len(),
        PARTITIONS,
        "stuck said once per partition: {:#?}",
        watch.seen
    );
    drop(producer);

    // Without `--stuck-over` nothing is judged: `stuck` is null.
    let once = support::kscope(&env, &["describe", "group", &group, "-o", "json"]);
    let once: Value = serde_json::from_slice(&once.stdout).expect("json");
    assert!(
        offsets(&once).iter().all(|r| r["stuck"].is_null()),
        "{once}"
    );
}
