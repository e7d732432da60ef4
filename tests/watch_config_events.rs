//! `topic_config_changed` and `broker_config_changed` on a throwaway one-node
//! cluster of its own, through the binary: `kscope watch events -o json`,
//! `kscope record` (played back with `watch events --from-file`) and the
//! TUI's `:events` (in tmux, logging at `trace`) all run while Kafka's own
//! `ConfigCommand` alters a topic's `retention.ms` and back, then sets and
//! removes a secret on a broker. Each change is one event with the old and
//! the new value; the secret shows masked, and its value appears nowhere:
//! not in the watch's output or stderr, not in the recording (its bytes,
//! nor played back), not on the TUI's screen, not in its log.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use support::ClusterEnv;
use support::tmux::{self, Tmux, kscope_command};
use support::watch::Watch;

/// The throwaway cluster's first port (this branch's own range).
const PORT_BASE: u16 = 25892;
/// A sweep runs every 30 s or more: a change shows within about that, and
/// `ConfigCommand` (a JVM) takes seconds to make it.
const NOTICE: Duration = Duration::from_secs(100);
/// What is shown for a secret.
const MASK: &str = "******";
/// The kinds watched.
const KINDS: &str = "topic_config_changed,broker_config_changed";
/// A broker config Kafka takes dynamically and marks sensitive (an unknown
/// name, so it changes nothing on the broker).
const SECRET_CONFIG: &str = "kscope.test.password";

/// Kafka's `ConfigCommand` against the cluster with `args`.
fn config_command(env: &ClusterEnv, args: &[&str]) {
    let mut all = vec![
        "tool",
        "ConfigCommand",
        "--bootstrap-server",
        env.bootstrap(),
    ];
    all.extend(args);
    env.script(&all);
}

/// Set (`--add-config k=v`) or remove (`--delete-config k`) a config of a
/// topic or broker.
fn alter(env: &ClusterEnv, entity: (&str, &str), how: &str, config: &str) {
    let (kind, name) = entity;
    config_command(
        env,
        &[
            "--entity-type",
            kind,
            "--entity-name",
            name,
            "--alter",
            how,
            config,
        ],
    );
}

/// Whether `seen` holds the `kind` record for `config` going `from` → `to`.
fn has(seen: &[Value], kind: &str, config: &str, from: &Value, to: &Value) -> bool {
    seen.iter()
        .any(|e| e["kind"] == kind && e["config"] == config && &e["from"] == from && &e["to"] == to)
}

