//! `kscope replay` on a real recording: `kscope record` runs against the
//! test cluster while one broker is killed and restarted, then the
//! recording is replayed through the TUI's model (no terminal, no
//! cluster). Before the kill the broker leads partitions; `n` steps the
//! cursor event by event to the kill, where the Events screen shows its
//! leader moves, the Brokers screen shows it down or not answering and
//! leading nothing, and the Partitions screen agrees with `get partitions
//! --from-file --at` at the same millisecond; back at the start the
//! timeline is empty again.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use kscope::recording::{Body, Recording};
use kscope::term::replay::Headless;
use serde_json::{Value, json};
use support::replay::{command, events, find_row, keys, lines, render, row};

/// The broker killed (not the first bootstrap address).
const VICTIM: i32 = 2;

fn partitions(env: &support::ClusterEnv, topic: &str) -> Option<Vec<Value>> {
    let output = support::kscope(env, &["get", "partitions", topic, "-o", "json"]);
    let rows: Value = serde_json::from_slice(&output.stdout).ok()?;
    rows.as_array().cloned()
}

fn holds(list: &Value, id: i32) -> bool {
    list.as_array().is_some_and(|l| l.contains(&json!(id)))
}

/// The time of the first recorded frame with an event `pick` accepts.
fn event_time(file: &Path, pick: impl Fn(&kscope::recording::frame::Event) -> bool) -> Option<i64> {
    let recording: Recording = kscope::recording::read(file).ok()?;
    recording.frames.iter().find_map(|f| match &f.body {
        Body::Events { events } if events.iter().any(&pick) => Some(f.t),
        _ => None,
    })
}

fn moved_off_victim(e: &kscope::recording::frame::Event) -> bool {
    matches!(e.kind, kscope::meta::MovementKind::LeaderChanged { from, .. } if from == VICTIM)
}

fn victim_back(e: &kscope::recording::frame::Event) -> bool {
    matches!(&e.kind, kscope::meta::MovementKind::IsrExpanded { added, .. } if added.contains(&VICTIM))
}

/// Stop the recorder as Ctrl-C would, and wait for it to finish the file.
fn interrupt(record: Child) {
    let pid = record.id().to_string();
    let sent = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(sent.success(), "kill -INT {pid}");
    let output = record.wait_with_output().expect("kscope record ran");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "record failed: {said}");
    assert!(said.contains("frames"), "{said}");
}

