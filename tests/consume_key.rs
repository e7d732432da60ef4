//! `kscope consume --key` against the real cluster: 1,000 random keys
//! written by the Java client (Kafka's own console producer, `parse.key`)
//! and 1,000 by librdkafka (`partitioner=murmur2_random`, some of them
//! Confluent-framed keys with a schema id, found with `--key-raw`) to a
//! 100-partition topic; every key is found by `--key` in the partition its
//! producer chose, and the bytes fetched stay near one partition's share.
//! Newest first over big batches (librdkafka's, split by its windows)
//! gives every match once, in order, fetching each batch once, also with
//! the log start inside a batch. Also `-o csv` read back by Python's csv
//! module equals `-o json`.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Mutex;

use serde_json::Value;
use support::{ClusterEnv, kscope, unique};

/// Random printable keys, all different.
fn random_keys(n: usize, prefix: &str) -> Vec<String> {
    (0..n)
        .map(|i| {
            let len = 1 + rand::random::<u32>() % 24;
            let body: String = (0..len)
                .map(|_| char::from(b'a' + u8::try_from(rand::random::<u32>() % 26).unwrap()))
                .collect();
            format!("{prefix}{i}-{body}")
        })
        .collect()
}

/// Kafka's console producer writing `key<TAB>value` lines (the Java client's
/// default partitioner chooses each partition).
fn produce_with_java(env: &ClusterEnv, topic: &str, keys: &[String]) {
    let lines: Vec<String> = keys.iter().map(|k| format!("{k}\tvalue of {k}")).collect();
    let mut args = support::KEYED.to_vec();
    args.extend(["--producer-property", "linger.ms=5"]);
    env.console_produce(topic, &lines, &args);
}

/// Each key's partition as Kafka's console consumer reads it back.
fn partitions_by_java(env: &ClusterEnv, topic: &str, expected: usize) -> BTreeMap<String, i64> {
    let max = expected.to_string();
    let out = env.script(&[
        "tool",
        "org.apache.kafka.tools.consumer.ConsoleConsumer",
        "--bootstrap-server",
        env.bootstrap(),
        "--topic",
        topic,
        "--from-beginning",
        "--max-messages",
        &max,
        "--timeout-ms",
        "60000",
        "--property",
        "print.partition=true",
        "--property",
        "print.key=true",
    ]);
    let mut found = BTreeMap::new();
    for line in out.lines() {
        // Partition:42<TAB>key<TAB>value
        let mut fields = line.split('\t');
        let (Some(part), Some(key)) = (fields.next(), fields.next()) else {
            continue;
        };
        if let Some(p) = part.strip_prefix("Partition:") {
            found.insert(key.to_owned(), p.trim().parse().unwrap());
        }
    }
    assert_eq!(found.len(), expected, "console consumer read every record");
    found
}

/// The Python client (librdkafka) that `scripts/kcat` installs.
fn python_path() -> std::path::PathBuf {
    let output = Command::new(support::repo().join("scripts/kcat"))
        .arg("-V")
        .output()
        .expect("run scripts/kcat");
    support::assert_success(&output, "scripts/kcat -V (installs the Python client)");
    support::cache_dir().join("librdkafka-wheel")
}

/// librdkafka with `partitioner=murmur2_random`: each hex key's bytes, and
/// the partition its delivery report says.
const RDKAFKA: &str = r#"
import sys, json
from confluent_kafka import Producer
bootstrap, topic = sys.argv[1], sys.argv[2]
p = Producer({"bootstrap.servers": bootstrap, "partitioner": "murmur2_random", "linger.ms": 5})
out = {}
def report(err, msg):
    if err is not None:
        raise SystemExit(str(err))
    out[msg.key().hex()] = msg.partition()
for line in sys.stdin:
    key = bytes.fromhex(line.strip())
    p.produce(topic, key=key, value=b"v-" + key.hex().encode(), on_delivery=report)
    p.poll(0)
p.flush(60)
print(json.dumps(out))
"#;

