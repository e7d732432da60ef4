//! `kscope replay`: the TUI model driven over the committed recording
//! fixture (`tests/recording_fixture/v1.kscope-rec`: brokers 1–3 and
//! `orders`; broker 2 dies at +10 s, partition 1's leader moves to 3, ISRs
//! shrink; it is back at +30 s) key by key, rendered with a `TestBackend`,
//! and checked against what `kscope get … --from-file --at` says at the
//! same time. No terminal, no cluster.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use kscope::app::{Action, Key};
use kscope::term::replay::Headless;

mod support;

use support::replay::{command, events, find_row, header, keys, lines, render, row};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/recording_fixture/v1.kscope-rec")
}

/// `kscope ARGS… --from-file FILE --at AT -o json`, its stdout.
fn kscope(file: &Path, args: &[&str], at: &str) -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(args)
        .args([
            "--from-file",
            file.to_str().unwrap(),
            "--at",
            at,
            "-o",
            "json",
        ])
        .env("KSCOPE_CONFIG", "/nonexistent/kscope.toml")
        .output()
        .expect("run kscope");
    assert!(output.status.success(), "{output:?}");
    output.stdout
}

/// `kscope get WHAT --from-file FILE --at AT -o json`, parsed.
fn get(file: &Path, what: &[&str], at: &str) -> Vec<serde_json::Value> {
    let args: Vec<&str> = ["get"].iter().chain(what).copied().collect();
    serde_json::from_slice(&kscope(file, &args, at)).unwrap()
}

fn text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(","),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Every screen the recording answers, at the cursor, against `get …
/// --from-file --at AT` and `watch events --from-file --at AT`.
fn same_as_get_at(replay: &mut Headless, file: &Path, at: &str) {
    command(replay, "brokers");
    let screen = render(replay);
    let brokers = get(file, &["brokers"], at);
    for broker in &brokers {
        let words = row(&screen, &broker["id"].to_string());
        let address = format!("{}:{}", text(&broker["host"]), broker["port"]);
        assert_eq!(words[1], address, "at {at}:\n{screen}");
        assert_eq!(
            words[4],
            broker["leaders"].to_string(),
            "at {at}:\n{screen}"
        );
    }
    let live = lines(&screen)
        .iter()
        .filter(|w| w.get(1).is_some_and(|a| a.starts_with("127.0.0.1:")))
        .filter(|w| w.get(3).is_none_or(|role| role != "DOWN"))
        .count();
    assert_eq!(live, brokers.len(), "at {at}: live brokers\n{screen}");

    command(replay, "topics");
    let screen = render(replay);
    for topic in get(file, &["topics"], at) {
        let words = row(&screen, &text(&topic["name"]));
        assert_eq!(
            words[1],
            topic["partitions"].to_string(),
            "at {at}:\n{screen}"
        );
        assert_eq!(
            words[3],
            topic["under_replicated"].to_string(),
            "at {at}:\n{screen}"
        );
        assert_eq!(words[4], topic["offline"].to_string(), "at {at}:\n{screen}");
    }

    command(replay, "partitions orders");
    let screen = render(replay);
    for partition in get(file, &["partitions", "orders"], at) {
        let words = row(&screen, &partition["partition"].to_string());
        assert_eq!(words[1], text(&partition["leader"]), "at {at}:\n{screen}");
        assert_eq!(
            words[2],
            text(&partition["leader_epoch"]),
            "at {at}:\n{screen}"
        );
        assert_eq!(words[4], text(&partition["isr"]), "at {at}:\n{screen}");
    }

    command(replay, "events");
    let screen = render(replay);
    let mut shown = events(&screen);
    let mut recorded: Vec<(String, String)> =
        String::from_utf8_lossy(&kscope(file, &["watch", "events"], at))
            .lines()
            .map(|l| {
                let e: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    text(&e["kind"]),
                    format!("{}-{}", text(&e["topic"]), e["partition"]),
                )
            })
            .collect();
    shown.sort();
    recorded.sort();
    assert_eq!(shown, recorded, "at {at}:\n{screen}");
}

