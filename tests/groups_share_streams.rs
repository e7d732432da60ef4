//! Share groups (KIP-932) and streams groups (KIP-1071) on the real cluster
//! (Kafka 4.2+), run by Kafka's own clients: `ConsoleShareConsumer` and the
//! `WordCountDemo` Streams application with `group.protocol=streams`.
//! kscope's answers are checked against Kafka's own `ShareGroupCommand` and
//! `StreamsGroupCommand` on the same broker. Before this, kscope described
//! both kinds with the classic `DescribeGroups`, which answers `Dead`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use support::tmux::{self, Tmux, kscope_command};
use support::{ClusterEnv, kscope, shared_cluster, unique, wait_until};

/// A Kafka client started with `scripts/kafka-cluster tool`, its whole
/// process group killed on drop.
struct Client(Child);

impl Client {
    fn start(env: &ClusterEnv, args: &[&str], stdout: Stdio) -> Client {
        let child = Command::new(support::repo().join("scripts/kafka-cluster"))
            .args(["tool", "--name", env.name()])
            .args(args)
            .stdout(stdout)
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start a Kafka client");
        Client(child)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.wait();
    }
}

fn produce(env: &ClusterEnv, topic: &str, lines: &str) {
    let mut child = Command::new(support::repo().join("scripts/kafka-cluster"))
        .args(["tool", "--name", env.name()])
        .args([
            "org.apache.kafka.tools.ConsoleProducer",
            "--bootstrap-server",
            env.bootstrap(),
            "--topic",
            topic,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start ConsoleProducer");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), lines.as_bytes()).unwrap();
    drop(child.stdin.take());
    assert!(child.wait().unwrap().success(), "ConsoleProducer failed");
}

/// `count` lines made by `line`, each ending in a newline.
fn numbered(count: usize, line: impl Fn(usize) -> String) -> String {
    let mut text = String::new();
    for i in 0..count {
        text.push_str(&line(i));
        text.push('\n');
    }
    text
}

fn describe_json(env: &ClusterEnv, group: &str) -> Option<Value> {
    let out = kscope(env, &["describe", "group", group, "-o", "json"]);
    if !out.status.success() {
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

/// The rows of a Kafka tool's table (after its header line), split on
/// whitespace.
fn table_rows(text: &str, header_starts: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|l| !l.starts_with(header_starts))
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect()
}

/// `(topic, partition)` → `(start offset, lag)` as kscope's JSON gives them
/// (`-` where it has no number, as Kafka's tool prints).
fn kscope_share_offsets(json: &Value) -> BTreeMap<(String, i64), (String, String)> {
    let cell = |v: &Value| v.as_i64().map_or_else(|| "-".to_owned(), |n| n.to_string());
    json["offsets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                (
                    o["topic"].as_str().unwrap().to_owned(),
                    o["partition"].as_i64().unwrap(),
                ),
                (cell(&o["committed"]), cell(&o["lag"])),
            )
        })
        .collect()
}

