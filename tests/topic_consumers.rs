//! A topic and the groups consuming it, against the shared cluster:
//! `kscope describe topic NAME` (partitions, configs that differ from the
//! default, size, groups with their lag on it) and, in tmux, the Topics
//! screen's LAG column — unknown until the groups are loaded, then the
//! largest lag of any group consuming the topic after `L`.

mod groups_fixture;
mod support;

use std::time::Duration;

use serde_json::Value;
use support::tmux::{self, Tmux, kscope_command};

/// A topic of 3 partitions with `retention.ms` set, `records` produced over
/// its partitions, a group committed at 0 everywhere (lag = every record)
/// and one committed at the end (lag 0). Returns the two group names.
fn topic_with_two_groups(env: &support::ClusterEnv, topic: &str, records: u32) -> (String, String) {
    support::create_topic(env, topic, "3", &["--config", "retention.ms=3600000"]);
    groups_fixture::produce_spread(env, topic, records);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let cluster = runtime.block_on(groups_fixture::cluster(env));
    let ends = runtime.block_on(groups_fixture::ends(&cluster, topic, 3));
    assert_eq!(ends.iter().sum::<i64>(), i64::from(records), "all produced");
    let behind = groups_fixture::unique("behind");
    let caught_up = groups_fixture::unique("caught-up");
    runtime.block_on(groups_fixture::commit(
        &cluster,
        &behind,
        topic,
        &[(0, 0), (1, 0), (2, 0)],
    ));
    let at_end: Vec<(i32, i64)> = ends
        .iter()
        .enumerate()
        .map(|(p, e)| (i32::try_from(p).expect("partition"), *e))
        .collect();
    runtime.block_on(groups_fixture::commit(&cluster, &caught_up, topic, &at_end));
    (behind, caught_up)
}

#[test]
fn describe_topic_shows_partitions_changed_configs_size_and_groups_with_lag() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("describe");
    let (behind, caught_up) = topic_with_two_groups(&env, &topic, 300);
    let output = support::kscope(&env, &["describe", "topic", &topic, "-o", "json"]);
    support::assert_success(&output, "kscope describe topic");
    let d: Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(d["topic"], topic.as_str());
    let partitions = d["partitions"].as_array().expect("partitions");
    assert_eq!(partitions.len(), 3);
    let highs: i64 = partitions
        .iter()
        .map(|p| p["high_watermark"].as_i64().expect("high watermark"))
        .sum();
    assert_eq!(highs, 300);
    let configs = d["configs"].as_array().expect("configs read");
    let retention = configs
        .iter()
        .find(|c| c["name"] == "retention.ms")
        .expect("retention.ms differs from the default");
    assert_eq!(retention["value"], "3600000");
    assert_eq!(retention["source"], "DYNAMIC_TOPIC_CONFIG");
    assert!(
        configs.iter().all(|c| c["is_default"] == false),
        "only configs that differ from the default: {configs:?}"
    );
    assert!(
        d["size_bytes"].as_i64().is_some_and(|s| s > 0),
        "a size: {}",
        d["size_bytes"]
    );
    let groups: Vec<(&str, Option<i64>)> = d["groups"]
        .as_array()
        .expect("groups listed")
        .iter()
        .map(|g| (g["group"].as_str().expect("group"), g["lag"].as_i64()))
        .collect();
    assert_eq!(
        groups,
        [(behind.as_str(), Some(300)), (caught_up.as_str(), Some(0))],
        "largest lag first"
    );

    let table = support::kscope(&env, &["describe", "topic", &topic]);
    support::assert_success(&table, "kscope describe topic (table)");
    let text = String::from_utf8_lossy(&table.stdout);
    for part in [
        "PARTITIONS",
        "CONFIGS (not Kafka's default)",
        "CONSUMER GROUPS",
    ] {
        assert!(text.contains(part), "{part} missing:\n{text}");
    }
    assert!(
        text.contains(&behind) && text.contains("retention.ms"),
        "{text}"
    );
    let missing = support::kscope(&env, &["describe", "topic", "no-such-topic-7f3a"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("does not exist"));
}

#[test]
fn topics_lag_is_unknown_until_the_groups_load_then_the_largest_groups_lag() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("tui-lag");
    topic_with_two_groups(&env, &topic, 120);
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-lag"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&["/"]);
    tmux.keys(&["-l", &topic]);
    tmux.keys(&["Enter"]);
    // TOPIC PARTS RF UNDER-REPL OFFLINE PREF MESSAGES UNDER-MIN CLEANUP
    // RETENTION SIZE LAG MSGS/S: LAG is the twelfth cell.
    let lag = |s: &str| {
        s.lines().find_map(|line| {
            let cells: Vec<&str> = line.split_whitespace().collect();
            (cells.first() == Some(&topic.as_str()))
                .then(|| cells.get(11).map(|c| (*c).to_owned()))
                .flatten()
        })
    };
    tmux.wait_for("LAG unknown before the groups are loaded", |s| {
        s.contains("LAG") && lag(s).as_deref() == Some("?")
    });
    tmux.keys(&["L"]);
    tmux.wait_for_within(
        Duration::from_mins(1),
        "the largest lag of the groups consuming it",
        |s| lag(s).as_deref() == Some("120"),
    );
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
