//! End to end: the real binary in tmux against the real cluster.
//! `:messages TOPIC 0` typed while kscope is still connecting (a test gate
//! holds the bootstrap connection, so no metadata has arrived) opens the
//! records once connected; a topic with an aborted transaction shows only
//! committed records, `u` reads it again under `read_uncommitted` (the
//! aborted records appear and the title says so) and back; `:save-all`
//! writes the records shown as JSON lines; `:find` on a paused view scans
//! beyond the records shown and opens the match.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod browse_fixture;
mod groups_fixture;
mod support;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use browse_fixture::produce;
use support::tmux::{self, Tmux, kscope_command};

/// A TCP relay to `upstream` that holds every connection, reading nothing,
/// until the gate opens (a test double of our own, not Kafka).
fn gate(upstream: String) -> (String, Arc<AtomicBool>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind the gate");
    let address = listener
        .local_addr()
        .expect("the gate's address")
        .to_string();
    let open = Arc::new(AtomicBool::new(false));
    let gate_open = Arc::clone(&open);
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let (upstream, open) = (upstream.clone(), Arc::clone(&gate_open));
            std::thread::spawn(move || {
                while !open.load(Ordering::Acquire) {
                    std::thread::sleep(Duration::from_millis(20));
                }
                let Ok(server) = TcpStream::connect(&upstream) else {
                    return;
                };
                let (Ok(client_write), Ok(server_write)) = (client.try_clone(), server.try_clone())
                else {
                    return;
                };
                std::thread::spawn(move || pipe(server, client_write));
                pipe(client, server_write);
            });
        }
    });
    (address, open)
}

fn pipe(mut from: TcpStream, mut to: TcpStream) {
    let mut buffer = [0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buffer) {
        if n == 0 || to.write_all(&buffer[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(std::net::Shutdown::Both);
}

#[test]
fn messages_before_metadata_isolation_toggle_and_save_all() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("tui-isolation");
    support::create_topic(&env, &topic, "1", &[]);
    produce(&env, &topic, &["txn"]);
    let (bootstrap, open) = gate(env.bootstrap_list()[0].clone());
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {bootstrap}"));
    let tmux = Tmux::start(&tmux::unique_name("kscope-isolation"), &command);
    tmux.wait_for("kscope connecting (the gate is closed)", |s| {
        s.contains("connecting")
    });
    let typed = format!(":messages {topic} 0");
    tmux.keys(&["-l", &typed]);
    tmux.wait_for("the command typed", |s| s.contains(&typed));
    tmux.keys(&["Enter"]);
    // Keys are handled in order: a fresh prompt showing means Enter ran.
    tmux.keys(&[":"]);
    tmux.wait_for("the command run, a new prompt open", |s| {
        !s.contains(&typed) && s.lines().any(|l| l.trim_end().trim_end_matches('▏') == ":")
    });
    tmux.keys(&["Escape"]);
    let screen = tmux.screen();
    assert!(
        screen.contains("connecting"),
        "still not connected: {screen}"
    );
    open.store(true, Ordering::Release);
    let screen = tmux.wait_for("the committed records, once connected", |s| {
        s.contains("committed-3") && s.contains("[4/4]")
    });
    assert!(!screen.contains("aborted-0"), "{screen}");
    assert!(!screen.contains("read_uncommitted"), "{screen}");

    tmux.keys(&["u"]);
    tmux.wait_for("the aborted records under read_uncommitted", |s| {
        s.contains("aborted-0")
            && s.contains("aborted-1")
            && s.contains("[6/6]")
            && s.contains("read_uncommitted")
    });

    let saved = home.path().join("all.jsonl");
    tmux.keys(&["-l", &format!(":save-all {}", saved.display())]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the save said", |s| s.contains("saved 6 records to"));
    let text = std::fs::read_to_string(&saved).expect("the saved file");
    let values: Vec<String> = text
        .lines()
        .map(|line| {
            let json: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            assert_eq!(json["topic"], topic.as_str());
            json["value"].as_str().expect("a text value").to_owned()
        })
        .collect();
    assert_eq!(
        values,
        [
            "committed-0",
            "committed-1",
            "committed-2",
            "aborted-0",
            "aborted-1",
            "committed-3"
        ]
    );
    tmux.keys(&["-l", &format!(":save-all {}", saved.display())]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("an existing file refused", |s| s.contains("exists"));

    tmux.keys(&["u"]);
    let screen = tmux.wait_for("committed again", |s| {
        s.contains("committed-3") && s.contains("[4/4]") && !s.contains("read_uncommitted")
    });
    assert!(!screen.contains("aborted-0"), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}

/// `:find` on a paused view: a record produced after the pause is not shown,
/// so the scan reads on from after the last one shown, finds it and opens it.
#[test]
fn find_scans_beyond_the_records_shown_and_opens_the_match() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("tui-find");
    support::create_topic(&env, &topic, "1", &[]);
    produce(&env, &topic, &["plain", "5"]);
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-find"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&["-l", &format!(":messages {topic} 0")]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the five records", |s| s.contains("[5/5]"));
    tmux.keys(&["p"]);
    tmux.wait_for("paused", |s| s.contains("PAUSED"));
    let needle = format!("needle-{}", groups_fixture::unique("x"));
    produce(&env, &topic, &["value", &needle]);
    tmux.wait_for("the arrival counted, not shown", |s| {
        s.contains("PAUSED, 1 new")
    });
    tmux.keys(&["-l", &format!(":find {needle}")]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the match opened", |s| {
        s.contains(&format!("record '{topic}' partition 0 offset 5"))
    });
    assert!(screen.contains(&needle), "{screen}");
    assert!(
        screen.contains("found at partition 0 offset 5 after 1 records"),
        "{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
