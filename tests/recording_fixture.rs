//! Format stability: `tests/recording_fixture/v1.kscope-rec` was written by
//! [`write_v1`] with the version-1 writer and is committed; every later
//! kscope must read it and answer from it exactly as here. A cut file
//! answers up to the cut, a flipped bit is an error naming its byte offset.
//!
//! Regenerate (only for a new fixture version, never to make this pass):
//! `KSCOPE_WRITE_FIXTURE=1 cargo test --test recording_fixture`.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use kscope::meta::MovementKind;
use kscope::recording::frame::{Broker, Delta, Event, Health, Metadata, Partition, Topic};
use kscope::recording::{Body, Frame, Header, Writer};

/// 2026-12-05T12:00:00Z.
const START: i64 = 1_796_472_000_000;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/recording_fixture/v1.kscope-rec")
}

fn broker(id: i32) -> Broker {
    Broker {
        id,
        host: "127.0.0.1".to_owned(),
        port: 9091 + id,
        rack: None,
    }
}

fn partition(p: i32, leader: Option<i32>, epoch: i32, isr: &[i32]) -> Partition {
    Partition {
        p,
        leader,
        epoch,
        replicas: vec![p % 3 + 1, (p + 1) % 3 + 1, (p + 2) % 3 + 1],
        isr: isr.to_vec(),
        offline: Vec::new(),
    }
}

fn event(at: i64, p: i32, kind: MovementKind) -> Event {
    Event {
        at,
        topic: Some("orders".to_owned()),
        partition: Some(p),
        kind,
        folded: None,
    }
}

/// The fixture: three brokers and `orders` (3 partitions); broker 2 dies at
/// +10 s (partition 1's leader moves to 3, ISRs shrink), is back at +30 s.
fn write_v1(path: &Path) {
    let header = Header {
        kscope: "0.1.0".to_owned(),
        context: Some("fixture".to_owned()),
        start_ms: START,
        topics: None,
        groups: None,
    };
    let mut writer = Writer::create(path, &header).unwrap();
    let all = |p| partition(p, Some(p % 3 + 1), 0, &[1, 2, 3]);
    writer
        .push(&Frame {
            t: START,
            body: Body::Snapshot(Metadata {
                cluster_id: Some("fixture-cluster".to_owned()),
                controller: Some(1),
                voters: vec![1, 2, 3],
                brokers: vec![broker(1), broker(2), broker(3)],
                topics: vec![Topic {
                    name: "orders".to_owned(),
                    id: "AAAAAAAAAAAAAAAAAAAAAQ".to_owned(),
                    internal: false,
                    partitions: (0..3).map(all).collect(),
                }],
            }),
        })
        .unwrap();
    writer.flush().unwrap();
    let down = START + 10_000;
    let shrunk = |p, leader, epoch| partition(p, Some(leader), epoch, &[1, 3]);
    let frames = [
        Body::Delta(Delta {
            brokers: Some(vec![broker(1), broker(3)]),
            partitions: vec![
                ("orders".to_owned(), shrunk(0, 1, 0)),
                ("orders".to_owned(), shrunk(1, 3, 1)),
                ("orders".to_owned(), shrunk(2, 3, 0)),
            ],
            ..Delta::default()
        }),
        Body::Health(Health {
            not_answering: vec![(2, down - 2_000)],
            frozen: None,
        }),
        Body::Events {
            events: vec![
                event(
                    down,
                    1,
                    MovementKind::LeaderChanged {
                        from: 2,
                        to: 3,
                        epoch: 1,
                    },
                ),
                event(
                    down,
                    0,
                    MovementKind::IsrShrank {
                        isr: vec![1, 3],
                        removed: vec![2],
                    },
                ),
            ],
        },
    ];
    for body in frames {
        writer.push(&Frame { t: down, body }).unwrap();
    }
    writer.flush().unwrap();
    let back = START + 30_000;
    let frames = [
        Body::Delta(Delta {
            brokers: Some(vec![broker(1), broker(2), broker(3)]),
            partitions: vec![("orders".to_owned(), partition(0, Some(1), 0, &[1, 2, 3]))],
            ..Delta::default()
        }),
        Body::Health(Health::default()),
        Body::Events {
            events: vec![event(
                back,
                0,
                MovementKind::IsrExpanded {
                    isr: vec![1, 2, 3],
                    added: vec![2],
                },
            )],
        },
    ];
    for body in frames {
        writer.push(&Frame { t: back, body }).unwrap();
    }
    writer.finish().unwrap();
}