/// `kscope record` in the background, its stderr lines on a channel.
fn record(bootstrap: &str, to: &Path) -> (Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(["-b", bootstrap, "record", "--to"])
        .arg(to)
        .args(["--group-interval", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kscope record");
    let stderr = child.stderr.take().expect("piped stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    (child, rx)
}

/// Wait for a line containing `text` on `lines`.
fn line_with(lines: &mpsc::Receiver<String>, text: &str) -> String {
    loop {
        let line = lines
            .recv_timeout(Duration::from_mins(1))
            .unwrap_or_else(|_| panic!("no line containing '{text}' within a minute"));
        if line.contains(text) {
            return line;
        }
    }
}

/// The three readers of the events, started on the cluster, each past its
/// first sweep (the baseline).
struct Readers {
    watch: Watch,
    recorder: Child,
    recorded_notes: mpsc::Receiver<String>,
    tui: Option<Tmux>,
    home: tempfile::TempDir,
}

impl Readers {
    fn start(env: &ClusterEnv, topic: &str) -> Readers {
        let home = tempfile::tempdir().expect("temp home");
        let watch = Watch::spawn(
            env.bootstrap(),
            &["--kinds", KINDS, "--group-interval", "0"],
        );
        let (recorder, recorded_notes) = record(env.bootstrap(), &home.path().join("rec"));
        let tui = tmux::available().then(|| {
            let args = format!("-b {}", env.bootstrap());
            let command = kscope_command(home.path(), "KSCOPE_LOG=trace", &args);
            let tui = Tmux::start(&tmux::unique_name("kscope-cfg"), &command);
            tui.wait_for("the topics screen", |s| s.contains(topic));
            for keys in [&[":"][..], &["-l", "events"], &["Enter"]] {
                tui.keys(keys);
            }
            tui
        });
        // The first sweep is the baseline; stderr says when it is done.
        let note = watch.note("configs of");
        assert!(note.contains("1 topic(s)"), "{note}");
        line_with(&recorded_notes, "configs of");
        // The TUI swept at connect (a one-node cluster answers at once).
        std::thread::sleep(Duration::from_secs(2));
        Readers {
            watch,
            recorder,
            recorded_notes,
            tui,
            home,
        }
    }

    /// Stop the recorder (Ctrl-C) and play the recording back: the
    /// played lines, as text and as records.
    fn played_back(&mut self) -> (String, Vec<Value>) {
        Command::new("kill")
            .args(["-INT", &self.recorder.id().to_string()])
            .status()
            .expect("kill -INT");
        let status = self.recorder.wait().expect("record exits");
        assert!(status.success(), "record: {status}");
        let played = Command::new(env!("CARGO_BIN_EXE_kscope"))
            .args(["watch", "events", "-o", "json", "--kinds", KINDS])
            .arg("--from-file")
            .arg(self.home.path().join("rec"))
            .output()
            .expect("play back");
        assert!(played.status.success(), "{played:?}");
        let text = String::from_utf8_lossy(&played.stdout).into_owned();
        let records = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        (text, records)
    }
}

/// `retention.ms` from a week to a day and back: one event each, with the
/// old and the new value.
fn retention_changes(env: &ClusterEnv, watch: &mut Watch, topic: &str) {
    let (week, day) = (json!("604800000"), json!("86400000"));
    alter(
        env,
        ("topics", topic),
        "--add-config",
        "retention.ms=86400000",
    );
    watch.until_within(NOTICE, "retention.ms 604800000 → 86400000", |seen| {
        has(seen, "topic_config_changed", "retention.ms", &week, &day)
    });
    let event = watch
        .seen
        .iter()
        .find(|e| e["kind"] == "topic_config_changed")
        .expect("the event");
    assert_eq!(
        (&event["topic"], &event["partition"], &event["broker"]),
        (&json!(topic), &Value::Null, &Value::Null)
    );
    assert_eq!(
        (&event["severity"], &event["source"], &event["sensitive"]),
        (&json!("info"), &json!("reported"), &json!(false))
    );
    assert_eq!((&event["before"], &event["after"]), (&week, &day));
    alter(
        env,
        ("topics", topic),
        "--add-config",
        "retention.ms=604800000",
    );
    watch.until_within(NOTICE, "retention.ms back to 604800000", |seen| {
        has(seen, "topic_config_changed", "retention.ms", &day, &week)
    });
    let changes = watch
        .seen
        .iter()
        .filter(|e| e["kind"] == "topic_config_changed")
        .count();
    assert_eq!(changes, 2, "each change once: {:#?}", watch.seen);
}

/// A secret set on broker 1, then removed: shown masked both times.
fn broker_secret(env: &ClusterEnv, watch: &mut Watch, secret: &str) {
    let set = format!("{SECRET_CONFIG}={secret}");
    alter(env, ("brokers", "1"), "--add-config", &set);
    watch.until_within(NOTICE, "the broker secret set, masked", |seen| {
        has(
            seen,
            "broker_config_changed",
            SECRET_CONFIG,
            &Value::Null,
            &json!(MASK),
        )
    });
    alter(env, ("brokers", "1"), "--delete-config", SECRET_CONFIG);
    watch.until_within(NOTICE, "the broker secret removed", |seen| {
        has(
            seen,
            "broker_config_changed",
            SECRET_CONFIG,
            &json!(MASK),
            &Value::Null,
        )
    });
    let masked: Vec<&Value> = watch
        .seen
        .iter()
        .filter(|e| e["kind"] == "broker_config_changed")
        .collect();
    assert!(
        masked
            .iter()
            .all(|e| e["broker"] == 1 && e["sensitive"] == true && e["topic"].is_null()),
        "{masked:#?}"
    );
}

/// Every log file the TUI wrote under `home`.
fn tui_logs(home: &Path) -> String {
    let logs = home.join("state/kscope");
    let mut logged = String::new();
    for file in std::fs::read_dir(&logs).expect("the TUI's log dir") {
        logged.push_str(&std::fs::read_to_string(file.unwrap().path()).unwrap_or_default());
    }
    assert!(!logged.is_empty(), "trace logs in {}", logs.display());
    logged
}

#[test]
fn config_changes_show_old_and_new_and_a_secret_never_shows() {
    let Some(cluster) = support::ThrowawayCluster::start("i28-configs", 1, PORT_BASE, false) else {
        return;
    };
    let env = cluster.env();
    let topic = "cfg-orders";
    let layout = ["--partitions", "1", "--replication-factor", "1"];
    let config = ["--config", "retention.ms=604800000"];
    env.create_topic_with_kafka(topic, &[&layout[..], &config[..]].concat());
    let secret = support::unique("kscope-secret");
    let mut readers = Readers::start(env, topic);

    retention_changes(env, &mut readers.watch, topic);
    broker_secret(env, &mut readers.watch, &secret);

    // The TUI's timeline has both kinds.
    let screen = readers.tui.as_ref().map(|tui| {
        tui.wait_for_within(NOTICE, "both kinds on the timeline", |s| {
            s.contains("topic_config_changed") && s.contains("broker_config_changed")
        })
    });
    // The recording holds what the watch printed.
    let (played_text, played) = readers.played_back();
    let (week, day) = (json!("604800000"), json!("86400000"));
    assert!(has(
        &played,
        "topic_config_changed",
        "retention.ms",
        &week,
        &day
    ));
    let masked = json!(MASK);
    assert!(has(
        &played,
        "broker_config_changed",
        SECRET_CONFIG,
        &Value::Null,
        &masked
    ));

    // The secret appears nowhere.
    let recording = std::fs::read(readers.home.path().join("rec")).unwrap();
    let notes: Vec<String> = readers.recorded_notes.try_iter().collect();
    let mut everywhere = vec![
        (
            "watch stdout",
            serde_json::to_string(&readers.watch.seen).unwrap(),
        ),
        ("watch stderr", readers.watch.notes_left().join("\n")),
        ("record stderr", notes.join("\n")),
        ("playback", played_text),
        (
            "recording",
            String::from_utf8_lossy(&recording).into_owned(),
        ),
    ];
    if let Some(screen) = screen {
        everywhere.push(("TUI screen", screen));
        everywhere.push(("TUI log", tui_logs(readers.home.path())));
    }
    for (place, text) in everywhere {
        assert!(!text.contains(&secret), "the secret is in the {place}");
    }
}