#[test]
fn the_cursor_moves_through_the_fixture_and_every_screen_says_what_get_says_there() {
    let file = fixture();
    let mut replay = Headless::open(&file, None, (140, 20)).unwrap();
    assert!(
        header(&replay).contains("REPLAY 2026-12-05T12:00:00.000Z (paused) 0s/30s"),
        "{}",
        header(&replay)
    );
    same_as_get_at(&mut replay, &file, "start");

    keys(&mut replay, "]");
    assert!(header(&replay).contains("12:00:10.000Z (paused) 10s/30s"));
    same_as_get_at(&mut replay, &file, "+10s");
    command(&mut replay, "brokers");
    let screen = render(&replay);
    assert_eq!(
        row(&screen, "2")[3],
        "DOWN",
        "broker 2 left at +10s:\n{screen}"
    );
    assert!(screen.contains("NOT ANSWERING: broker 2"), "{screen}");

    keys(&mut replay, "n");
    assert!(header(&replay).contains("12:00:30.000Z (paused) 30s/30s"));
    same_as_get_at(&mut replay, &file, "+30s");

    // Back a frame: rebuilt from the start, the events after +10 s gone.
    keys(&mut replay, "[");
    assert!(header(&replay).contains("12:00:10.000Z"));
    same_as_get_at(&mut replay, &file, "+10s");

    command(&mut replay, "at +5s");
    assert!(header(&replay).contains("12:00:05.000Z (paused) 5s/30s"));
    same_as_get_at(&mut replay, &file, "+5s");
    keys(&mut replay, "N");
    assert!(header(&replay).contains("12:00:05.000Z"), "no event before");
    keys(&mut replay, ">");
    same_as_get_at(&mut replay, &file, "end");
    keys(&mut replay, "<");
    same_as_get_at(&mut replay, &file, "start");
}

#[test]
fn playing_moves_at_real_time_and_screens_without_recorded_data_say_so() {
    let file = fixture();
    let mut replay = Headless::open(&file, Some("+8s"), (140, 20)).unwrap();
    keys(&mut replay, " ");
    assert!(header(&replay).contains("12:00:08.000Z (playing) 8s/30s"));
    let now = replay.state.now + std::time::Duration::from_secs(3);
    let wall = std::time::SystemTime::now();
    assert!(!replay.act(Action::Tick { now, wall }));
    assert!(
        header(&replay).contains("12:00:11.000Z (playing) 11s/30s"),
        "{}",
        header(&replay)
    );
    same_as_get_at(&mut replay, &file, "+11s");
    keys(&mut replay, " ");
    assert!(header(&replay).contains("(paused)"));
    keys(&mut replay, "?");
    let help = render(&replay);
    assert!(help.contains("n N  next / previous event"), "{help}");
    keys(&mut replay, "?");

    for screen in [
        "messages orders",
        "group payments",
        "config topic orders",
        "cluster",
    ] {
        command(&mut replay, screen);
        let shown = render(&replay);
        assert!(
            shown.contains("not in this recording"),
            "{screen}:\n{shown}"
        );
    }
    command(&mut replay, "groups");
    let shown = render(&replay);
    assert!(
        shown.contains("no group list is in this recording"),
        "{shown}"
    );
    command(&mut replay, "ctx other");
    let notice = replay.state.notice.clone().unwrap_or_default();
    assert!(notice.contains("no context to switch to"), "{notice}");
    assert!(replay.act(Action::Key(Key::char('q'))), "q quits");
}

#[test]
fn a_cut_recording_replays_up_to_the_cut_and_names_its_offset() {
    let bytes = std::fs::read(fixture()).unwrap();
    let last = bytes
        .windows(4)
        .rposition(|w| w == b"KSCH")
        .expect("three chunks");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.kscope-rec");
    std::fs::write(&path, &bytes[..bytes.len() - 7]).unwrap();
    let mut replay = Headless::open(&path, Some("end"), (160, 20)).unwrap();
    let first = header(&replay);
    assert!(first.contains("12:00:10.000Z (paused) 10s/10s"), "{first}");
    assert!(
        first.contains(&format!("damaged at byte offset {last}")),
        "{first}"
    );
    command(&mut replay, "brokers");
    let screen = render(&replay);
    assert_eq!(row(&screen, "2")[3], "DOWN", "as at the cut:\n{screen}");
    let missing = Headless::open(&dir.path().join("none"), None, (80, 20));
    assert!(
        missing.is_err_and(|e| e.contains("none")),
        "a missing file is named"
    );
}

