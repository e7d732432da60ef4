//! The binary with its output going somewhere other than a terminal: a pipe
//! whose reader has already gone (`kscope … | head`) and, for the TUI, a pipe
//! at all. Nothing panics, nothing complains, and the TUI says at once that it
//! needs a terminal.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Run kscope with stdout a pipe whose read end is closed before kscope
/// starts, so its first write fails with `EPIPE` every time (no race with a
/// reader that might still be there).
fn with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(args)
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kscope");
    child.wait_with_output().expect("kscope ends")
}

/// Exit code 0, and nothing on stderr: there is no one left to tell, and a
/// closed pipe is how `| head` says it has enough.
fn assert_quiet_on_closed_pipe(args: &[&str]) {
    let output = with_closed_stdout(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked"),
        "kscope {} panicked on a closed pipe: {stderr}",
        args.join(" ")
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "kscope {}: {stderr}",
        args.join(" ")
    );
    assert!(
        stderr.trim().is_empty(),
        "kscope {}: {stderr}",
        args.join(" ")
    );
}

#[test]
fn commands_without_a_cluster_are_quiet_on_a_closed_pipe() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        assert_quiet_on_closed_pipe(&["completions", shell]);
    }
    let config = support::repo().join("config.example.toml");
    let config = config.to_str().expect("utf-8 path");
    assert_quiet_on_closed_pipe(&["--config", config, "config", "path"]);
    assert_quiet_on_closed_pipe(&["--config", config, "info"]);
    assert_quiet_on_closed_pipe(&["--help"]);
    assert_quiet_on_closed_pipe(&["--version"]);
    assert_quiet_on_closed_pipe(&["get", "--help"]);
}

#[test]
fn headless_commands_are_quiet_on_a_closed_pipe() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let bootstrap = env.bootstrap();
    for args in [
        ["get", "brokers", "-o", "table"],
        ["get", "brokers", "-o", "json"],
        ["get", "topics", "-o", "table"],
        ["get", "topics", "-o", "json"],
        ["get", "partitions", "-o", "table"],
        ["get", "groups", "-o", "json"],
    ] {
        let mut all = vec!["-b", bootstrap];
        all.extend(args);
        assert_quiet_on_closed_pipe(&all);
    }
}

#[test]
fn watch_ends_quietly_when_its_reader_goes_away() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(["-b", env.bootstrap(), "watch", "leaders", "--interval", "1"])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kscope");
    // watch prints only movement: make some, until kscope has tried to print
    // it and ended.
    let status = support::wait_until(Duration::from_secs(90), "watch to end", || {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return Some(status);
        }
        let topic = format!("kscope-pipes-{:08x}", rand::random::<u32>());
        env.topic_command(&[
            "--create",
            "--topic",
            &topic,
            "--partitions",
            "1",
            "--replication-factor",
            "1",
        ]);
        None
    });
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.trim().is_empty(), "{stderr}");
}

#[test]
fn the_tui_refuses_a_piped_stdout_at_once_with_one_line() {
    // No cluster is needed: the check comes before any connection.
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .args(["-b", "127.0.0.1:1"])
        .env("HOME", std::env::temp_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kscope");
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_end(&mut stdout)
        .expect("read stdout");
    let output = child.wait_with_output().expect("kscope ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stdout.is_empty(),
        "nothing (no escape codes) on the pipe: {:?}",
        String::from_utf8_lossy(&stdout)
    );
    assert!(!output.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr:?}");
    assert!(
        lines[0].contains("needs a terminal") && lines[0].contains("kscope get"),
        "{stderr:?}"
    );
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
}
