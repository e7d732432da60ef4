//! A hung broker (SIGSTOP: its kernel still accepts connections, nothing
//! answers), driven through the binary on a throwaway 3-node cluster of its
//! own: listed first in the bootstrap list, it must not stop `kscope get`
//! from answering from the other brokers.
//!
//! The context sets a ten-minute connect timeout, so trying the bootstrap
//! brokers one after another would wait out ten minutes on the frozen one;
//! the process is given two minutes to answer before it counts as hung.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The port base of this file's throwaway cluster (assigned to these tests).
const PORT_BASE: u16 = 25092;
const TOPIC: &str = "hung-orders";
/// Far below the configured connect timeout (600 s).
const HUNG_AFTER: Duration = Duration::from_mins(2);

/// A config file with one context `hung` over `bootstrap`, whose connect and
/// request timeouts are ten minutes.
fn write_config(dir: &Path, bootstrap: &[String]) -> std::path::PathBuf {
    let servers: Vec<String> = bootstrap.iter().map(|a| format!("\"{a}\"")).collect();
    let path = dir.join("config.toml");
    let text = format!(
        "[contexts.hung]\nbootstrap_servers = [{}]\nconnect_timeout_secs = 600\nrequest_timeout_secs = 600\n",
        servers.join(", ")
    );
    std::fs::write(&path, text).expect("write the config");
    path
}

/// Run kscope with `args`; kill it and fail if it has not exited by [`HUNG_AFTER`].
fn kscope(home: &Path, config: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .arg("--config")
        .arg(config)
        .args(["--context", "hung"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kscope");
    let deadline = Instant::now() + HUNG_AFTER;
    while child.try_wait().expect("poll kscope").is_none() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            let output = child.wait_with_output().expect("collect kscope");
            panic!(
                "kscope {} still had no answer after {HUNG_AFTER:?} (it waited on the frozen broker); stderr:\n{}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("collect kscope")
}

fn names(output: &Output) -> Vec<String> {
    let rows: Value = serde_json::from_slice(&output.stdout).expect("json on stdout");
    rows.as_array()
        .expect("an array of topics")
        .iter()
        .map(|row| row["name"].as_str().expect("a name").to_owned())
        .collect()
}

#[test]
fn a_frozen_first_bootstrap_broker_does_not_stop_get_topics() {
    let Some(cluster) = support::ThrowawayCluster::start("hung", 3, PORT_BASE, false) else {
        return;
    };
    let env = cluster.env();
    let home = tempfile::tempdir().expect("a home directory");
    // Node 1 first: the frozen one.
    let bootstrap = env.bootstrap_list();
    assert!(
        bootstrap[0].ends_with(&format!(":{PORT_BASE}")),
        "{bootstrap:?}"
    );
    let config = write_config(home.path(), &bootstrap);
    env.create_topic_with_kafka(TOPIC, &["--partitions", "3", "--replication-factor", "3"]);
    support::wait_until(Duration::from_secs(30), "the topic listed", || {
        let output = kscope(home.path(), &config, &["get", "topics", "-o", "json"]);
        (output.status.success() && names(&output).iter().any(|n| n == TOPIC)).then_some(())
    });

    env.script(&["freeze", "1"]);
    let output = kscope(home.path(), &config, &["get", "topics", "-o", "json"]);
    support::assert_success(&output, "kscope get topics with node 1 frozen");
    assert_eq!(names(&output), [TOPIC], "the cluster's one user topic");

    let table = kscope(home.path(), &config, &["get", "brokers"]);
    support::assert_success(&table, "kscope get brokers with node 1 frozen");
    let text = String::from_utf8(table.stdout).expect("utf-8");
    assert_eq!(
        text.lines().count(),
        4,
        "a header and three brokers:\n{text}"
    );
    env.script(&["thaw", "1"]);
}
