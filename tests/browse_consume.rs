//! `kscope consume` (the browse layer) as the built binary against the real
//! cluster: every codec, headers and tombstones, transactions under both
//! isolations, 100 partitions merged by time, `-N`, timestamps, a group's
//! committed offsets, an offset out of range, follow (also across a leader
//! move), a missing topic, values of 1 MiB, a compacted topic's offset gaps,
//! an offset out of range after `DeleteRecords`.
//! Records are produced with the Python client (librdkafka), which
//! `scripts/kcat` installs into the kscope cache dir.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod browse_fixture;
mod support;

use browse_fixture::produce;
use support::{kscope, unique};

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// `kscope consume ARGS -o json`, which must succeed: its records and stderr.
fn consume(env: &support::ClusterEnv, args: &[&str]) -> (Vec<Value>, String) {
    let mut all = vec!["consume"];
    all.extend(args);
    all.extend(["-o", "json"]);
    let output = kscope(env, &all);
    support::assert_success(&output, &format!("kscope {}", all.join(" ")));
    let records = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one json object per line"))
        .collect();
    (
        records,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn values(records: &[Value]) -> Vec<String> {
    records
        .iter()
        .map(|r| r["value"].as_str().unwrap_or("null").to_owned())
        .collect()
}

#[test]
fn every_codec_with_duplicate_headers_and_a_tombstone() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-codecs");
    support::create_topic(&env, &topic, "1", &[]);
    produce(&env, &topic, &["codecs"]);
    let (records, _) = consume(&env, &[&topic, "-p", "0"]);
    assert_eq!(records.len(), 26, "{records:?}");
    for (i, codec) in ["none", "gzip", "snappy", "lz4", "zstd"].iter().enumerate() {
        let first = &records[i * 5];
        assert_eq!(first["codec"], *codec);
        assert_eq!(first["key"], format!("{codec}-0"));
        assert_eq!(first["value"], format!("{{\"codec\":\"{codec}\",\"i\":0}}"));
        let headers = first["headers"].as_array().unwrap();
        let keys: Vec<&str> = headers.iter().map(|h| h["key"].as_str().unwrap()).collect();
        assert_eq!(keys, ["trace", "trace", "nil"], "duplicate keys kept");
        assert_eq!(headers[1]["value"], "b");
        assert_eq!(headers[2]["value"], Value::Null);
    }
    let offsets: Vec<i64> = records
        .iter()
        .map(|r| r["offset"].as_i64().unwrap())
        .collect();
    assert_eq!(offsets, (0..26).collect::<Vec<i64>>(), "no gap, no repeat");
    let tombstone = &records[25];
    assert_eq!(
        (tombstone["key"].as_str(), &tombstone["value"]),
        (Some("gone"), &Value::Null)
    );
    assert_eq!(tombstone["timestamp_type"], "create");
    assert!(tombstone["leader_epoch"].as_i64().unwrap() >= 0);
}

#[test]
fn aborted_transactions_show_only_under_read_uncommitted() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-txn");
    support::create_topic(&env, &topic, "1", &[]);
    produce(&env, &topic, &["txn"]);
    let (committed, _) = consume(&env, &[&topic]);
    assert_eq!(
        values(&committed),
        ["committed-0", "committed-1", "committed-2", "committed-3"]
    );
    let (all, _) = consume(&env, &[&topic, "--isolation", "uncommitted"]);
    assert_eq!(
        values(&all),
        [
            "committed-0",
            "committed-1",
            "committed-2",
            "aborted-0",
            "aborted-1",
            "committed-3"
        ],
        "control records never show"
    );
    // -N counts offsets, and transaction markers take offsets: the last
    // record (7) sits before its commit marker (8).
    let (last, _) = consume(&env, &[&topic, "--from", "-2"]);
    assert_eq!(values(&last), ["committed-3"]);
}

#[test]
fn a_hundred_partitions_merge_by_time_and_start_where_asked() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-merge");
    support::create_topic(&env, &topic, "100", &[]);
    produce(&env, &topic, &["spread", "300"]);
    let (records, _) = consume(&env, &[&topic]);
    assert_eq!(records.len(), 300);
    let times: Vec<i64> = records
        .iter()
        .map(|r| r["timestamp"].as_i64().unwrap())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "merged by timestamp"
    );
    let (first, _) = consume(&env, &[&topic, "-n", "5"]);
    assert_eq!(values(&first), ["r-0", "r-1", "r-2", "r-3", "r-4"]);
    let (tail, _) = consume(&env, &[&topic, "--from", "-1"]);
    assert_eq!(tail.len(), 100, "the last record of each partition");
    assert_eq!(tail[0]["value"], "r-200");
    // 2024-01-01T00:00:00Z + 250 s: record 249 onwards.
    let (since, _) = consume(&env, &[&topic, "--from", "2024-01-01T00:04:10Z"]);
    assert_eq!(since.len(), 51);
    assert_eq!(since[0]["value"], "r-249");
    let (at_ms, _) = consume(&env, &[&topic, "-p", "7", "--from", "@1704067400000"]);
    assert_eq!(values(&at_ms), ["r-207"]);
    let (none, stderr) = consume(&env, &[&topic, "-p", "3", "--from", "-1m"]);
    assert!(none.is_empty());
    assert!(stderr.contains("no record at or after"), "{stderr}");
}