fn produce_with_librdkafka(
    env: &ClusterEnv,
    topic: &str,
    keys: &[Vec<u8>],
) -> BTreeMap<String, i64> {
    let mut child = Command::new("python3")
        .args(["-c", RDKAFKA, env.bootstrap(), topic])
        .env("PYTHONPATH", python_path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python3");
    {
        let mut stdin = child.stdin.take().unwrap();
        for key in keys {
            writeln!(stdin, "{}", hex(key)).unwrap();
        }
    }
    let output = child.wait_with_output().unwrap();
    support::assert_success(&output, "librdkafka producer");
    let map: BTreeMap<String, i64> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(map.len(), keys.len());
    map
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// `kscope consume TOPIC ARGS -o json`: the records and stderr.
fn consume(env: &ClusterEnv, topic: &str, args: &[&str]) -> (Vec<Value>, String) {
    let mut all = vec!["consume", topic];
    all.extend(args);
    all.extend(["-o", "json"]);
    let output = kscope(env, &all);
    support::assert_success(&output, &format!("kscope {}", all.join(" ")));
    let records = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (
        records,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Run `check` over `items` on four threads; the failures, all of them.
fn in_parallel<T: Sync>(items: &[T], check: impl Fn(&T) -> Option<String> + Sync) {
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for chunk in items.chunks(items.len().div_ceil(4)) {
            let (failures, check) = (&failures, &check);
            scope.spawn(move || {
                for item in chunk {
                    if let Some(failure) = check(item) {
                        failures.lock().unwrap().push(failure);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} failures: {failures:#?}",
        failures.len()
    );
}

/// The fetched bytes the stderr summary gives.
fn fetched(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.contains("bytes fetched"))
        .unwrap();
    let before = line.trim_end_matches(" bytes fetched");
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn keys_from_the_java_client_and_librdkafka_are_found_where_their_producer_put_them() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("consume-key");
    support::create_topic(&env, &topic, "100", &[]);

    let java_keys = random_keys(1000, "j");
    produce_with_java(&env, &topic, &java_keys);
    let java = partitions_by_java(&env, &topic, java_keys.len());

    // librdkafka: plain keys, and keys framed for a schema (magic 0, a
    // 4-byte schema id, an Avro string: zigzag length, then the text).
    let mut rd_keys: Vec<Vec<u8>> = random_keys(900, "r")
        .into_iter()
        .map(String::into_bytes)
        .collect();
    for text in random_keys(100, "s") {
        let mut framed = vec![0, 0, 0, 0, 7];
        framed.push(u8::try_from(text.len() * 2).unwrap());
        framed.extend_from_slice(text.as_bytes());
        rd_keys.push(framed);
    }
    let rdkafka = produce_with_librdkafka(&env, &topic, &rd_keys);

    // The partitioner alone agrees with both clients on every key.
    for (key, partition) in &java {
        let ours = kscope::browse::partitioner::partition_for_key(key.as_bytes(), 100);
        assert_eq!(ours.map(i64::from), Some(*partition), "java key {key}");
    }
    for (key, partition) in &rdkafka {
        let bytes: Vec<u8> = (0..key.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&key[i..i + 2], 16).unwrap())
            .collect();
        let ours = kscope::browse::partitioner::partition_for_key(&bytes, 100);
        assert_eq!(
            ours.map(i64::from),
            Some(*partition),
            "librdkafka key {key}"
        );
    }

    // And `consume --key` finds each one there, reading that partition only.
    let java: Vec<(String, i64)> = java.into_iter().collect();
    in_parallel(&java, |(key, partition)| {
        let (records, stderr) = consume(&env, &topic, &["--key", key]);
        let want = format!("value of {key}");
        let ok = records.len() == 1
            && records[0]["partition"] == *partition
            && records[0]["key"] == key.as_str()
            && records[0]["value"] == want.as_str()
            && stderr.contains(&format!("is in partition {partition} of 100"));
        (!ok).then(|| format!("java key {key} (partition {partition}): {records:?} {stderr}"))
    });
    let rdkafka: Vec<(String, i64)> = rdkafka.into_iter().collect();
    in_parallel(&rdkafka, |(key, partition)| {
        let raw = format!("hex:{key}");
        let (records, stderr) = consume(&env, &topic, &["--key-raw", &raw]);
        let want = format!("v-{key}");
        let ok = records.len() == 1
            && records[0]["partition"] == *partition
            && records[0]["value"] == want.as_str()
            && stderr.contains(&format!("is in partition {partition} of 100"));
        (!ok).then(|| format!("librdkafka key {key} (partition {partition}): {records:?} {stderr}"))
    });

    // A key nobody wrote: its whole partition is read, nothing found, and
    // the bytes fetched are one partition's share, not the topic's.
    let (records, stderr) = consume(&env, &topic, &["--key", "no such key"]);
    assert!(records.is_empty(), "{records:?}");
    let one = fetched(&stderr);
    let (all, all_stderr) = consume(&env, &topic, &["--key", "no such key", "--key-scan"]);
    assert!(all.is_empty());
    let total = fetched(&all_stderr);
    #[allow(clippy::cast_precision_loss)]
    let share = one as f64 / total as f64;
    eprintln!(
        "find-by-key fetched {one} of {total} bytes ({:.2} %)",
        share * 100.0
    );
    assert!(one > 0 && share < 0.05, "{one} of {total}");
}

#[test]
fn newest_first_from_and_count_pick_the_records_of_a_repeated_key() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("consume-key-repeat");
    support::create_topic(&env, &topic, "7", &[]);
    let keys: Vec<String> = (0..30)
        .map(|i| {
            if i % 3 == 0 {
                "order-4711".to_owned()
            } else {
                format!("other-{i}")
            }
        })
        .collect();
    // One record per line, written in order: values say which line.
    let mut child = Command::new(support::repo().join("scripts/kafka-cluster"))
        .args([
            "tool",
            "--name",
            env.name(),
            "org.apache.kafka.tools.ConsoleProducer",
        ])
        .args(["--bootstrap-server", env.bootstrap(), "--topic", &topic])
        .args([
            "--property",
            "parse.key=true",
            "--property",
            "key.separator=\t",
        ])
        .args(["--producer-property", "acks=all"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for (i, key) in keys.iter().enumerate() {
            writeln!(stdin, "{key}\tline {i}").unwrap();
        }
    }
    assert!(child.wait().unwrap().success());

    let (newest, _) = consume(&env, &topic, &["--key", "order-4711"]);
    assert_eq!(newest.len(), 1);
    assert_eq!(newest[0]["value"], "line 27");
    let (three, _) = consume(&env, &topic, &["--key", "order-4711", "-n", "3"]);
    let values: Vec<&str> = three.iter().map(|r| r["value"].as_str().unwrap()).collect();
    assert_eq!(values, ["line 27", "line 24", "line 21"]);
    let (forward, _) = consume(
        &env,
        &topic,
        &["--key", "order-4711", "--from", "beginning"],
    );
    assert_eq!(forward.len(), 10);
    assert_eq!(forward[0]["value"], "line 0");
    let (scan, stderr) = consume(&env, &topic, &["--key", "order-4711", "--key-scan"]);
    assert_eq!(scan.len(), 10);
    assert!(stderr.contains("every partition"), "{stderr}");
}

/// librdkafka writing `chunks` x `size` records to partition 0, each chunk
/// flushed as one batch (as under backlog with its 1 MB `batch.size`): key
/// `hot` on every fifth record, `cold-N` on the others, values `line N`
/// padded to 200 bytes.
const BIG_BATCHES: &str = r#"
import sys
from confluent_kafka import Producer
bootstrap, topic, chunks, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 60000, "batch.size": 1000000,
              "batch.num.messages": 100000, "compression.type": "none", "acks": "all"})
n = 0
for _ in range(chunks):
    for _ in range(size):
        key = b"hot" if n % 5 == 0 else b"cold-%d" % n
        p.produce(topic, key=key, value=(b"line %d " % n).ljust(200, b"x"), partition=0)
        n += 1
    if p.flush(60) != 0:
        raise SystemExit("not all delivered")
"#;

/// The offsets of `records`, each checked against the line its value names
/// (one partition written in order: the offset is the line).
fn hot_offsets(records: &[Value]) -> Vec<i64> {
    records
        .iter()
        .map(|r| {
            let offset = r["offset"].as_i64().unwrap();
            assert_eq!(r["key"], "hot");
            let value = r["value"].as_str().unwrap();
            assert!(value.starts_with(&format!("line {offset} ")), "{r}");
            offset
        })
        .collect()
}

#[test]
fn newest_first_over_big_batches_split_by_windows_finds_each_record_once() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("consume-key-big");
    support::create_topic(&env, &topic, "1", &[]);
    // 6 batches of 2,300 records: where the windows read newest first
    // start (1,000 and 5,000 offsets from the end) falls inside batches.
    let output = Command::new("python3")
        .args(["-c", BIG_BATCHES, env.bootstrap(), &topic, "6", "2300"])
        .env("PYTHONPATH", python_path())
        .output()
        .unwrap();
    support::assert_success(&output, "librdkafka producer");
    let every: Vec<i64> = (0..13_800).filter(|n| n % 5 == 0).collect();

    let (forward, forward_err) = consume(&env, &topic, &["--key", "hot", "--from", "beginning"]);
    assert_eq!(hot_offsets(&forward), every);
    let (newest, newest_err) = consume(&env, &topic, &["--key", "hot", "-n", "100000"]);
    let newest = hot_offsets(&newest);
    let mut want = every.clone();
    want.reverse();
    assert_eq!(newest, want, "every match once, newest first");
    // No batch fetched twice: about the partition's bytes (a window's
    // first batch starting before it makes its answer longer than asked,
    // cut inside a batch: that part is fetched again): 1.16 times. Before
    // windows kept their first batch and sized each fetch to what is left
    // of the window: 1.67 times; reading forward: 1.03 times.
    let sizes = kscope(&env, &["get", "topics", &topic, "--sizes", "-o", "json"]);
    support::assert_success(&sizes, "kscope get topics --sizes");
    let sizes: Value = serde_json::from_slice(&sizes.stdout).unwrap();
    let size = sizes[0]["leader_size_bytes"].as_u64().unwrap();
    let (one, all) = (fetched(&newest_err), fetched(&forward_err));
    eprintln!("newest first fetched {one} bytes, forward {all}, the partition holds {size}");
    #[allow(clippy::cast_precision_loss)]
    let over = one as f64 / size as f64;
    assert!(over < 1.3, "newest first fetched {one} bytes of {size}");

    // -n stops in the second window, at the right record.
    let (some, _) = consume(&env, &topic, &["--key", "hot", "-n", "600"]);
    assert_eq!(hot_offsets(&some), want[..600]);

    // The log start inside the first batch (records deleted before 1,234):
    // nothing before it, though its batch comes whole.
    let dir = std::env::temp_dir().join(unique("kscope-delete"));
    std::fs::create_dir_all(&dir).unwrap();
    let offsets = dir.join("offsets.json");
    std::fs::write(
        &offsets,
        format!(
            r#"{{"version":1,"partitions":[{{"topic":"{topic}","partition":0,"offset":1234}}]}}"#
        ),
    )
    .unwrap();
    env.script(&[
        "tool",
        "org.apache.kafka.tools.DeleteRecordsCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "--offset-json-file",
        offsets.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    let (newest, _) = consume(&env, &topic, &["--key", "hot", "-n", "100000"]);
    let kept: Vec<i64> = want.iter().copied().filter(|o| *o >= 1234).collect();
    assert_eq!(hot_offsets(&newest), kept);
}

/// Python's csv module reading `-o csv` back must give what `-o json` says.
const CSV_CHECK: &str = r#"
import csv, io, json, sys, datetime
rows = list(csv.DictReader(io.open(sys.argv[1], newline="", encoding="utf-8")))
records = [json.loads(l) for l in io.open(sys.argv[2], encoding="utf-8")]
assert len(rows) == len(records), (len(rows), len(records))
for row, rec in zip(rows, records):
    assert int(row["partition"]) == rec["partition"]
    assert int(row["offset"]) == rec["offset"]
    at = datetime.datetime.fromtimestamp(rec["timestamp"] / 1000, datetime.timezone.utc)
    assert row["timestamp"] == at.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (rec["timestamp"] % 1000), row
    assert row["key"] == (rec["key"] or ""), (row, rec)
    assert row["value"] == (rec["value"] or ""), (row, rec)
    assert int(row["size"]) == rec["size"]
print(len(rows))
"#;

#[test]
fn csv_read_back_by_python_equals_the_json_export() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("consume-csv");
    support::create_topic(&env, &topic, "3", &[]);
    let awkward = [
        "plain",
        "comma, inside",
        "a \"quoted\" word",
        "\"starts with a quote",
        "ends with a comma,",
        "  spaces kept  ",
        "{\"json\": [1, 2, {\"k\": \"v,w\"}]}",
        "unicode: Zürich, 東京",
    ];
    let mut child = Command::new(support::repo().join("scripts/kafka-cluster"))
        .args([
            "tool",
            "--name",
            env.name(),
            "org.apache.kafka.tools.ConsoleProducer",
        ])
        .args(["--bootstrap-server", env.bootstrap(), "--topic", &topic])
        .args([
            "--property",
            "parse.key=true",
            "--property",
            "key.separator=\t",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    {
        let mut stdin = child.stdin.take().unwrap();
        for (i, text) in awkward.iter().enumerate() {
            writeln!(stdin, "key {i}, \"{text}\"\t{text}").unwrap();
        }
    }
    assert!(child.wait().unwrap().success());
    // Line breaks (CR and LF) inside a value: the console producer splits
    // lines, so these come from librdkafka.
    let script = "import sys\nfrom confluent_kafka import Producer\np = Producer({'bootstrap.servers': sys.argv[1]})\nfor v in [b'two\\nlines', b'cr\\r\\nlf', b'\\n']:\n    p.produce(sys.argv[2], key=b'multi,line', value=v)\np.flush(30)\n";
    let output = Command::new("python3")
        .args(["-c", script, env.bootstrap(), &topic])
        .env("PYTHONPATH", python_path())
        .output()
        .unwrap();
    support::assert_success(&output, "librdkafka producer");

    let dir = std::env::temp_dir().join(unique("kscope-csv"));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv_path, json_path) = (dir.join("records.csv"), dir.join("records.jsonl"));
    for (format, path) in [("csv", &csv_path), ("json", &json_path)] {
        let output = kscope(&env, &["consume", &topic, "-p", "0", "-o", format]);
        support::assert_success(&output, "kscope consume");
        std::fs::write(path, output.stdout).unwrap();
    }
    for p in 1..3 {
        let part = p.to_string();
        for (format, path) in [("csv", &csv_path), ("json", &json_path)] {
            let output = kscope(&env, &["consume", &topic, "-p", &part, "-o", format]);
            support::assert_success(&output, "kscope consume");
            let mut old = std::fs::read(path).unwrap();
            let mut new = output.stdout;
            if format == "csv" {
                let header = new.iter().position(|b| *b == b'\n').unwrap() + 1;
                new.drain(..header);
            }
            old.extend(new);
            std::fs::write(path, old).unwrap();
        }
    }
    let output = Command::new("python3")
        .args(["-c", CSV_CHECK])
        .arg(&csv_path)
        .arg(&json_path)
        .output()
        .unwrap();
    support::assert_success(&output, "python csv check");
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "11");
    std::fs::remove_dir_all(&dir).unwrap();
}
