//! `kscope watch events -o json` through the binary, on a throwaway 3-node
//! cluster of its own: partitions added with Kafka's own `TopicCommand`, then
//! a `SIGKILL`ed broker. The partitions-added, ISR-shrank and
//! broker-not-answering events appear with their stable fields, none twice.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TOPIC: &str = "events-orders";
/// The throwaway cluster's first port: apart from the shared test cluster
/// (29092) and the other throwaway clusters (21092-25999).
const PORT_BASE: u16 = 28092;
/// How long an event may take: full refreshes every second, the liveness
/// check every 3 s with 2 s deadlines.
const NOTICE: Duration = Duration::from_mins(1);
/// The fields every record has, in every kind.
const FIELDS: [&str; 10] = [
    "time",
    "kind",
    "severity",
    "source",
    "topic",
    "partition",
    "broker",
    "group",
    "before",
    "after",
];

/// `kscope watch events -o json` in the background, its lines on a channel.
struct Watch {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<Value>,
}

impl Watch {
    fn start(bootstrap: &str) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
            .args(["-b", bootstrap, "watch", "events", "-o", "json"])
            .args(["--interval", "1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start kscope watch events");
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
        support::wait_until(Duration::from_secs(30), "kscope watch to connect", || {
            let out = Command::new("ss")
                .args(["-tnpH", "state", "established"])
                .output()
                .ok()?;
            String::from_utf8_lossy(&out.stdout)
                .contains(&format!("pid={pid},"))
                .then_some(())
        });
        // The first full refresh is the baseline: nothing before it is news.
        std::thread::sleep(Duration::from_secs(3));
        Watch {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn take(&mut self, line: &str) -> Value {
        let event: Value = serde_json::from_str(line).expect("one json object per line");
        for field in FIELDS {
            assert!(event.get(field).is_some(), "no '{field}' in {event}");
        }
        self.seen.push(event.clone());
        event
    }

    /// Wait until `done` holds for what was seen.
    fn until(&mut self, what: &str, done: impl Fn(&[Value]) -> bool) {
        let deadline = Instant::now() + NOTICE;
        while !done(&self.seen) {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.lines.recv_timeout(left) else {
                panic!("no {what} within {NOTICE:?}; saw {:#?}", self.seen);
            };
            self.take(&line);
        }
    }

    /// Read whatever comes within `quiet` (late duplicates would show here).
    fn settle(&mut self, quiet: Duration) {
        let deadline = Instant::now() + quiet;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.take(&line);
        }
    }

    fn of_kind(&self, kind: &str) -> Vec<&Value> {
        self.seen.iter().filter(|e| e["kind"] == kind).collect()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn removed(event: &Value, broker: i64) -> bool {
    event["removed"]
        .as_array()
        .is_some_and(|r| r.contains(&json!(broker)))
}

#[test]
fn partitions_added_an_isr_shrink_and_a_silent_broker_are_events_with_their_fields() {
    let Some(cluster) = support::ThrowawayCluster::start("watch-events", 3, PORT_BASE, false)
    else {
        return;
    };
    let env = cluster.env();
    support::create_topic(env, TOPIC, "3", &[]);
    let mut watch = Watch::start(env.bootstrap());

    env.topic_command(&["--alter", "--topic", TOPIC, "--partitions", "6"]);
    watch.until("partitions_added", |seen| {
        seen.iter().any(|e| e["kind"] == "partitions_added")
    });
    let added = watch.of_kind("partitions_added")[0].clone();
    assert_eq!(added["topic"], TOPIC);
    assert_eq!((&added["before"], &added["after"]), (&json!(3), &json!(6)));
    assert_eq!((&added["from"], &added["to"]), (&json!(3), &json!(6)));
    assert_eq!(
        (&added["severity"], &added["source"]),
        (&json!("info"), &json!("reported"))
    );
    assert_eq!(added["partition"], Value::Null);
    assert!(added["time"].as_str().is_some_and(|t| t.ends_with('Z')));

    // Wait for the new partitions' ISRs to fill, then kill a broker.
    support::wait_until(Duration::from_mins(1), "every ISR full", || {
        let output = support::kscope(env, &["get", "partitions", TOPIC, "-o", "json"]);
        let rows: Value = serde_json::from_slice(&output.stdout).ok()?;
        let rows = rows.as_array()?;
        (rows.len() == 6
            && rows
                .iter()
                .all(|r| r["isr"].as_array().is_some_and(|i| i.len() == 3)))
        .then_some(())
    });
    let victim: i64 = 2;
    env.script(&["kill", &victim.to_string()]);
    watch.until("broker_not_answering and every ISR shrinking", |seen| {
        let silent = seen
            .iter()
            .any(|e| e["kind"] == "broker_not_answering" && e["broker"] == victim);
        let shrank = seen
            .iter()
            .filter(|e| e["kind"] == "isr_shrank" && e["topic"] == TOPIC && removed(e, victim))
            .count();
        silent && shrank >= 6
    });
    watch.settle(Duration::from_secs(8));

    // On two loaded cores another broker may miss a liveness round while
    // the victim's partitions move: that is said too (kscope's own view),
    // and must be said back. The victim is said once.
    let others: Vec<i64> = watch
        .of_kind("broker_not_answering")
        .iter()
        .filter_map(|e| e["broker"].as_i64())
        .filter(|&b| b != victim)
        .collect();
    watch.until("every other broker said back", |seen| {
        others.iter().all(|&b| {
            seen.iter()
                .any(|e| e["kind"] == "broker_answering" && e["broker"] == b)
        })
    });
    let silent: Vec<&Value> = watch
        .of_kind("broker_not_answering")
        .into_iter()
        .filter(|e| e["broker"] == victim)
        .collect();
    assert_eq!(silent.len(), 1, "said once: {silent:#?}");
    assert_eq!(
        (&silent[0]["severity"], &silent[0]["source"]),
        (&json!("critical"), &json!("observed"))
    );
    assert_eq!(
        (&silent[0]["before"], &silent[0]["after"]),
        (&json!("answering"), &json!("not_answering"))
    );
    assert_eq!(silent[0]["topic"], Value::Null);

    assert_each_partition_shrank_once(&watch, victim);
    assert_eq!(watch.of_kind("partitions_added").len(), 1, "added once");
    assert_nothing_twice(&watch);
}

/// One `isr_shrank` per partition of the topic, the victim in its `before`
/// and not in its `after`.
fn assert_each_partition_shrank_once(watch: &Watch, victim: i64) {
    let mut shrinks: BTreeMap<i64, Vec<&Value>> = BTreeMap::new();
    for event in watch.of_kind("isr_shrank") {
        if event["topic"] == TOPIC {
            shrinks
                .entry(event["partition"].as_i64().expect("a partition"))
                .or_default()
                .push(event);
        }
    }
    assert_eq!(
        shrinks.keys().copied().collect::<Vec<_>>(),
        (0..6).collect::<Vec<_>>()
    );
    for (partition, events) in &shrinks {
        assert_eq!(
            events.len(),
            1,
            "partition {partition} shrank once: {events:#?}"
        );
        let event = events[0];
        assert_eq!(
            (&event["severity"], &event["source"]),
            (&json!("warn"), &json!("reported"))
        );
        let before = event["before"].as_array().expect("the ISR before");
        let after = event["after"].as_array().expect("the ISR after");
        assert!(before.contains(&json!(victim)) && !after.contains(&json!(victim)));
        assert_eq!(before.len(), 3);
        assert_eq!(&event["after"], &event["isr"]);
    }
}

/// No event but leader moves (a leader may move away and back) is said twice.
fn assert_nothing_twice(watch: &Watch) {
    let mut keys: Vec<String> = watch
        .seen
        .iter()
        .filter(|e| e["kind"] != "leader_changed")
        .map(|e| {
            format!(
                "{} {} {} {} {} {}",
                e["kind"], e["topic"], e["partition"], e["broker"], e["before"], e["after"]
            )
        })
        .collect();
    let total = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), total, "no event twice: {:#?}", watch.seen);
}

#[test]
fn an_unknown_kind_is_a_usage_error_that_lists_the_kinds() {
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args([
            "-b",
            "127.0.0.1:1",
            "watch",
            "events",
            "--kinds",
            "isr_shrank,leader_moved",
        ])
        .output()
        .expect("run kscope");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown event kind 'leader_moved'"),
        "{stderr}"
    );
    assert!(stderr.contains("partitions_added"), "{stderr}");
}