fn kscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(args)
        .env("KSCOPE_CONFIG", "/nonexistent/kscope.toml")
        .output()
        .expect("run kscope")
}

#[test]
fn the_v1_fixture_answers_get_brokers_at_a_time_exactly() {
    if std::env::var_os("KSCOPE_WRITE_FIXTURE").is_some() {
        write_v1(&fixture());
    }
    let file = fixture();
    let file = file.to_str().unwrap();
    let down = kscope(&["get", "brokers", "--from-file", file, "--at", "+15s"]);
    assert!(down.status.success(), "{down:?}");
    assert_eq!(
        String::from_utf8_lossy(&down.stdout),
        "ID  HOST       PORT  RACK  CONTROLLER  LEADERS\n \
          1  127.0.0.1  9092  -     true              1\n \
          3  127.0.0.1  9094  -     false             2\n"
    );
    assert!(
        String::from_utf8_lossy(&down.stderr).contains("broker 2 not answering"),
        "{down:?}"
    );
    let end = kscope(&["get", "brokers", "--from-file", file, "-o", "json"]);
    let rows: serde_json::Value = serde_json::from_slice(&end.stdout).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), 3, "{rows}");
    let at = kscope(&[
        "get",
        "partitions",
        "orders",
        "--from-file",
        file,
        "--at",
        "2026-12-05T12:00:20Z",
        "-o",
        "json",
    ]);
    let rows: serde_json::Value = serde_json::from_slice(&at.stdout).unwrap();
    assert_eq!(rows[1]["leader"], 3);
    assert_eq!(rows[1]["leader_epoch"], 1);
    assert_eq!(rows[0]["isr"], serde_json::json!([1, 3]));
    let events = kscope(&["watch", "events", "--from-file", file, "-o", "json"]);
    let kinds: Vec<String> = String::from_utf8_lossy(&events.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"].to_string())
        .collect();
    assert_eq!(
        kinds,
        ["\"leader_changed\"", "\"isr_shrank\"", "\"isr_expanded\""]
    );
}

fn damaged(name: &str, change: impl FnOnce(&mut Vec<u8>)) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    let mut bytes = std::fs::read(fixture()).unwrap();
    change(&mut bytes);
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

/// Where the fixture's chunks start.
fn chunk_starts() -> Vec<usize> {
    let bytes = std::fs::read(fixture()).unwrap();
    bytes
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == b"KSCH")
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn a_cut_file_names_the_offset_and_still_answers_up_to_the_cut() {
    let starts = chunk_starts();
    assert_eq!(starts.len(), 3, "three chunks");
    let last = starts[2];
    let (_dir, path) = damaged("cut.kscope-rec", |b| b.truncate(b.len() - 7));
    let error = kscope::recording::read_strict(&path).expect_err("truncated");
    assert_eq!(error.offset(), Some(last as u64), "{error}");
    assert!(
        error
            .to_string()
            .contains(&format!("truncated at byte offset {last}")),
        "{error}"
    );
    let file = path.to_str().unwrap();
    let answer = kscope(&["get", "brokers", "--from-file", file]);
    assert_eq!(answer.status.code(), Some(3), "partial: {answer:?}");
    let text = String::from_utf8_lossy(&answer.stdout);
    assert_eq!(
        text.lines().count(),
        3,
        "brokers 1 and 3, as at the cut: {text}"
    );
    assert!(String::from_utf8_lossy(&answer.stderr).contains("byte offset"));
}

#[test]
fn a_flipped_bit_is_an_error_naming_its_chunk_offset() {
    let second = chunk_starts()[1];
    let (_dir, path) = damaged("flipped.kscope-rec", |b| b[second + 30] ^= 0x10);
    let error = kscope::recording::read_strict(&path).expect_err("corrupt");
    assert_eq!(error.offset(), Some(second as u64));
    assert!(
        error.to_string().contains(&format!(
            "corrupt at byte offset {second}: chunk checksum mismatch"
        )),
        "{error}"
    );
    let (_dir, path) = damaged("magic.kscope-rec", |b| b[0] = b'X');
    let error = kscope::recording::read(&path).expect_err("not a recording");
    assert!(
        error.to_string().contains("not a kscope recording"),
        "{error}"
    );
    let (_dir, path) = damaged("huge.kscope-rec", |b| {
        b[second + 8..second + 12].copy_from_slice(&u32::MAX.to_be_bytes());
    });
    let error = kscope::recording::read_strict(&path).expect_err("capped");
    assert_eq!(error.offset(), Some(second as u64), "{error}");
}
