//! KIP-848 reconciliation in `kscope watch events -o json` on the real
//! cluster: a second `group.protocol=consumer` member joining a group of
//! one moves partitions from the first to it; while they move, a read of
//! the group finds members off their targets (`group_reconciling`, with
//! each member's partitions and target), and once both own their targets
//! `group_reconciled` says what each owned and what it reached.
//!
//! The group's `consumer.heartbeat.interval.ms` is raised to 10 s (a group
//! config, KIP-848), so the hand-over spans a heartbeat of each member and
//! the watch, reading the group every half second, lands inside it.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{Value, json};
use support::consumers::Reading;
use support::watch::Watch;

/// The partitions of `topic` each member of `group` owns, by client id,
/// once the group is Stable with `members` members.
fn settled(env: &support::ClusterEnv, group: &str, members: usize) -> Vec<(String, usize)> {
    support::wait_until(Duration::from_mins(2), "the group settled", || {
        let output = support::kscope(env, &["describe", "group", group, "-o", "json"]);
        let value: Value = serde_json::from_slice(&output.stdout).ok()?;
        let list = value["members"].as_array()?;
        if list.len() != members || value["state"] != "Stable" {
            return None;
        }
        let owned: Vec<(String, usize)> = list
            .iter()
            .map(|m| {
                let count = m["assignment"].as_object().map_or(0, |by_topic| {
                    by_topic
                        .values()
                        .filter_map(Value::as_array)
                        .map(Vec::len)
                        .sum()
                });
                (m["client_id"].as_str().unwrap_or("").to_owned(), count)
            })
            .collect();
        // Every partition owned, each once.
        (owned.iter().map(|(_, n)| n).sum::<usize>() == 4 && owned.iter().all(|(_, n)| *n > 0))
            .then_some(owned)
    })
}

/// The `member_id`s of a `members` list.
fn ids(members: &Value) -> BTreeSet<String> {
    members
        .as_array()
        .expect("members")
        .iter()
        .map(|m| m["member_id"].as_str().expect("a member id").to_owned())
        .collect()
}

/// Partitions of `topic` in an assignment map.
fn partitions(assignment: &Value, topic: &str) -> Vec<i64> {
    assignment[topic]
        .as_array()
        .map(|ps| ps.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

/// Raise `group`'s `consumer.heartbeat.interval.ms` to 10 s (a KIP-848
/// group config): a hand-over waits for a heartbeat of each member.
fn slow_heartbeats(env: &support::ClusterEnv, group: &str) {
    env.script(&[
        "tool",
        "kafka.admin.ConfigCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "--alter",
        "--entity-type",
        "groups",
        "--entity-name",
        group,
        "--add-config",
        "consumer.heartbeat.interval.ms=10000",
    ]);
}

#[test]
fn a_member_joining_a_kip848_group_is_said_reconciling_then_reconciled() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("reconcile");
    let group = support::unique("reconciling");
    support::create_topic(&env, &topic, "4", &[]);
    slow_heartbeats(&env, &group);
    let _first = Reading::start(&env, &topic, &group, "first", true);
    assert_eq!(settled(&env, &group, 1), [("first".to_owned(), 4)]);

    let mut watch = Watch::spawn(
        env.bootstrap(),
        &[
            "--kinds",
            "group_reconciling,group_reconciled",
            "--groups",
            &format!("^{group}$"),
            "--group-interval",
            "0.5",
        ],
    );
    let note = watch.baseline();
    assert!(note.contains("watching 1 group(s)"), "{note}");

    let _second = Reading::start(&env, &topic, &group, "second", true);
    watch.until_within(
        Duration::from_mins(2),
        "reconciling then reconciled",
        |seen| seen.iter().any(|e| e["kind"] == "group_reconciled"),
    );
    let settled = settled(&env, &group, 2);
    assert_eq!(settled.len(), 2, "{settled:?}");

    let reconciling = watch.of("group_reconciling", &group);
    let reconciled = watch.of("group_reconciled", &group);
    assert_eq!(
        (reconciling.len(), reconciled.len()),
        (1, 1),
        "each said once: {:#?}",
        watch.seen
    );
    let (entered, done) = (reconciling[0], reconciled[0]);
    for event in [entered, done] {
        assert_eq!(
            (&event["severity"], &event["source"]),
            (&json!("info"), &json!("reported")),
            "{event}"
        );
        for field in ["topic", "partition", "broker"] {
            assert_eq!(event[field], Value::Null, "{event}");
        }
    }
    assert!(
        entered["group_epoch"].as_i64().is_some_and(|e| e > 0),
        "{entered}"
    );
    // Whoever was seen reconciling: each member's assignment differs from
    // its target, and before/after carry the same members.
    for member in entered["members"].as_array().expect("members") {
        assert_ne!(
            member["assignment"], member["target_assignment"],
            "{entered}"
        );
        assert!(
            ["first", "second"].contains(&member["client_id"].as_str().unwrap_or("")),
            "{member}"
        );
    }
    assert_eq!(ids(&entered["before"]), ids(&entered["members"]));
    assert_eq!(ids(&entered["after"]), ids(&entered["members"]));
    reached(done, entered, &topic);
}

/// `group_reconciled` (`done`): the targets reached name some of the topic's
/// partitions, the members include those `entered` named, and the first
/// member, if it was reconciling, owned all four before.
fn reached(done: &Value, entered: &Value, topic: &str) {
    // The targets reached name partitions of the topic.
    let mut reached: Vec<i64> = done["members"]
        .as_array()
        .expect("members")
        .iter()
        .flat_map(|m| partitions(&m["target_assignment"], topic))
        .collect();
    reached.sort_unstable();
    reached.dedup();
    assert!(!reached.is_empty(), "{done}");
    assert!(
        ids(&done["members"]).is_superset(&ids(&entered["members"])),
        "{done}"
    );
    let first_before: Vec<&Value> = done["before"]
        .as_array()
        .expect("before")
        .iter()
        .filter(|m| m["client_id"] == "first")
        .collect();
    if let Some(first) = first_before.first() {
        assert_eq!(
            partitions(&first["assignment"], topic),
            [0, 1, 2, 3],
            "{done}"
        );
    }
}