#[test]
fn a_share_group_is_described_with_its_members_start_offsets_and_the_brokers_lag() {
    let Some(env) = shared_cluster() else { return };
    let topic = unique("share-jobs");
    let group = unique("share-queue");
    env.create_topic_with_kafka(&topic, &["--partitions", "3"]);
    let consumer = Client::start(
        &env,
        &[
            "org.apache.kafka.tools.consumer.ConsoleShareConsumer",
            "--bootstrap-server",
            env.bootstrap(),
            "--topic",
            &topic,
            "--group",
            &group,
        ],
        Stdio::null(),
    );
    // The member joins and is assigned every partition.
    let joined = wait_until(Duration::from_mins(1), "the share consumer to join", || {
        let json = describe_json(&env, &group)?;
        let assigned = json["members"].as_array()?.first()?["assignment"][&topic]
            .as_array()?
            .len();
        (assigned == 3).then_some(json)
    });
    assert_eq!(joined["type"], "share");
    assert_eq!(joined["protocol_type"], "share");
    assert_ne!(joined["state"], "Dead", "described with the classic API");
    assert!(joined["group_epoch"].as_i64().unwrap() >= 1);
    let member = &joined["members"][0];
    assert_eq!(member["client_id"], "console-share-consumer");
    assert_eq!(member["subscribed_topics"], serde_json::json!([topic]));

    let lines = numbered(300, |i| format!("job-{i}"));
    produce(&env, &topic, &lines);

    // kscope and Kafka's own tool agree on every partition's start offset
    // and lag (the share state is written behind the consumer, so both are
    // read until they agree with each other on a non-empty answer).
    wait_until(
        Duration::from_secs(90),
        "kscope and ShareGroupCommand to agree on the share offsets",
        || {
            let ours = kscope_share_offsets(&describe_json(&env, &group)?);
            let theirs_text = env.script(&[
                "tool",
                "org.apache.kafka.tools.consumer.group.ShareGroupCommand",
                "--bootstrap-server",
                env.bootstrap(),
                "--describe",
                "--group",
                &group,
                "--offsets",
            ]);
            let theirs: BTreeMap<(String, i64), (String, String)> =
                table_rows(&theirs_text, "GROUP")
                    .into_iter()
                    .filter(|r| r.len() >= 5)
                    .map(|r| {
                        (
                            (r[1].clone(), r[2].parse().unwrap()),
                            (r[3].clone(), r[4].clone()),
                        )
                    })
                    .collect();
            let started = theirs.values().filter(|(start, _)| start != "-").count();
            (theirs.len() == 3 && started > 0 && ours == theirs).then_some(())
        },
    );

    // The list says share too, with its member.
    let out = kscope(&env, &["get", "groups", "-o", "json"]);
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["group"] == group.as_str())
        .expect("listed");
    assert_eq!(row["type"], "share");
    assert_eq!(row["members"], 1);
    assert!(row.get("error").is_none(), "{row}");

    // The TUI: the list says share, Enter opens the group, m its member, C
    // the group's own configs.
    walk_into(&env, &group, "share", &format!("{topic}:0,1,2"), |s| {
        s.contains("share · Stable") && s.contains("COMMITTED is the share-partition start offset")
    });
    drop(consumer);
}