#[test]
fn a_groups_committed_offset_an_offset_out_of_range_and_a_missing_topic() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-group");
    support::create_topic(&env, &topic, "1", &[]);
    produce(&env, &topic, &["plain", "10"]);
    let group = unique("browse-g");
    produce(&env, &topic, &["commit", &group, "0", "7"]);
    let (records, _) = consume(&env, &[&topic, "--from", &format!("group:{group}")]);
    assert_eq!(values(&records), ["v-7", "v-8", "v-9"]);

    let (none, stderr) = consume(&env, &[&topic, "-p", "0", "--from", "1000"]);
    assert!(none.is_empty());
    assert!(
        stderr.contains("offset 1000 is out of range (low watermark 0, high watermark 10)"),
        "{stderr}"
    );

    let missing = unique("browse-missing");
    let output = kscope(&env, &["consume", &missing]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("not found"), "{stderr}");
    let listed = kscope(&env, &["get", "topics", "-o", "json"]);
    assert!(
        !String::from_utf8_lossy(&listed.stdout).contains(&missing),
        "never created"
    );
}

#[test]
fn follow_shows_records_produced_after_it_started() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-follow");
    support::create_topic(&env, &topic, "1", &[]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args([
            "-b",
            env.bootstrap(),
            "consume",
            &topic,
            "--follow",
            "--from",
            "0",
            "-n",
            "3",
            "-o",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kscope consume --follow");
    produce(&env, &topic, &["plain", "3"]);
    let deadline = Instant::now() + Duration::from_mins(1);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("consume --follow -n 3 did not see 3 records within 60 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = child.wait_with_output().expect("output");
    assert!(
        status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(values(&lines), ["v-0", "v-1", "v-2"]);
}

/// The leader of `topic`'s partition 0 and its replicas, as kscope sees them.
fn leader_and_replicas(env: &support::ClusterEnv, topic: &str) -> (i64, Vec<i64>) {
    let output = kscope(env, &["get", "partitions", topic, "-o", "json"]);
    support::assert_success(&output, "kscope get partitions");
    let rows: Value = serde_json::from_slice(&output.stdout).expect("json");
    let row = &rows[0];
    let replicas = row["replicas"]
        .as_array()
        .expect("replicas")
        .iter()
        .map(|r| r.as_i64().expect("a broker id"))
        .collect();
    (row["leader"].as_i64().expect("a leader"), replicas)
}

#[test]
fn follow_across_a_leader_move_shows_every_offset_once_in_order() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-move");
    support::create_topic(&env, &topic, "1", &[]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(["-b", env.bootstrap(), "consume", &topic])
        .args(["--follow", "--from", "0", "-n", "300", "-o", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kscope consume --follow");
    let stdout = child.stdout.take().expect("stdout");
    let (lines, seen) = std::sync::mpsc::channel::<Value>();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines
                .send(serde_json::from_str(&line).expect("one json object per line"))
                .is_err()
            {
                break;
            }
        }
    });
    let mut records = Vec::new();
    let mut receive_until = |count: usize, what: &str| {
        let deadline = Instant::now() + Duration::from_mins(1);
        while records.len() < count {
            let left = deadline.saturating_duration_since(Instant::now());
            let got = records.len();
            let record = seen
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("{what}: {got} of {count} records within 60 s ({e})"));
            records.push(record);
        }
    };

    produce(&env, &topic, &["plain", "100"]);
    receive_until(100, "before the move");
    let (from, replicas) = leader_and_replicas(&env, &topic);
    let to = *replicas
        .iter()
        .find(|r| **r != from)
        .expect("another replica");
    // Records keep arriving while the leader moves, and after it.
    let producing = {
        let env = env.clone();
        let topic = topic.clone();
        std::thread::spawn(move || {
            for _ in 0..4 {
                produce(&env, &topic, &["plain", "25"]);
            }
        })
    };
    env.script(&["move-leader", &topic, "0", &to.to_string()]);
    producing.join().expect("producer thread");
    assert_eq!(leader_and_replicas(&env, &topic).0, to, "the leader moved");
    produce(&env, &topic, &["plain", "100"]);
    receive_until(300, "after the move");

    let deadline = Instant::now() + Duration::from_mins(1);
    while child.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "consume -n 300 did not exit");
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("output");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    reader.join().expect("reader thread");
    let offsets: Vec<i64> = records
        .iter()
        .map(|r| r["offset"].as_i64().expect("an offset"))
        .collect();
    let expected: Vec<i64> = (0..300).collect();
    assert_eq!(offsets, expected, "no gap, no duplicate, in order");
    assert!(
        records.iter().any(|r| r["leader_epoch"].as_i64() > Some(0)),
        "records written after the move carry the new leader's epoch"
    );
}

/// The value size of the large-record test.
const SIZE: usize = 1 << 20;

#[test]
fn values_of_a_mebibyte_in_every_codec_come_whole() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-big");
    // A record of 1 MiB is past the broker's default max.message.bytes.
    support::create_topic(
        &env,
        &topic,
        "1",
        &["--config", "max.message.bytes=4194304"],
    );
    for codec in ["none", "lz4", "zstd"] {
        produce(&env, &topic, &["big", "2", &SIZE.to_string(), codec]);
    }
    let (records, stderr) = consume(&env, &[&topic, "-p", "0"]);
    assert_eq!(records.len(), 6, "{stderr}");
    for (i, record) in records.iter().enumerate() {
        let value = record["value"].as_str().expect("a text value");
        assert_eq!(value.len(), SIZE, "record {i} whole");
        assert!(value.starts_with(&format!("{}:x", i % 2)), "record {i}");
        assert!(value.ends_with("xxxx"));
        assert_eq!(record["offset"].as_i64(), i64::try_from(i).ok());
    }
    let codecs: Vec<&str> = records
        .iter()
        .map(|r| r["codec"].as_str().unwrap())
        .collect();
    assert_eq!(codecs, ["none", "none", "lz4", "lz4", "zstd", "zstd"]);
}

