//! Eligible leader replicas (KIP-966) on a real cluster: with
//! `min.insync.replicas=3`, killing one of three replicas shrinks the ISR
//! below the minimum, and the broker keeps the killed replica as eligible
//! leader replica. `kscope get partitions TOPIC` shows it (fields and
//! columns that appear only when some partition has an ELR), and shows it
//! gone once the replica is back in sync. The TUI's Partitions screen,
//! open all along, grows an ELR column while some partition has one and
//! drops it again. (Before this, kscope never asked
//! `DescribeTopicPartitions` and showed no ELR at all.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use serde_json::Value;
use support::tmux::{self, Tmux, kscope_command};
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

/// The header line of the Partitions screen on `screen`.
fn header(screen: &str) -> Option<&str> {
    screen
        .lines()
        .find(|l| l.contains("PARTITION") && l.contains("LEADER"))
}

/// The ELR column's cells, one per partition row under the header (the
/// column is left-aligned: a cell starts where its header does).
fn elr_cells(screen: &str) -> Option<Vec<String>> {
    let mut lines = screen.lines().skip_while(|l| header(l).is_none());
    // In characters: the sorted column's header carries an arrow.
    let header = lines.next()?;
    let at = header[..header.find(" ELR ")?].chars().count() + 1;
    let cells = lines
        .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let rest: String = l.chars().skip(at).collect();
            rest.split_whitespace().next().unwrap_or("").to_owned()
        })
        .collect();
    Some(cells)
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
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tui = Tmux::start(&tmux::unique_name("kscope-elr"), &command);
    tui.wait_for("the topics screen", |s| s.contains("topics ["));
    tui.keys(&["/"]);
    tui.keys(&["-l", TOPIC]);
    tui.keys(&["Enter", "Enter"]);
    let screen = tui.wait_for("the topic's partitions with their ISR", |s| {
        header(s).is_some() && s.contains("1,2,3")
    });
    assert!(
        !header(&screen).unwrap().contains("ELR"),
        "no ELR anywhere: no column\n{screen}"
    );

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
    // And the TUI, without a key pressed, draws the column with broker 3.
    tui.wait_for_within(
        Duration::from_mins(1),
        "the ELR column with broker 3",
        |s| elr_cells(s).is_some_and(|cells| cells == ["3", "3"]),
    );

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
    tui.wait_for_within(
        Duration::from_mins(1),
        "the ELR column gone with the ELR",
        |s| header(s).is_some_and(|h| !h.contains("ELR")),
    );
    tui.keys(&["q"]);
}
