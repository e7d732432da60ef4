//! Eligible leader replicas (KIP-966) on a real cluster: with
//! `min.insync.replicas=3`, killing one of three replicas shrinks the ISR
//! below the minimum, and the broker keeps the killed replica as eligible
//! leader replica. `kscope get partitions TOPIC` shows it (fields and
//! columns that appear only when some partition has an ELR), and shows it
//! gone once the replica is back in sync. (Before this, kscope never asked
//! `DescribeTopicPartitions` and showed no ELR at all.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use serde_json::Value;
use support::{kscope, wait_until};

const TOPIC: &str = "elr-orders";

fn partitions(env: &support::ClusterEnv) -> Option<Vec<Value>> {
    let out = kscope(env, &["get", "partitions", TOPIC, "-o", "json"]);
    if !out.status.success() {
        return None;
    }
    serde_json::from_slice::<Value>(&out.stdout)
        .ok()?
        .as_array()
        .cloned()
}

fn ids(value: &Value) -> Option<Vec<i64>> {
    value
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
}

#[test]
fn a_replica_dropped_below_min_isr_is_shown_as_eligible_leader() {
    let Some(cluster) = support::ThrowawayCluster::start("elr", 3, 25492, false) else {
        return;
    };
    let env = cluster.env();
    env.create_topic_with_kafka(
        TOPIC,
        &[
            "--replica-assignment",
            "1:2:3,2:3:1",
            "--config",
            "min.insync.replicas=3",
        ],
    );
    // In sync: no ELR anywhere, so the output is the usual one.
    let before = wait_until(Duration::from_secs(30), "the topic in sync", || {
        let rows = partitions(env)?;
        (rows.len() == 2
            && rows
                .iter()
                .all(|r| ids(&r["isr"]).is_some_and(|i| i.len() == 3)))
        .then_some(rows)
    });
    for row in &before {
        assert!(row.get("eligible_leader_replicas").is_none(), "{row}");
    }

    env.script(&["kill", "3"]);
    let after = wait_until(
        Duration::from_mins(1),
        "broker 3 to leave the ISR into the ELR",
        || {
            let rows = partitions(env)?;
            rows.iter()
                .all(|r| {
                    ids(&r["isr"]).is_some_and(|i| !i.contains(&3))
                        && ids(&r["eligible_leader_replicas"]) == Some(vec![3])
                })
                .then_some(rows)
        },
    );
    assert_eq!(after.len(), 2);

    // The table says it too, in its own columns.
    let table = kscope(env, &["get", "partitions", TOPIC]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.lines().next().unwrap().contains("ELR"), "{text}");

    env.script(&["restart", "3"]);
    wait_until(
        Duration::from_secs(90),
        "broker 3 back in the ISR and out of the ELR",
        || {
            let rows = partitions(env)?;
            rows.iter()
                .all(|r| {
                    ids(&r["isr"]).is_some_and(|i| i.len() == 3)
                        && ids(&r["eligible_leader_replicas"]).is_none_or(|e| e.is_empty())
                })
                .then_some(())
        },
    );
}