#[test]
fn a_compacted_topic_reads_across_its_offset_gaps_once_each() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-compact");
    let configs = [
        "cleanup.policy=compact",
        "segment.ms=100",
        "min.cleanable.dirty.ratio=0.001",
        "min.compaction.lag.ms=0",
        "delete.retention.ms=100",
    ];
    let mut extra = Vec::new();
    for config in &configs {
        extra.extend(["--config", config]);
    }
    support::create_topic(&env, &topic, "1", &extra);
    produce(&env, &topic, &["compact"]);
    // The cleaner runs on its own schedule (every 15 s when idle): wait
    // until it has removed the overwritten values.
    let deadline = Instant::now() + Duration::from_secs(150);
    let records = loop {
        let (records, _) = consume(&env, &[&topic]);
        if records.len() < 14 {
            break records;
        }
        assert!(Instant::now() < deadline, "never compacted: {records:?}");
        std::thread::sleep(Duration::from_secs(2));
    };
    let offsets: Vec<i64> = records
        .iter()
        .map(|r| r["offset"].as_i64().unwrap())
        .collect();
    assert!(
        offsets.windows(2).all(|w| w[0] < w[1]),
        "in order, none twice: {offsets:?}"
    );
    // Each key's last value survives, the overwritten ones are gone.
    let kept: Vec<(i64, String)> = records
        .iter()
        .map(|r| {
            (
                r["offset"].as_i64().unwrap(),
                r["value"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [
        (6, "k1-1"),
        (8, "k3-1"),
        (10, "k0-2"),
        (11, "k2-2"),
        (12, "k4-2"),
        (13, "roll"),
    ];
    assert_eq!(
        kept,
        expected.map(|(o, v)| (o, v.to_owned())),
        "each key's last value once, in offset order"
    );
    // Starting inside a gap reads from the next record that is there.
    let (from, _) = consume(&env, &[&topic, "--from", "1"]);
    let first = from[0]["offset"].as_i64().unwrap();
    assert!(
        first >= 1 && offsets.contains(&first),
        "{first} in {offsets:?}"
    );
    assert_eq!(from.len(), offsets.iter().filter(|o| **o >= 1).count());
}

#[test]
fn an_offset_deleted_by_delete_records_is_out_of_range_with_the_new_low_watermark() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("browse-deleted");
    support::create_topic(&env, &topic, "1", &[]);
    produce(&env, &topic, &["plain", "10"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let offsets = dir.path().join("offsets.json");
    std::fs::write(
        &offsets,
        format!(r#"{{"version":1,"partitions":[{{"topic":"{topic}","partition":0,"offset":6}}]}}"#),
    )
    .expect("write the offsets file");
    env.script(&[
        "tool",
        "org.apache.kafka.tools.DeleteRecordsCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "--offset-json-file",
        offsets.to_str().expect("a utf-8 path"),
    ]);

    let (none, stderr) = consume(&env, &[&topic, "-p", "0", "--from", "2"]);
    assert!(none.is_empty(), "{none:?}");
    assert!(
        stderr.contains("offset 2 is out of range (low watermark 6, high watermark 10)"),
        "{stderr}"
    );
    let (rest, _) = consume(&env, &[&topic, "--from", "beginning"]);
    assert_eq!(
        values(&rest),
        ["v-6", "v-7", "v-8", "v-9"],
        "from the new start"
    );
}