/// A recording of one topic and two group lists, 20 s apart: `billing`
/// rebalancing with one member fewer and its lag down, `audit` new.
fn groups_recording(path: &Path) {
    use kscope::recording::frame::{Broker, Metadata, Partition, Topic};
    use kscope::recording::{Body, Frame, GroupRowJson, Header, TopicLagJson, Writer};
    let start = 1_796_472_000_000;
    let header = Header {
        kscope: "0.1.0".to_owned(),
        context: Some("groups".to_owned()),
        start_ms: start,
        topics: None,
        groups: None,
    };
    let group = |name: &str, state: &str, members, lag: Option<i64>| GroupRowJson {
        group: name.to_owned(),
        group_type: "consumer".to_owned(),
        state: state.to_owned(),
        members: Some(members),
        coordinator: 1,
        lag,
        uncommitted_partitions: 0,
        lag_deleted_by_retention: 0,
        past_end_partitions: 0,
        topics: vec!["orders".to_owned()],
        lag_by_topic: lag
            .map(|lag| TopicLagJson {
                topic: "orders".to_owned(),
                lag,
            })
            .into_iter()
            .collect(),
        error: None,
    };
    let mut writer = Writer::create(path, &header).unwrap();
    let snapshot = Metadata {
        cluster_id: Some("groups-cluster".to_owned()),
        controller: Some(1),
        voters: vec![1],
        brokers: vec![Broker {
            id: 1,
            host: "127.0.0.1".to_owned(),
            port: 9092,
            rack: None,
        }],
        topics: vec![Topic {
            name: "orders".to_owned(),
            id: "AAAAAAAAAAAAAAAAAAAAAQ".to_owned(),
            internal: false,
            partitions: vec![Partition {
                p: 0,
                leader: Some(1),
                epoch: 0,
                replicas: vec![1],
                isr: vec![1],
                offline: Vec::new(),
            }],
        }],
    };
    let frames = [
        (start, Body::Snapshot(snapshot)),
        (
            start + 1_000,
            Body::Groups {
                groups: vec![group("billing", "Stable", 2, Some(40))],
                failed: Vec::new(),
            },
        ),
        (
            start + 20_000,
            Body::Groups {
                groups: vec![
                    group("audit", "Empty", 0, None),
                    group("billing", "PreparingRebalance", 1, Some(5)),
                ],
                failed: Vec::new(),
            },
        ),
    ];
    for (t, body) in frames {
        writer.push(&Frame { t, body }).unwrap();
    }
    writer.finish().unwrap();
}

#[test]
fn the_groups_list_is_the_one_recorded_last_and_no_group_event_is_derived_again() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("groups.kscope-rec");
    groups_recording(&file);
    let mut replay = Headless::open(&file, None, (140, 20)).unwrap();
    command(&mut replay, "groups");
    let screen = render(&replay);
    assert!(
        screen.contains("failed: no group list is in this recording at or before the cursor"),
        "{screen}"
    );
    keys(&mut replay, "]");
    let screen = render(&replay);
    assert_eq!(row(&screen, "billing")[2..4], ["Stable", "2"], "{screen}");
    assert_eq!(row(&screen, "billing")[5], "40", "{screen}");
    assert!(!screen.contains("audit"), "{screen}");
    keys(&mut replay, "]");
    let screen = render(&replay);
    let billing = row(&screen, "billing");
    assert_eq!(billing[2..4], ["PreparingRebalance", "1"], "{screen}");
    assert_eq!(billing[5], "5", "{screen}");
    assert_eq!(row(&screen, "audit")[2], "Empty", "{screen}");
    // The recording's events are the timeline: the TUI derives no group
    // events of its own from the lists it is handed (none were recorded).
    command(&mut replay, "events");
    let screen = render(&replay);
    assert_eq!(events(&screen), [], "{screen}");
    // Back to the start: the lists are forgotten, none is recorded there.
    keys(&mut replay, "<");
    command(&mut replay, "groups");
    let screen = render(&replay);
    assert!(find_row(&screen, "billing").is_none(), "{screen}");
}

#[test]
fn the_topics_lag_column_is_the_largest_recorded_group_lag_at_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("groups.kscope-rec");
    groups_recording(&file);
    let mut replay = Headless::open(&file, None, (140, 20)).unwrap();
    let screen = render(&replay);
    let lag_column = |screen: &str| {
        let header = find_row(screen, "TOPIC↑").expect("the header");
        header
            .iter()
            .position(|h| h == "LAG")
            .expect("a LAG column")
    };
    let at = lag_column(&screen);
    // No group list recorded yet at the first snapshot: `?`, and no
    // notice about it (the notice line is the file's and the config's).
    assert_eq!(row(&screen, "orders")[at], "?", "{screen}");
    assert_eq!(replay.state.notice, None);
    // A key a second after the one before, as a user presses them (the
    // column takes a list that landed later than the one it shows).
    let step = |replay: &mut Headless| {
        let now = replay.state.now + std::time::Duration::from_secs(1);
        let wall = std::time::SystemTime::now();
        assert!(!replay.act(Action::Tick { now, wall }));
        keys(replay, "]");
        render(replay)
    };
    let screen = step(&mut replay);
    assert_eq!(row(&screen, "orders")[at], "40", "{screen}");
    let screen = step(&mut replay);
    assert_eq!(row(&screen, "orders")[at], "5", "{screen}");
    // Back before any list: unknown again, not the last value.
    keys(&mut replay, "<");
    let screen = render(&replay);
    assert_eq!(row(&screen, "orders")[at], "?", "{screen}");
}
