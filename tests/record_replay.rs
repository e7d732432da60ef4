//! `kscope record` through a broker kill and restart on a throwaway 3-node
//! cluster of its own, then headless replay: `get brokers --at` a moment
//! while the broker was down does not show it answering, and `watch events
//! --from-file` lists the leader moves, ISR shrinks and expansions in
//! order, none twice, the same partitions as a live `watch events` saw.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

const TOPIC: &str = "rec-orders";
/// Apart from the other throwaway clusters (this test owns 27592-27691).
const PORT_BASE: u16 = 27592;
const VICTIM: i64 = 2;

fn kscope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(args)
        .output()
        .expect("run kscope")
}

fn partitions(env: &support::ClusterEnv) -> Option<Vec<Value>> {
    let output = support::kscope(env, &["get", "partitions", TOPIC, "-o", "json"]);
    let rows: Value = serde_json::from_slice(&output.stdout).ok()?;
    rows.as_array().cloned()
}

fn holds(list: &Value, id: i64) -> bool {
    list.as_array().is_some_and(|l| l.contains(&json!(id)))
}

fn rfc3339(time: SystemTime) -> String {
    kscope::cli::event::rfc3339(time)
}

/// `(kind, partition)` of the topic's leader and ISR events about the victim.
fn moves(events: &[Value]) -> BTreeSet<(String, i64)> {
    events
        .iter()
        .filter(|e| e["topic"] == TOPIC)
        .filter(|e| {
            (e["kind"] == "leader_changed" && e["from"] == VICTIM)
                || (e["kind"] == "isr_shrank" && holds(&e["removed"], VICTIM))
        })
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_owned(),
                e["partition"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn recorded_events(file: &Path) -> Vec<Value> {
    let output = kscope(&[
        "watch",
        "events",
        "--from-file",
        file.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one json object per line"))
        .collect()
}

#[test]
fn a_recording_through_a_broker_kill_replays_the_outage_and_its_events() {
    let Some(cluster) = support::ThrowawayCluster::start("record-replay", 3, PORT_BASE, false)
    else {
        return;
    };
    let env = cluster.env();
    support::create_topic(env, TOPIC, "12", &[]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("outage.kscope-rec");
    let bootstrap = env.bootstrap();
    let record = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(["-b", bootstrap, "record", "--to", file.to_str().unwrap()])
        .args([
            "--duration",
            "70s",
            "--interval",
            "1",
            "--group-interval",
            "5",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kscope record");
    let mut live = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args([
            "-b",
            bootstrap,
            "watch",
            "events",
            "-o",
            "json",
            "--interval",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start kscope watch events");
    let (tx, lines) = mpsc::channel::<String>();
    let stdout = live.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    // The first chunk (the snapshot) is flushed as soon as recording starts.
    support::wait_until(Duration::from_secs(30), "the recording's snapshot", || {
        kscope::recording::read_strict(&file)
            .ok()
            .filter(|r| !r.frames.is_empty())
    });
    std::thread::sleep(Duration::from_secs(3)); // the live watch's baseline refresh

    env.script(&["kill", &VICTIM.to_string()]);
    support::wait_until(
        Duration::from_mins(1),
        "leaders off the killed broker",
        || {
            let rows = partitions(env)?;
            rows.iter()
                .all(|r| r["leader"] != VICTIM && !holds(&r["isr"], VICTIM))
                .then_some(())
        },
    );
    // Time for the recorder's next look (every 250 ms after its 1 s refresh).
    std::thread::sleep(Duration::from_secs(3));
    let while_down = SystemTime::now();
    env.script(&["restart", &VICTIM.to_string()]);
    support::wait_until(Duration::from_secs(90), "every ISR full again", || {
        let rows = partitions(env)?;
        rows.iter()
            .all(|r| r["isr"].as_array().is_some_and(|i| i.len() == 3))
            .then_some(())
    });
    // The recording ends by itself (`--duration`), a few seconds on.
    let recorded = record.wait_with_output().expect("kscope record ran");
    let said = String::from_utf8_lossy(&recorded.stderr);
    assert!(recorded.status.success(), "record failed: {said}");
    assert!(said.contains("frames") && said.contains("bytes"), "{said}");
    let _ = live.kill();
    let _ = live.wait();
    let live: Vec<Value> = lines
        .try_iter()
        .map(|l| serde_json::from_str(&l).expect("json"))
        .collect();

    assert_brokers_while_down(&file, while_down);
    assert_events(&file, &live);
}

/// While it was down, the broker led nothing and was gone or silent; at the
/// end all three are back.
fn assert_brokers_while_down(file: &Path, while_down: SystemTime) {
    // While it was down, the broker led nothing and was gone or silent.
    let at = rfc3339(while_down);
    let file_arg = file.to_str().unwrap();
    let down = kscope(&[
        "get",
        "brokers",
        "--from-file",
        file_arg,
        "--at",
        &at,
        "-o",
        "json",
    ]);
    assert!(down.status.success(), "{down:?}");
    let brokers: Value = serde_json::from_slice(&down.stdout).expect("json rows");
    let stderr = String::from_utf8_lossy(&down.stderr);
    let row = brokers
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == VICTIM);
    assert!(
        row.is_none_or(|b| b["leaders"] == 0)
            && (row.is_none() || stderr.contains(&format!("broker {VICTIM} not answering"))),
        "broker {VICTIM} at {at}: {row:?}, stderr {stderr}"
    );
    let after = kscope(&["get", "brokers", "--from-file", file_arg, "-o", "json"]);
    let brokers: Value = serde_json::from_slice(&after.stdout).expect("json rows");
    assert_eq!(
        brokers.as_array().unwrap().len(),
        3,
        "back at the end: {brokers}"
    );
}

/// The replayed events: every ISR lost the victim, leaders moved, each
/// shrink before its expansion, nothing twice, the same moves as live.
fn assert_events(file: &Path, live: &[Value]) {
    let events = recorded_events(file);
    let seen = moves(&events);
    let shrank: BTreeSet<i64> = seen
        .iter()
        .filter(|(k, _)| k == "isr_shrank")
        .map(|(_, p)| *p)
        .collect();
    assert_eq!(
        shrank.len(),
        12,
        "every partition's ISR lost the victim: {events:#?}"
    );
    assert!(
        seen.iter().any(|(k, _)| k == "leader_changed"),
        "leaders moved off the victim: {events:#?}"
    );
    // In order: each partition's shrink before its expansion.
    for partition in 0..12 {
        let of = |kind: &str| {
            events.iter().position(|e| {
                e["topic"] == TOPIC && e["partition"] == partition && e["kind"] == kind
            })
        };
        let (Some(gone), Some(back)) = (of("isr_shrank"), of("isr_expanded")) else {
            panic!("partition {partition}: no shrink or no expansion: {events:#?}");
        };
        assert!(
            gone < back,
            "partition {partition}: expanded before it shrank"
        );
    }
    let mut unique = BTreeSet::new();
    for event in &events {
        assert!(unique.insert(event.to_string()), "twice: {event}");
    }
    assert_eq!(seen, moves(live), "replayed and live moves differ");
}
