//! Group events in `kscope watch events -o json` on the real cluster: a
//! second consumer joining a group of one is a `group_members_changed`
//! record (1 → 2) with the stable fields, and `--groups` keeps another
//! group's rebalance out.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use support::consumers::Reading;
use support::watch::Watch;

/// Wait until `kscope describe group` shows `members` members in a stable
/// group.
fn settled(env: &support::ClusterEnv, group: &str, members: usize) {
    support::wait_until(Duration::from_mins(2), "the group settled", || {
        let output = support::kscope(env, &["describe", "group", group, "-o", "json"]);
        let value: Value = serde_json::from_slice(&output.stdout).ok()?;
        (value["members"].as_array()?.len() == members && value["state"] == "Stable").then_some(())
    });
}

fn members_changed<'a>(seen: &'a [Value], group: &str) -> Vec<&'a Value> {
    seen.iter()
        .filter(|e| e["kind"] == "group_members_changed" && e["group"] == group)
        .collect()
}

#[test]
fn a_consumer_joining_a_group_is_a_group_event_and_groups_filters_others_out() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("group-events");
    let watched = support::unique("watched");
    let other = support::unique("other");
    support::create_topic(&env, &topic, "6", &[]);
    let _first = Reading::start(&env, &topic, &watched, "first", false);
    let _other_first = Reading::start(&env, &topic, &other, "other-first", false);
    settled(&env, &watched, 1);
    settled(&env, &other, 1);

    let mut watch = Watch::start(env.bootstrap(), &format!("^{watched}$"), "1");
    let note = watch.baseline();
    assert!(note.contains("watching 1 group(s)"), "{note}");

    let _second = Reading::start(&env, &topic, &watched, "second", false);
    let _other_second = Reading::start(&env, &topic, &other, "other-second", false);
    settled(&env, &other, 2);
    watch.until("the watched group's members going to 2", |seen| {
        members_changed(seen, &watched)
            .iter()
            .any(|e| e["after"] == json!(2))
    });
    let joined = members_changed(&watch.seen, &watched)[0].clone();
    assert_eq!(
        (&joined["before"], &joined["after"]),
        (&json!(1), &json!(2)),
        "{joined}"
    );
    assert_eq!((&joined["from"], &joined["to"]), (&json!(1), &json!(2)));
    assert_eq!(
        (&joined["severity"], &joined["source"]),
        (&json!("info"), &json!("reported"))
    );
    for field in ["topic", "partition", "broker"] {
        assert_eq!(joined[field], Value::Null, "{joined}");
    }
    assert!(joined["time"].as_str().is_some_and(|t| t.ends_with('Z')));

    // The other group rebalanced too (settled at 2 above), read for
    // another few rounds: none of its events is printed.
    settled(&env, &watched, 2);
    watch.settle(Duration::from_secs(5));
    let strays: Vec<&Value> = watch
        .seen
        .iter()
        .filter(|e| !e["group"].is_null() && e["group"] != watched.as_str())
        .collect();
    assert!(strays.is_empty(), "only the watched group: {strays:#?}");
}

#[test]
fn a_bad_groups_regex_is_a_usage_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args([
            "-b",
            "127.0.0.1:1",
            "watch",
            "events",
            "--groups",
            "billing(",
        ])
        .output()
        .expect("run kscope");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--groups 'billing('"), "{stderr}");
}