#[test]
fn a_recorded_broker_kill_replays_in_the_tui_model_before_and_after_the_kill() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("replay-tui");
    support::create_topic(&env, &topic, "6", &[]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kill.kscope-rec");
    let record = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args([
            "-b",
            env.bootstrap(),
            "record",
            "--to",
            file.to_str().unwrap(),
        ])
        .args(["--topics", &format!("^{topic}$"), "--interval", "1"])
        .args(["--group-interval", "0"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kscope record");
    support::wait_until(Duration::from_secs(30), "the recording's snapshot", || {
        kscope::recording::read_strict(&file)
            .ok()
            .filter(|r| !r.frames.is_empty())
    });

    env.script(&["kill", &VICTIM.to_string()]);
    let killed = support::wait_until(
        Duration::from_mins(1),
        "the recording of leaders moving off the killed broker",
        || event_time(&file, moved_off_victim),
    );
    env.script(&["restart", &VICTIM.to_string()]);
    support::wait_until(Duration::from_secs(90), "every ISR full again", || {
        let rows = partitions(&env, &topic)?;
        rows.iter()
            .all(|r| r["isr"].as_array().is_some_and(|i| i.len() == 3))
            .then_some(())
    });
    support::wait_until(
        Duration::from_mins(1),
        "the recording of the broker back in the ISRs",
        || event_time(&file, victim_back),
    );
    interrupt(record);

    let mut replay = Headless::open(&file, None, (160, 40)).unwrap();
    before_the_kill(&mut replay, &topic);
    // `n` from event to event until the cursor is at the kill's moves.
    for _ in 0..1_000 {
        if replay.state.replay.as_ref().is_some_and(|r| r.at >= killed) {
            break;
        }
        keys(&mut replay, "n");
    }
    let at = replay.state.replay.as_ref().map(|r| r.at);
    assert_eq!(at, Some(killed), "n stops at the kill's events");
    moves_on_the_timeline(&mut replay, &topic);
    // The metadata that says so is recorded a moment after the events
    // derived from it: `:at` that frame, to the millisecond.
    let settled = led_by_none_since(&file, &topic, killed);
    command(
        &mut replay,
        &format!("at {}", kscope::app::stores::replay::rfc3339(settled)),
    );
    let at = replay.state.replay.as_ref().map(|r| r.at);
    assert_eq!(at, Some(settled), ":at reads milliseconds");
    after_the_kill(&mut replay, &file, &topic, settled);
    moves_on_the_timeline(&mut replay, &topic);

    // Back to the start: rebuilt, nothing of the kill left; `{` goes no
    // further back than the first snapshot (the header's start is before).
    keys(&mut replay, "<{");
    before_the_kill(&mut replay, &topic);
}

/// The first frame at or after `killed` where the recording has no
/// partition of `topic` led by the victim.
fn led_by_none_since(file: &Path, topic: &str, killed: i64) -> i64 {
    let recording = kscope::recording::read(file).unwrap();
    recording
        .frames
        .iter()
        .map(|f| f.t)
        .filter(|&t| t >= killed)
        .find(|&t| {
            let view = recording.view_at(t);
            view.metadata
                .topics
                .iter()
                .filter(|t| t.name == topic)
                .all(|t| t.partitions.iter().all(|p| p.leader != Some(VICTIM)))
        })
        .expect("the recording has the leaders moved off the killed broker")
}

/// Every broker up, the victim leading some of the topic, no leader moved.
fn before_the_kill(replay: &mut Headless, topic: &str) {
    command(replay, "brokers");
    let screen = render(replay);
    let victim = row(&screen, &VICTIM.to_string());
    assert_ne!(victim[3], "DOWN", "{screen}");
    assert_ne!(victim[3], "NO", "not 'NO ANSWER':\n{screen}");
    command(replay, &format!("partitions {topic}"));
    let screen = render(replay);
    let led = (0..6)
        .filter(|p| row(&screen, &p.to_string())[1] == VICTIM.to_string())
        .count();
    assert!(led > 0, "broker {VICTIM} leads some partitions:\n{screen}");
    command(replay, "events");
    let screen = render(replay);
    let moved = events(&screen)
        .iter()
        .filter(|(kind, subject)| kind == "leader_changed" && subject.starts_with(topic))
        .count();
    assert_eq!(moved, 0, "{screen}");
}

/// The victim down or silent, leading nothing; the partitions as `get`
/// has them at the same millisecond.
fn after_the_kill(replay: &mut Headless, file: &Path, topic: &str, at: i64) {
    command(replay, "brokers");
    let screen = render(replay);
    if let Some(victim) = find_row(&screen, &VICTIM.to_string()) {
        assert!(
            victim[3] == "DOWN" || victim[3..5] == ["NO", "ANSWER"],
            "broker {VICTIM} at the kill:\n{screen}"
        );
    }
    command(replay, &format!("partitions {topic}"));
    let screen = render(replay);
    // To the millisecond: the cursor is at the frame's own time.
    let at = kscope::app::stores::replay::rfc3339(at);
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args([
            "get",
            "partitions",
            topic,
            "--from-file",
            file.to_str().unwrap(),
        ])
        .args(["--at", &at, "-o", "json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let rows: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(rows.len(), 6);
    for partition in rows {
        let words = row(&screen, &partition["partition"].to_string());
        assert_eq!(
            words[1],
            partition["leader"].to_string(),
            "at {at}:\n{screen}"
        );
        assert_ne!(words[1], VICTIM.to_string(), "at {at}:\n{screen}");
        assert!(!holds(&partition["isr"], VICTIM) || words[4].contains(&VICTIM.to_string()));
    }
}

/// The kill's leader moves are on the Events screen.
fn moves_on_the_timeline(replay: &mut Headless, topic: &str) {
    command(replay, "events");
    let screen = render(replay);
    let moved = lines(&screen)
        .iter()
        .filter(|w| w.len() > 6 && w[2] == "leader_changed" && w[3].starts_with(topic))
        .filter(|w| w.iter().any(|x| x == &VICTIM.to_string()))
        .count();
    assert!(
        moved > 0,
        "the kill's leader moves on the timeline:\n{screen}"
    );
}
