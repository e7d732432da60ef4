//! `kscope replay` end to end: the real binary in tmux on the committed
//! recording fixture (broker 2 dies at +10 s, is back at +30 s), with no
//! config and no cluster. The header shows the cursor, `]` steps to the
//! kill, `:at` jumps, space plays to the end, a screen over data not
//! recorded says so, and `q` quits; the config's `[keys]` remaps apply;
//! under `--anonymize` it draws pseudonyms.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use support::tmux::{self, Tmux};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/recording_fixture/v1.kscope-rec")
}

#[test]
fn the_replay_steps_jumps_plays_and_quits_in_a_terminal() {
    assert!(tmux::available(), "this test needs tmux");
    let home = tempfile::tempdir().unwrap();
    let args = format!("replay {}", fixture().display());
    let pane = Tmux::start(
        &tmux::unique_name("kscope-replay"),
        &tmux::kscope_command(home.path(), "KSCOPE_CONFIG=/nonexistent/kscope.toml", &args),
    );
    pane.wait_for("the topics screen at the start", |s| {
        s.contains("REPLAY 2026-12-05T12:00:00.000Z (paused) 0s/30s")
            && s.contains("orders")
            && s.contains("brokers: 3 registered")
    });

    pane.keys(&["]"]);
    let screen = pane.wait_for("the kill, a frame on", |s| {
        s.contains("12:00:10.000Z (paused) 10s/30s") && s.contains("DOWN: broker 2")
    });
    assert!(screen.contains("NOT ANSWERING: broker 2"), "{screen}");

    pane.keys(&[":"]);
    pane.keys(&["-l", "events"]);
    pane.keys(&["Enter"]);
    pane.wait_for("the kill's events", |s| {
        s.contains("events [") && s.contains("leader_changed") && !s.contains("isr_expanded")
    });

    pane.keys(&[":"]);
    pane.keys(&["-l", "at -3s"]);
    pane.keys(&["Enter"]);
    pane.wait_for("the cursor 3 s before the end", |s| {
        s.contains("12:00:27.000Z (paused) 27s/30s")
    });
    pane.keys(&["Space"]);
    pane.wait_for_within(Duration::from_secs(20), "played to the end", |s| {
        s.contains("12:00:30.000Z (paused) 30s/30s") && s.contains("isr_expanded")
    });

    pane.keys(&[":"]);
    pane.keys(&["-l", "messages orders"]);
    pane.keys(&["Enter"]);
    pane.wait_for("messages are not recorded", |s| {
        s.contains("not in this recording")
    });

    pane.keys(&["q"]);
    pane.wait_for_exit(Duration::from_secs(10));
}

#[test]
fn the_replay_takes_key_remaps_from_the_config_and_says_when_it_cannot_read_it() {
    assert!(tmux::available(), "this test needs tmux");
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("kscope.toml");
    std::fs::write(&config, "[keys]\nquit = \"x\"\n").unwrap();
    let args = format!("replay {}", fixture().display());
    let vars = format!("KSCOPE_CONFIG={}", config.display());
    let pane = Tmux::start(
        &tmux::unique_name("kscope-replay-keys"),
        &tmux::kscope_command(home.path(), &vars, &args),
    );
    pane.wait_for("the replay at the start", |s| {
        s.contains("(paused) 0s/30s") && s.contains("orders")
    });
    // `q` no longer quits: the step after it is still answered.
    pane.keys(&["q"]);
    pane.keys(&["]"]);
    pane.wait_for("a frame on, after q", |s| s.contains("(paused) 10s/30s"));
    pane.keys(&["x"]);
    pane.wait_for_exit(Duration::from_secs(10));

    std::fs::write(&config, "[keys]\nquit = \n").unwrap();
    let pane = Tmux::start(
        &tmux::unique_name("kscope-replay-badconfig"),
        &tmux::kscope_command(home.path(), &vars, &args),
    );
    let screen = pane.wait_for("the replay, the config's error said", |s| {
        s.contains("(paused) 0s/30s") && s.contains("config not read")
    });
    assert!(screen.contains("orders"), "{screen}");
    pane.keys(&["q"]);
    pane.wait_for_exit(Duration::from_secs(10));
}

#[test]
fn the_replay_refuses_a_pipe_and_a_missing_file() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_kscope"))
            .args(args)
            .env("KSCOPE_CONFIG", "/nonexistent/kscope.toml")
            .output()
            .unwrap()
    };
    let file = fixture();
    let piped = run(&["replay", file.to_str().unwrap()]);
    assert!(!piped.status.success());
    let said = String::from_utf8_lossy(&piped.stderr);
    assert!(said.contains("the replay needs a terminal"), "{said}");
    assert!(
        said.contains("--from-file"),
        "points to the headless way: {said}"
    );
    let missing = run(&["replay", "/nonexistent/outage.kscope-rec"]);
    assert_eq!(missing.status.code(), Some(2));
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(
        said.contains("recording '/nonexistent/outage.kscope-rec'"),
        "{said}"
    );
}

/// `replay --anonymize` draws pseudonyms (issue 29): the recorded topic and
/// the brokers' host never show, on Topics, Brokers and the events of the
/// kill.
#[test]
fn the_replay_under_anonymize_shows_pseudonyms() {
    assert!(tmux::available(), "this test needs tmux");
    let home = tempfile::tempdir().unwrap();
    let args = format!("--anonymize replay {}", fixture().display());
    let pane = Tmux::start(
        &tmux::unique_name("kscope-replay-anon29"),
        &tmux::kscope_command(home.path(), "KSCOPE_CONFIG=/nonexistent/kscope.toml", &args),
    );
    let hidden = |screen: &str, what: &str| {
        for real in ["orders", "127.0.0.1"] {
            assert!(!screen.contains(real), "{what} shows {real}:\n{screen}");
        }
    };
    let screen = pane.wait_for("the topics screen at the start", |s| {
        s.contains("(paused) 0s/30s") && s.contains("topic-")
    });
    hidden(&screen, "Topics");
    pane.keys(&["]"]);
    pane.keys(&[":"]);
    pane.keys(&["-l", "events"]);
    pane.keys(&["Enter"]);
    let screen = pane.wait_for("the kill's events", |s| {
        s.contains("10s/30s") && s.contains("leader_changed") && s.contains("topic-")
    });
    hidden(&screen, ":events");
    pane.keys(&[":"]);
    pane.keys(&["-l", "brokers"]);
    pane.keys(&["Enter"]);
    let screen = pane.wait_for("the brokers", |s| {
        s.contains("brokers [") && s.contains("host-")
    });
    hidden(&screen, "Brokers");
    pane.keys(&["q"]);
    pane.wait_for_exit(Duration::from_secs(10));
}
