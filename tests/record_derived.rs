//! `kscope record` keeps the events kscope derives beside the metadata
//! feed, on the shared cluster, and `watch events --from-file` prints them
//! back: `under_min_isr` / `min_isr_restored` when a topic's
//! `min.insync.replicas` is raised above its replication factor and set
//! back (the recorder's configs read, every 30 s), and `group_stuck` /
//! `group_moving` when a group's only member is frozen (`SIGSTOP`) while a
//! producer writes, then let go.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;
use support::consumers::Reading;
use support::producers::Steady;

const PARTITIONS: usize = 3;

fn set_min_isr(env: &support::ClusterEnv, topic: &str, min: u8) {
    env.script(&[
        "tool",
        "kafka.admin.ConfigCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "--entity-type",
        "topics",
        "--entity-name",
        topic,
        "--alter",
        "--add-config",
        &format!("min.insync.replicas={min}"),
    ]);
}

/// The partitions with a `kind` event recorded so far (the file is read as
/// it is being written: what the chunks flushed so far hold).
fn recorded(file: &Path, kind: &str) -> BTreeSet<i32> {
    let Ok(recording) = kscope::recording::read(file) else {
        return BTreeSet::new();
    };
    recording
        .events_until(recording.end_ms())
        .iter()
        .filter(|e| e.kind.name() == kind)
        .filter_map(|e| e.partition)
        .collect()
}

fn all() -> BTreeSet<i32> {
    (0..i32::try_from(PARTITIONS).unwrap()).collect()
}

/// Wait until every partition has a `kind` event in the recording.
fn until_recorded(file: &Path, kind: &str, within: Duration) {
    support::wait_until(within, &format!("{kind} on every partition"), || {
        (recorded(file, kind) == all()).then_some(())
    });
}

/// The lines of `read`, on a channel.
fn lines_of(read: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(read).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
}

/// A console consumer in `group` reading `topic`, once it has committed on
/// every partition (a long session: frozen, it stays a member).
fn committing(env: &support::ClusterEnv, topic: &str, group: &str) -> Reading {
    let props = [
        "session.timeout.ms=180000",
        "heartbeat.interval.ms=2000",
        "auto.commit.interval.ms=1000",
    ];
    let reading = Reading::start_with(env, topic, group, "rec-derived", &props);
    support::wait_until(Duration::from_mins(2), "the consumer committing", || {
        let output = support::kscope(env, &["describe", "group", group, "-o", "json"]);
        let value: Value = serde_json::from_slice(&output.stdout).ok()?;
        let offsets = value["offsets"].as_array()?;
        (offsets.len() == PARTITIONS && offsets.iter().all(|r| r["committed"].as_i64() > Some(0)))
            .then_some(())
    });
    reading
}

#[test]
fn a_recording_keeps_min_isr_and_stuck_events_and_replay_prints_them() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("rec-derived");
    let group = support::unique("rec-derived-group");
    let partitions = PARTITIONS.to_string();
    support::create_topic(
        &env,
        &topic,
        &partitions,
        &["--config", "min.insync.replicas=2"],
    );
    let producer = Steady::start(&env, &topic, 30);
    let reading = committing(&env, &topic, &group);

    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("derived.kscope-rec");
    let mut record = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args([
            "-b",
            env.bootstrap(),
            "record",
            "--to",
            file.to_str().unwrap(),
        ])
        .args([
            "--topics",
            &format!("^{topic}$"),
            "--groups",
            &format!("^{group}$"),
        ])
        .args(["--group-interval", "2", "--interval", "1"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kscope record");
    let notes = lines_of(record.stderr.take().unwrap());
    // The first configs read is the min-ISR baseline: what follows it is
    // news. Stderr says when it is done.
    let mut said = Vec::new();
    support::wait_until(Duration::from_mins(1), "the first configs read", || {
        said.extend(notes.try_iter());
        said.iter()
            .any(|l: &String| l.contains("configs of"))
            .then_some(())
    });

    reading.pause();
    set_min_isr(&env, &topic, 4);
    until_recorded(&file, "group_stuck", Duration::from_mins(1));
    reading.resume();
    until_recorded(&file, "group_moving", Duration::from_mins(1));
    // The next configs read (30 s after the first, at most) sees 4.
    until_recorded(&file, "under_min_isr", Duration::from_secs(75));
    set_min_isr(&env, &topic, 2);
    until_recorded(&file, "min_isr_restored", Duration::from_secs(75));
    interrupt(&record);
    let status = record.wait().expect("kscope record ran");
    said.extend(notes.iter());
    assert!(status.success(), "record failed: {said:?}");
    assert!(
        said.iter()
            .any(|l| l.contains("recorded") && l.contains("events")),
        "{said:?}"
    );
    drop(producer);

    assert_replayed(&file, &topic, &group);
}

/// `watch events --from-file` prints each derived kind once per partition,
/// in order.
fn assert_replayed(file: &Path, topic: &str, group: &str) {
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(["watch", "events", "--from-file", file.to_str().unwrap()])
        .args([
            "--kinds",
            "group_stuck,group_moving,under_min_isr,min_isr_restored",
            "-o",
            "json",
        ])
        .output()
        .expect("run kscope");
    assert!(output.status.success(), "{output:?}");
    let replayed: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one json object per line"))
        .collect();
    for kind in [
        "group_stuck",
        "group_moving",
        "under_min_isr",
        "min_isr_restored",
    ] {
        let of: Vec<&Value> = replayed.iter().filter(|e| e["kind"] == kind).collect();
        let seen: BTreeSet<i32> = of
            .iter()
            .filter_map(|e| e["partition"].as_i64())
            .map(|p| i32::try_from(p).unwrap())
            .collect();
        assert_eq!(seen, all(), "{kind}: {replayed:#?}");
        assert_eq!(of.len(), PARTITIONS, "{kind} once per partition");
        for event in of {
            assert_eq!(event["topic"], topic, "{event}");
        }
    }
    let under = replayed
        .iter()
        .find(|e| e["kind"] == "under_min_isr")
        .unwrap();
    assert_eq!(
        (&under["min_isr"], &under["severity"]),
        (&Value::from(4), &Value::from("critical"))
    );
    let stuck = replayed
        .iter()
        .find(|e| e["kind"] == "group_stuck")
        .unwrap();
    assert_eq!(stuck["group"], group);
    // In order: each partition STUCK before it moved, under before back.
    let first = |kind: &str| replayed.iter().position(|e| e["kind"] == kind).unwrap();
    assert!(first("group_stuck") < first("group_moving"));
    assert!(first("under_min_isr") < first("min_isr_restored"));
}
