//! Tiered storage (KIP-405) on a real broker: with Kafka's own
//! `LocalTieredStorage` (`scripts/kafka-cluster up --tiered`), a topic with
//! `remote.storage.enable=true` and `local.retention.ms=1000` moves its
//! closed segments to remote storage and deletes them locally, so its local
//! log start passes its log start. `kscope get partitions TOPIC` shows the
//! local log start (a field and a column present for tiered topics only),
//! and the TUI's Partitions screen grows a LOCAL LOW column for it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use serde_json::Value;
use support::tmux::{self, Tmux, kscope_command};
use support::{kscope, wait_until};

const TIERED: &str = "tiered-orders";
const LOCAL: &str = "local-orders";

fn partitions(env: &support::ClusterEnv, topic: &str) -> Vec<Value> {
    let out = kscope(env, &["get", "partitions", topic, "-o", "json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<Value>(&out.stdout)
        .expect("json")
        .as_array()
        .cloned()
        .expect("an array")
}

fn produce(env: &support::ClusterEnv, topic: &str) {
    env.produce_perf(topic, 12000, 300, &["linger.ms=5"]);
}

#[test]
fn a_tiered_topic_shows_its_local_log_start_and_others_do_not() {
    let Some(cluster) = support::ThrowawayCluster::start_with("tiered", 1, 25592, &["--tiered"])
    else {
        return;
    };
    let env = cluster.env();
    let small_segments = ["--config", "segment.bytes=1048576"];
    let mut tiered = vec![
        "--partitions",
        "3",
        "--replication-factor",
        "1",
        "--config",
        "remote.storage.enable=true",
        "--config",
        "local.retention.ms=1000",
    ];
    tiered.extend(small_segments);
    env.create_topic_with_kafka(TIERED, &tiered);
    let mut local = vec!["--partitions", "2", "--replication-factor", "1"];
    local.extend(small_segments);
    env.create_topic_with_kafka(LOCAL, &local);
    produce(env, TIERED);
    produce(env, LOCAL);

    // Segments are copied to remote storage and deleted locally within
    // seconds: the local log start moves past the log start (0), and never
    // past the high watermark.
    let rows = wait_until(
        Duration::from_mins(1),
        "every partition's local log start past its log start",
        || {
            let rows = partitions(env, TIERED);
            rows.iter()
                .all(|r| r["local_log_start_offset"].as_i64().is_some_and(|l| l > 0))
                .then_some(rows)
        },
    );
    assert_eq!(rows.len(), 3);
    for row in &rows {
        let local = row["local_log_start_offset"].as_i64().unwrap();
        assert_eq!(
            row["low_watermark"], 0,
            "remote storage keeps it all: {row}"
        );
        assert!(local <= row["high_watermark"].as_i64().unwrap(), "{row}");
    }
    let table = kscope(env, &["get", "partitions", TIERED]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.lines().next().unwrap().contains("LOCAL-LOW"), "{text}");

    // A topic without tiered storage prints as it always did.
    for row in partitions(env, LOCAL) {
        assert!(row.get("local_log_start_offset").is_none(), "{row}");
    }
    let table = kscope(env, &["get", "partitions", LOCAL]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(!text.contains("LOCAL-LOW"), "{text}");

    // The TUI: the tiered topic's Partitions screen has the column, with
    // the offsets `get` printed (or later ones: tiering goes on).
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tui = Tmux::start(&tmux::unique_name("kscope-tiered"), &command);
    tui.wait_for("the topics screen", |s| s.contains("topics ["));
    tui.keys(&["/"]);
    tui.keys(&["-l", TIERED]);
    tui.keys(&["Enter", "Enter"]);
    tui.wait_for_within(Duration::from_secs(30), "the LOCAL LOW column", |s| {
        s.lines()
            .any(|l| l.contains("PARTITION") && l.contains("LOW LOCAL LOW HIGH"))
    });
    // A second session for the other topic (the first stays until the
    // end: the tmux server goes away with its last session).
    let first = tui;
    let tui = Tmux::start(&tmux::unique_name("kscope-local"), &command);
    tui.wait_for("the topics screen", |s| s.contains("topics ["));
    tui.keys(&["/"]);
    tui.keys(&["-l", LOCAL]);
    tui.keys(&["Enter", "Enter"]);
    // Its configs are read with the screen: give the column time to (not)
    // appear, by waiting for the sizes read alongside.
    let screen = tui.wait_for("the other topic's partitions with sizes", |s| {
        s.contains(&format!("partitions of '{LOCAL}'")) && s.contains("1:")
    });
    assert!(!screen.contains("LOCAL LOW"), "{screen}");
    tui.keys(&["q"]);
    first.keys(&["q"]);
}