/// Walk the TUI into `group` of type `kind`: the list row, the group's
/// screen (`screen` true on it), its members (one shows `assigned`), its
/// configs, and out.
fn walk_into(
    env: &ClusterEnv,
    group: &str,
    kind: &str,
    assigned: &str,
    screen: impl Fn(&str) -> bool,
) {
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name(&format!("kscope-{kind}")), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&[":"]);
    tmux.keys(&["-l", "groups"]);
    tmux.keys(&["Enter"]);
    tmux.keys(&["/"]);
    tmux.keys(&["-l", group]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the group's row with its type", |s| {
        s.lines().any(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            cells.first() == Some(&group)
                && cells.get(1) == Some(&kind)
                && cells.get(2) != Some(&"Dead")
        })
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for("the group's screen", &screen);
    tmux.keys(&["m"]);
    tmux.wait_for("the member and its assignment", |s| {
        s.contains(&format!("members of group '{group}'")) && s.contains(assigned)
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("the group again", &screen);
    tmux.keys(&["C"]);
    let setting = format!("{kind}.session.timeout.ms");
    tmux.wait_for("the group's configs", |s| {
        s.contains(&format!("configs of group '{group}'")) && s.contains(&setting)
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}

#[test]
fn a_streams_group_shows_its_topology_tasks_and_the_lag_kafka_prints() {
    let Some(env) = shared_cluster() else { return };
    // WordCountDemo's names are fixed: its application id is the group.
    let group = "streams-wordcount";
    let input = "streams-plaintext-input";
    for topic in [input, "streams-wordcount-output"] {
        let _ = env.topic_command(&[
            "--create",
            "--if-not-exists",
            "--topic",
            topic,
            "--partitions",
            "3",
        ]);
    }
    let state = tempfile::tempdir().unwrap();
    let props = state.path().join("wordcount.properties");
    std::fs::write(
        &props,
        format!(
            "bootstrap.servers={}\ngroup.protocol=streams\nstate.dir={}\ncommit.interval.ms=500\n",
            env.bootstrap(),
            state.path().join("state").display()
        ),
    )
    .unwrap();
    let app = Client::start(
        &env,
        &[
            "org.apache.kafka.streams.examples.wordcount.WordCountDemo",
            props.to_str().unwrap(),
        ],
        Stdio::null(),
    );
    let words = numbered(50, |i| {
        format!("the quick brown fox {i} jumps over the lazy dog")
    });
    produce(&env, input, &words);

    let described = wait_until(
        Duration::from_mins(2),
        "the streams group to be stable with its tasks",
        || {
            let json = describe_json(&env, group)?;
            let member = json["members"].as_array()?.first()?.clone();
            let active = member["tasks"]["active"].as_object()?;
            (json["state"] == "Stable" && active.len() == 2).then_some(json)
        },
    );
    assert_eq!(described["type"], "streams");
    let topology = &described["topology"]["subtopologies"];
    assert_eq!(topology[0]["id"], "0");
    assert_eq!(topology[0]["source_topics"], serde_json::json!([input]));
    let repartition = topology[0]["repartition_sink_topics"][0].as_str().unwrap();
    assert!(repartition.ends_with("-repartition"), "{repartition}");
    assert_eq!(
        topology[1]["repartition_source_topics"],
        serde_json::json!([repartition])
    );
    assert!(
        topology[1]["changelog_topics"][0]
            .as_str()
            .unwrap()
            .ends_with("-changelog")
    );
    let member = &described["members"][0];
    assert!(!member["process_id"].as_str().unwrap().is_empty());
    // Tasks of subtopology 0 read the input; the member's partitions say so.
    assert_eq!(
        member["assignment"][input].as_array().unwrap().len(),
        3,
        "{member}"
    );

    // Lag per input partition equals Kafka's own StreamsGroupCommand where
    // kscope has a number (kscope says "no commit" where Kafka prints 0).
    lag_agrees_with_kafka(&env, group, input);
    walk_into(&env, group, "streams", &format!("{input}:0,1,2"), |s| {
        s.contains("streams · Stable") && s.contains("2 subtopologies")
    });
    drop(app);
}

/// Wait until kscope's lag per partition of the streams `group` equals what
/// Kafka's `StreamsGroupCommand --offsets` prints, with a commit on `input`.
fn lag_agrees_with_kafka(env: &ClusterEnv, group: &str, input: &str) {
    wait_until(
        Duration::from_secs(90),
        "kscope and StreamsGroupCommand to agree on the lag",
        || {
            let json = describe_json(env, group)?;
            let ours: BTreeMap<(String, i64), i64> = json["offsets"]
                .as_array()?
                .iter()
                .filter_map(|o| {
                    Some((
                        (o["topic"].as_str()?.to_owned(), o["partition"].as_i64()?),
                        o["lag"].as_i64()?,
                    ))
                })
                .collect();
            let text = env.script(&[
                "tool",
                "org.apache.kafka.tools.streams.StreamsGroupCommand",
                "--bootstrap-server",
                env.bootstrap(),
                "--describe",
                "--group",
                group,
                "--offsets",
            ]);
            let theirs: BTreeMap<(String, i64), i64> = table_rows(&text, "GROUP")
                .into_iter()
                .filter(|r| r.len() >= 4)
                .filter_map(|r| Some(((r[1].clone(), r[2].parse().ok()?), r[3].parse().ok()?)))
                .collect();
            let input_committed = ours.keys().filter(|(t, _)| t == input).count();
            (input_committed > 0 && ours.iter().all(|(tp, lag)| theirs.get(tp) == Some(lag)))
                .then_some(())
        },
    );
}
