//! Liveness through the binary, each test on a throwaway 3-node cluster of
//! its own: a broker frozen with SIGSTOP (its kernel still accepts
//! connections) is said to be not answering by the TUI's header and Brokers
//! screen, by `watch leaders` and on `get`'s stderr, and answering again after
//! SIGCONT; with 2 of 3 nodes killed the quorum has no majority, and kscope
//! says the metadata is frozen while `get` still answers from what the
//! surviving broker holds.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::tmux::{self, Tmux};

const TOPIC: &str = "liveness-orders";
/// How long a liveness change may take to be reported: the check runs every
/// 3 s with 2 s deadlines, the quorum needs seconds to lose its leader.
const NOTICE: Duration = Duration::from_mins(1);

fn kscope(bootstrap: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kscope"))
        .arg("-b")
        .arg(bootstrap)
        .args(args)
        .output()
        .expect("run kscope")
}

fn topic_names(output: &Output) -> Vec<String> {
    let rows: Value = serde_json::from_slice(&output.stdout).expect("json on stdout");
    rows.as_array()
        .expect("an array of topics")
        .iter()
        .map(|row| row["name"].as_str().expect("a name").to_owned())
        .collect()
}

/// `kscope watch leaders -o json` in the background, its lines on a channel.
struct Watch {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<Value>,
}

impl Watch {
    fn start(bootstrap: &str) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
            .args(["-b", bootstrap, "watch", "leaders", "-o", "json"])
            // A full refresh only every ten minutes: the snapshot keeps
            // naming the frozen broker while the liveness check runs.
            .args(["--interval", "600"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start kscope watch");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let pid = child.id();
        // Connected: the process holds an established connection to a broker.
        support::wait_until(Duration::from_secs(30), "kscope watch to connect", || {
            let out = Command::new("ss")
                .args(["-tnpH", "state", "established"])
                .output()
                .ok()?;
            String::from_utf8_lossy(&out.stdout)
                .contains(&format!("pid={pid},"))
                .then_some(())
        });
        Watch {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Wait for an event with this `kind` (and `broker`, when given).
    fn expect(&mut self, kind: &str, broker: Option<i64>) -> Value {
        let matches = |event: &Value| {
            event["kind"] == kind && broker.is_none_or(|b| event["broker"].as_i64() == Some(b))
        };
        if let Some(event) = self.seen.iter().find(|e| matches(e)) {
            return event.clone();
        }
        let deadline = Instant::now() + NOTICE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.lines.recv_timeout(left) else {
                panic!(
                    "no {kind} event (broker {broker:?}) within {NOTICE:?}; saw {:#?}",
                    self.seen
                );
            };
            let event: Value = serde_json::from_str(&line).expect("one json object per line");
            self.seen.push(event.clone());
            if matches(&event) {
                return event;
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tui(home: &Path, bootstrap: &str) -> Tmux {
    let command = tmux::kscope_command(home, "", &format!("-b {bootstrap}"));
    Tmux::start(&tmux::unique_name("kscope-liveness"), &command)
}

#[test]
fn a_frozen_broker_is_not_answering_everywhere_and_answers_again_when_thawed() {
    let Some(cluster) = support::ThrowawayCluster::start("frozen", 3, 25192, false) else {
        return;
    };
    assert!(tmux::available(), "this test needs tmux");
    let env = cluster.env();
    env.create_topic_with_kafka(TOPIC, &["--partitions", "3", "--replication-factor", "3"]);
    let home = tempfile::tempdir().expect("a home directory");
    let pane = tui(home.path(), env.bootstrap());
    pane.wait_for("the header with three brokers", |s| {
        s.contains("brokers: 3 registered, 3 answering")
    });
    pane.keys(&["-l", ":brokers"]);
    pane.keys(&["Enter"]);
    let mut watch = Watch::start(env.bootstrap());

    env.script(&["freeze", "2"]);
    let output = kscope(env.bootstrap(), &["get", "topics", "-o", "json"]);
    support::assert_success(&output, "kscope get topics with node 2 frozen");
    assert!(topic_names(&output).iter().any(|n| n == TOPIC));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("kscope: warning: broker 2 not answering"),
        "stderr: {stderr}"
    );

    watch.expect("broker_not_answering", Some(2));
    let screen = pane.wait_for("broker 2 not answering in the header", |s| {
        s.contains("NOT ANSWERING: broker 2")
    });
    assert!(
        screen.contains("brokers: 3 registered, 2 answering"),
        "the header tells the cluster's claim from kscope's view:\n{screen}"
    );
    let row: Vec<&str> = screen
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with("2 "))
        .map_or_else(
            || panic!("broker 2's row on the Brokers screen:\n{screen}"),
            |l| l.split_whitespace().collect(),
        );
    assert!(row.windows(2).any(|w| w == ["NO", "ANSWER"]), "{row:?}");

    env.script(&["thaw", "2"]);
    watch.expect("broker_answering", Some(2));
    pane.wait_for("the header without a silent broker", |s| {
        !s.contains("NOT ANSWERING") && s.contains("brokers: 3 registered, 3 answering")
    });
    assert!(pane.alive(), "the TUI is still running");
    pane.keys(&["q"]);
    pane.wait_for_exit(Duration::from_secs(10));
}

#[test]
fn with_two_of_three_nodes_killed_the_metadata_is_said_to_be_frozen() {
    let Some(cluster) = support::ThrowawayCluster::start("quorum", 3, 25292, false) else {
        return;
    };
    let env = cluster.env();
    env.create_topic_with_kafka(TOPIC, &["--partitions", "3", "--replication-factor", "3"]);
    let mut watch = Watch::start(env.bootstrap());

    env.script(&["kill", "1"]);
    env.script(&["kill", "2"]);
    let frozen = watch.expect("metadata_frozen", None);
    assert!(
        frozen["reason"]
            .as_str()
            .is_some_and(|r| r.contains("KRaft quorum")),
        "{frozen}"
    );
    watch.expect("broker_not_answering", Some(1));
    watch.expect("broker_not_answering", Some(2));

    let output = kscope(env.bootstrap(), &["get", "topics", "-o", "json"]);
    support::assert_success(&output, "kscope get topics with 2 of 3 nodes killed");
    assert_eq!(
        topic_names(&output),
        [TOPIC],
        "answered from node 3's metadata"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("kscope: warning: metadata may be stale"),
        "stderr: {stderr}"
    );
    assert!(
        stderr.contains("broker 1, 2 not answering"),
        "stderr: {stderr}"
    );

    env.script(&["restart", "1"]);
    watch.expect("metadata_live", None);
    watch.expect("broker_answering", Some(1));
}
