//! `--anonymize`: the built binary against the shared cluster prints no real
//! topic, group, client or host name, and the same pseudonyms everywhere.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::consumers::Reading;
use support::{ClusterEnv, unique, wait_until};

/// kscope with `args`, its state (the key file) under `state`.
fn attempt(env: &ClusterEnv, state: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("XDG_STATE_HOME", state)
        .arg("-b")
        .arg(env.bootstrap())
        .args(args)
        .output()
        .expect("run kscope")
}

/// [`attempt`], which must succeed.
fn run(env: &ClusterEnv, state: &Path, args: &[&str]) -> Output {
    let output = attempt(env, state, args);
    support::assert_success(&output, &format!("kscope {}", args.join(" ")));
    output
}

/// Stdout and stderr together.
fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap()
}

fn assert_hidden(output: &Output, real: &[&str], what: &str) {
    let all = text(output);
    for name in real {
        assert!(!all.contains(name), "{what} shows {name:?}:\n{all}");
    }
}

/// `get topics --anonymize` as JSON and as a table: the rows of a plain
/// run, no real name, the same pseudonyms in a second run; those pseudonyms.
fn get_topics(env: &ClusterEnv, state: &Path, real: &[&str]) -> Vec<String> {
    // get topics: the same rows, every name but Kafka's own a pseudonym.
    let plain = json(&run(env, state, &["get", "topics", "-o", "json"]));
    let output = run(env, state, &["get", "topics", "-o", "json", "--anonymize"]);
    assert_hidden(&output, real, "get topics -o json --anonymize");
    let anonymized = json(&output);
    let (plain, anonymized) = (plain.as_array().unwrap(), anonymized.as_array().unwrap());
    assert_eq!(plain.len(), anonymized.len());
    for row in anonymized {
        let name = row["name"].as_str().unwrap();
        assert!(
            name.starts_with("__") || name.starts_with("topic-"),
            "{name}"
        );
    }
    let pseudonyms = |rows: &[Value]| -> Vec<String> {
        rows.iter()
            .map(|r| r["name"].as_str().unwrap().to_owned())
            .filter(|n| n.starts_with("topic-"))
            .collect()
    };
    let topic_pseudonyms = pseudonyms(anonymized);
    // Stable across runs: a second run gives the same pseudonyms.
    let again = json(&run(
        env,
        state,
        &["get", "topics", "-o", "json", "--anonymize"],
    ));
    assert_eq!(pseudonyms(again.as_array().unwrap()), topic_pseudonyms);
    let table = run(env, state, &["get", "topics", "--anonymize"]);
    assert_hidden(&table, real, "get topics --anonymize");
    assert_eq!(
        String::from_utf8_lossy(&table.stdout).lines().count(),
        plain.len() + 1
    );
    topic_pseudonyms
}

/// `consume --anonymize`: the topic's pseudonym `shown` on every record,
/// the values as they are.
fn consume(env: &ClusterEnv, state: &Path, topic: &str, real: &[&str], shown: &str) {
    let output = run(
        env,
        state,
        &[
            "consume",
            topic,
            "--count",
            "3",
            "-o",
            "json",
            "--anonymize",
        ],
    );
    assert_hidden(&output, real, "consume -o json --anonymize");
    let records: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    for record in &records {
        assert_eq!(record["topic"], shown);
        assert!(record["value"].as_str().unwrap().starts_with("record "));
    }
}

#[test]
fn anonymized_output_holds_pseudonyms_and_never_a_real_name() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let state = std::env::temp_dir().join(unique("kscope-anon-state"));
    let topic = unique("anon-orders");
    let group = unique("anon-billing");
    let client = unique("anon-client");
    env.create_topic_with_kafka(&topic, &["--partitions", "3", "--replication-factor", "1"]);
    let lines: Vec<String> = (0..20).map(|i| format!("record {i}")).collect();
    env.console_produce(&topic, &lines, &[]);
    let _reader = Reading::start(&env, &topic, &group, &client, false);
    let plain_group = wait_until(Duration::from_mins(1), "the group's member", || {
        let output = attempt(&env, &state, &["describe", "group", &group, "-o", "json"]);
        let detail: Value = serde_json::from_slice(&output.stdout).ok()?;
        let assigned = detail["members"][0]["assignment"]
            .as_object()
            .is_some_and(|a| !a.is_empty());
        (assigned && !detail["offsets"].as_array()?.is_empty()).then_some(detail)
    });
    let host = plain_group["members"][0]["client_host"]
        .as_str()
        .unwrap()
        .to_owned();
    let host = host.trim_start_matches('/');
    assert!(!host.is_empty());
    let real = [topic.as_str(), group.as_str(), client.as_str(), host];

    let topic_pseudonyms = get_topics(&env, &state, &real);

    // describe group: as JSON and as text.
    let output = run(
        &env,
        &state,
        &["describe", "group", &group, "-o", "json", "--anonymize"],
    );
    assert_hidden(&output, &real, "describe group -o json --anonymize");
    let detail = json(&output);
    let shown = detail["group"].as_str().unwrap();
    assert!(shown.starts_with("group-"), "{shown}");
    let member = &detail["members"][0];
    assert!(member["client_id"].as_str().unwrap().starts_with("client-"));
    assert!(member["client_host"].as_str().unwrap().starts_with("host-"));
    let offsets = detail["offsets"].as_array().unwrap();
    assert_eq!(
        offsets.len(),
        plain_group["offsets"].as_array().unwrap().len()
    );
    let offset_topic = offsets[0]["topic"].as_str().unwrap();
    assert!(
        topic_pseudonyms.iter().any(|p| p == offset_topic),
        "{offset_topic} is not among get topics' pseudonyms {topic_pseudonyms:?}"
    );
    let output = run(&env, &state, &["describe", "group", &group, "--anonymize"]);
    assert_hidden(&output, &real, "describe group --anonymize");
    assert!(text(&output).contains(shown) && text(&output).contains(offset_topic));

    // describe topic (named by its real name) and get brokers.
    let output = run(&env, &state, &["describe", "topic", &topic, "--anonymize"]);
    assert_hidden(&output, &real, "describe topic --anonymize");
    assert!(text(&output).contains(offset_topic));
    assert!(text(&output).contains(shown));
    let output = run(
        &env,
        &state,
        &["describe", "topic", &topic, "--clients", "--anonymize"],
    );
    assert_hidden(&output, &real, "describe topic --clients --anonymize");
    assert!(text(&output).contains(offset_topic));

    consume(&env, &state, &topic, &real, offset_topic);

    let output = run(
        &env,
        &state,
        &["get", "brokers", "-o", "json", "--anonymize"],
    );
    let brokers = json(&output);
    for broker in brokers.as_array().unwrap() {
        let shown = broker["host"].as_str().unwrap();
        assert!(shown.starts_with("host-"), "{shown}");
        assert_hidden(
            &output,
            &[env.bootstrap_list()[0].split(':').next().unwrap()],
            "get brokers",
        );
    }

    // What would show real names is refused: Kafka's own topics.
    let output = attempt(
        &env,
        &state,
        &["consume", "__consumer_offsets", "--anonymize"],
    );
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("--anonymize"), "{}", text(&output));

    // The key was made once, readable by its owner only.
    let key = state.join("kscope/anonymize.key");
    let mode = std::fs::metadata(&key).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{}", key.display());
    let _ = std::fs::remove_dir_all(&state);
}

/// `watch events --anonymize` in the background: its stdout lines on a
/// channel.
fn watch(env: &ClusterEnv, state: &Path, extra: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("XDG_STATE_HOME", state)
        .args(["-b", env.bootstrap(), "watch", "events", "--anonymize"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start kscope watch events");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    (child, rx)
}

/// The first line `lines` gives within `within` that holds every one of
/// `what`; none of them may show a name of `real`.
fn line_with(
    lines: &mpsc::Receiver<String>,
    what: &[&str],
    real: &[String],
    within: Duration,
) -> Option<String> {
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = lines.recv_timeout(left).ok()?;
        for real in real {
            assert!(!line.contains(real), "watch events shows {real:?}: {line}");
        }
        if what.iter().all(|w| line.contains(w)) {
            return Some(line);
        }
    }
}

#[test]
fn watch_events_name_a_new_topic_by_its_pseudonym() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let state = std::env::temp_dir().join(unique("kscope-anon-state"));
    let (mut json_watch, json_lines) = watch(&env, &state, &["-o", "json"]);
    let (mut text_watch, text_lines) = watch(&env, &state, &[]);
    // A topic created before a watcher's first read is no news to it: make
    // topics until both have announced one (the first, unless a watcher
    // was still starting), each named by the same pseudonym.
    let mut created = Vec::new();
    let shown = loop {
        assert!(created.len() < 6, "neither watcher announced {created:?}");
        let topic = unique("anon-created");
        env.create_topic_with_kafka(&topic, &["--partitions", "2", "--replication-factor", "1"]);
        created.push(topic.clone());
        let within = Duration::from_secs(20);
        let Some(line) = line_with(&json_lines, &["\"topic_created\""], &created, within) else {
            continue;
        };
        let event: Value = serde_json::from_str(&line).unwrap();
        let shown = event["topic"].as_str().unwrap().to_owned();
        assert!(shown.starts_with("topic-"), "{line}");
        if line_with(&text_lines, &["topic_created", &shown], &created, within).is_some() {
            break shown;
        }
    };
    for child in [&mut json_watch, &mut text_watch] {
        let _ = child.kill();
        let _ = child.wait();
    }
    // The pseudonym is the one the other commands print.
    let topics = json(&run(
        &env,
        &state,
        &["get", "topics", "-o", "json", "--anonymize"],
    ));
    assert!(
        topics
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == shown),
        "{shown} not in {topics}"
    );
    let _ = std::fs::remove_dir_all(&state);
}
