//! The fleet against real clusters: `kscope get fleet -o json` over a
//! config of five contexts — a throwaway 3-node cluster, the shared auth
//! cluster over SCRAM with the right password and with a wrong one, a
//! port nobody listens on, and a throwaway 1-node cluster whose broker is
//! frozen (SIGSTOP) — says the right thing for each (lag in records and in
//! time, under-min-ISR, a frozen context timed out within `[fleet]
//! poll_timeout_secs`); the running poller publishes the healthy rows long
//! before the frozen one gives up; and killing a broker of the 3-node
//! cluster turns its row under-min-ISR (a topic asks for 3 in-sync
//! replicas) while the other rows stay as they were. A context whose
//! `password_command` reads the terminal is "needs login" at once, even
//! when kscope has a terminal.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

#[path = "fleet_poller/mod.rs"]
mod fleet_poller;
mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use support::fleet::{get_fleet, row};

/// This file's throwaway clusters (ports 27092-27999 are the fleet's).
const THREE_NODES: u16 = 27792;
const FROZEN: u16 = 27892;
/// Nothing listens here.
const REFUSED: &str = "127.0.0.1:27999";
const TOPIC: &str = "fleet-orders";
/// A group committed at the start of [`TOPIC`], which holds [`RECORDS`].
const GROUP: &str = "fleet-lagging";
const RECORDS: u64 = 500;
/// A topic of [`MIN_ISR_PARTITIONS`] partitions on 3 replicas asking for 3
/// in-sync ones: under its min ISR as soon as a broker is gone.
const STRICT: &str = "fleet-strict";
const MIN_ISR_PARTITIONS: u64 = 3;

fn now_ms() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// Produce [`RECORDS`] to [`TOPIC`] and commit [`GROUP`] at the earliest
/// offsets with Kafka's own tools: the group lags by every record.
fn lagging_group(env: &support::ClusterEnv) {
    env.produce_perf(TOPIC, usize::try_from(RECORDS).unwrap(), 100, &["acks=all"]);
    env.script(&[
        "tool",
        "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "--group",
        GROUP,
        "--reset-offsets",
        "--topic",
        TOPIC,
        "--to-earliest",
        "--execute",
    ]);
}

fn write_config(
    dir: &Path,
    three: &support::ClusterEnv,
    auth: &support::ClusterEnv,
    frozen: &support::ClusterEnv,
) -> PathBuf {
    let sasl = auth.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT");
    let user = auth.get("KSCOPE_SCRAM_USER");
    let password = auth.get("KSCOPE_SCRAM_PASSWORD");
    let list = |servers: &str| -> String {
        servers
            .split(',')
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = format!(
        r#"
[contexts.three]
bootstrap_servers = [{three}]

[contexts.auth]
bootstrap_servers = [{sasl}]
[contexts.auth.sasl]
mechanism = "SCRAM-SHA-512"
username = "{user}"
password = "{password}"

[contexts.wrong-password]
bootstrap_servers = [{sasl}]
[contexts.wrong-password.sasl]
mechanism = "SCRAM-SHA-512"
username = "{user}"
password = "surely-not-it"

[contexts.refused]
bootstrap_servers = ["{REFUSED}"]

[contexts.frozen]
bootstrap_servers = [{frozen}]

[contexts.login]
bootstrap_servers = [{three}]
[contexts.login.sasl]
mechanism = "PLAIN"
username = "{user}"
password_command = "read -r pw </dev/tty && echo $pw"
"#,
        three = list(three.bootstrap()),
        sasl = list(sasl),
        frozen = list(frozen.bootstrap()),
    );
    let path = dir.join("config.toml");
    std::fs::write(&path, text).expect("write the config");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    path
}

fn assert_healthy(rows: &[Value], context: &str, brokers: u64) {
    let r = row(rows, context);
    assert_eq!(r["health"], "ok", "{r:#}");
    assert_eq!(r["error"], Value::Null, "{r:#}");
    assert_eq!(r["brokers_answering"], brokers, "{r:#}");
    assert_eq!(r["brokers_registered"], brokers, "{r:#}");
    assert_eq!(r["metadata_mode"], "kraft", "{r:#}");
    assert!(r["kafka_version"].is_string(), "{r:#}");
    assert!(r["controller_id"].is_i64(), "{r:#}");
    assert_eq!(r["under_replicated"], 0, "{r:#}");
    assert_eq!(r["offline"], 0, "{r:#}");
    assert!(r["groups"].is_u64(), "{r:#}");
    assert!(r["age_ms"].is_u64(), "{r:#}");
}

fn assert_unreachable(rows: &[Value], context: &str, kind: &str) {
    let r = row(rows, context);
    assert_eq!(r["health"], "unreachable", "{r:#}");
    assert_eq!(r["error_kind"], kind, "{r:#}");
    assert!(r["error"].is_string(), "{r:#}");
    assert_eq!(r["partitions"], Value::Null, "{r:#}");
}

/// The rows that must not change when the 3-node cluster loses a broker.
fn others(rows: &[Value]) -> Vec<(String, Value, Value)> {
    let mut out: Vec<(String, Value, Value)> = rows
        .iter()
        .filter(|r| r["context"] != "three")
        .map(|r| {
            (
                r["context"].as_str().unwrap_or_default().to_owned(),
                r["health"].clone(),
                r["error_kind"].clone(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The 3-node cluster's row: the lagging group's lag in records and in
/// time (records produced between `produced.0` and `produced.1`, the poll
/// between `polled.0` and `polled.1`, in ms since the epoch), and every
/// topic's min ISR read with none below it.
fn assert_three(rows: &[Value], produced: (i64, i64), polled: (i64, i64)) {
    let (producing, produced) = produced;
    let (asked, answered) = polled;
    let lag = row(rows, "three");
    assert_eq!(lag["groups"], 1, "{lag:#}");
    assert_eq!(lag["worst_lag"], RECORDS, "{lag:#}");
    assert_eq!(lag["worst_lag_group"], GROUP, "{lag:#}");
    assert_eq!(lag["lag_groups_checked"], 1, "{lag:#}");
    // Lag in time: the age of the first record produced, read during the
    // command: at least since the last was produced, at most since the first.
    assert_eq!(lag["worst_lag_time_group"], GROUP, "{lag:#}");
    let age = lag["worst_lag_time_ms"].as_i64().unwrap();
    assert!(
        age >= asked - produced && age <= answered - producing,
        "lag in time {age} ms, produced {} to {} ms before the poll: {lag:#}",
        asked - produced,
        answered - producing
    );
    // Every topic's min ISR read in the one poll; none below it yet.
    assert_eq!(lag["under_min_isr"], 0, "{lag:#}");
    assert_eq!(lag["min_isr_topics_checked"], lag["topics"], "{lag:#}");
}

/// `[fleet] poll_timeout_secs = 1`: the frozen context alone gives up
/// after one second, and says so.
fn a_shorter_poll_timeout_gives_up_sooner(home: &Path, frozen: &support::ClusterEnv) {
    let short = home.join("short.toml");
    std::fs::write(
        &short,
        format!(
            "[fleet]\npoll_timeout_secs = 1\n\n[contexts.frozen]\nbootstrap_servers = [\"{}\"]\n",
            frozen.bootstrap_list()[0]
        ),
    )
    .expect("write the config");
    let (output, rows, took) = get_fleet(home, &short, &[]);
    assert_eq!(output.status.code(), Some(3), "{rows:#?}");
    let r = row(&rows, "frozen");
    assert_eq!(r["error"], "timed out: no answer within 1s", "{r:#}");
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_millis(2500),
        "took {took:?}"
    );
}

#[test]
fn every_context_says_the_right_thing_and_a_killed_broker_turns_its_row_under_replicated() {
    let Some(auth) = support::shared_cluster() else {
        return;
    };
    let Some(three) = support::ThrowawayCluster::start("fleet-three", 3, THREE_NODES, false) else {
        return;
    };
    let Some(frozen) = support::ThrowawayCluster::start("fleet-frozen", 1, FROZEN, false) else {
        return;
    };
    let home = tempfile::tempdir().expect("a home directory");
    let config = write_config(home.path(), three.env(), &auth, frozen.env());
    support::create_topic(three.env(), TOPIC, "6", &[]);
    support::create_topic(
        three.env(),
        STRICT,
        &MIN_ISR_PARTITIONS.to_string(),
        &["--config", "min.insync.replicas=3"],
    );
    let producing = now_ms();
    lagging_group(three.env());
    let produced = now_ms();
    frozen.env().script(&["freeze", "1"]);

    // Headless, once: every row, worst first, exit 3 (some did not answer).
    let asked = now_ms();
    let (output, rows, took) = get_fleet(home.path(), &config, &[]);
    let answered = now_ms();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        output.status.code(),
        Some(3),
        "partial exit; stderr:\n{stderr}"
    );
    assert_eq!(rows.len(), 6, "{rows:#?}");
    assert_healthy(&rows, "three", 3);
    assert!(row(&rows, "three")["topics"].as_u64().unwrap() >= 1);
    assert!(row(&rows, "three")["partitions"].as_u64().unwrap() >= 6);
    assert_three(&rows, (producing, produced), (asked, answered));
    assert_healthy(&rows, "auth", 3);
    assert_unreachable(&rows, "wrong-password", "auth_failed");
    assert_unreachable(&rows, "refused", "refused");
    assert_unreachable(&rows, "frozen", "timed_out");
    let login = row(&rows, "login");
    assert_eq!(login["health"], "needs_login", "{login:#}");
    assert_eq!(login["error_kind"], "needs_login", "{login:#}");
    let healthy_at = rows.iter().position(|r| r["health"] == "ok").unwrap();
    assert!(
        rows[..healthy_at]
            .iter()
            .all(|r| r["health"] == "unreachable" || r["health"] == "needs_login"),
        "unreachable first: {rows:#?}"
    );
    // One poll deadline (4 s by default) for the frozen context, not one
    // per context: every row within the issue's 5 s, and a second of slack
    // for starting the process on a busy machine.
    assert!(took < Duration::from_secs(6), "took {took:?}");
    let frozen_row = row(&rows, "frozen");
    assert_eq!(
        frozen_row["error"], "timed out: no answer within 4s",
        "{frozen_row:#}"
    );
    for secret in ["alice-secret", "surely-not-it"] {
        let printed = format!("{}{stderr}", String::from_utf8_lossy(&output.stdout));
        assert!(!printed.contains(secret), "a password was printed");
    }
    assert!(stderr.contains("context 'frozen'"), "{stderr}");

    // A -b one-off is one more row, named command-line.
    let (_, with_one_off, _) = get_fleet(home.path(), &config, &["-b", three.env().bootstrap()]);
    assert_eq!(with_one_off.len(), 7, "{with_one_off:#?}");
    assert_healthy(&with_one_off, "command-line", 3);

    // Every context answering: exit 0.
    let healthy = home.path().join("healthy.toml");
    std::fs::write(
        &healthy,
        format!(
            "[contexts.three]\nbootstrap_servers = [\"{}\"]\n",
            three.env().bootstrap_list()[0]
        ),
    )
    .expect("write the config");
    let (output, healthy_rows, _) = get_fleet(home.path(), &healthy, &[]);
    assert_eq!(output.status.code(), Some(0), "{healthy_rows:#?}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    a_shorter_poll_timeout_gives_up_sooner(home.path(), frozen.env());

    fleet_poller::the_poller_publishes_healthy_rows_before_the_frozen_one(&config);

    // Kill a broker of the 3-node cluster: its row turns under-replicated,
    // the others stay as they were.
    let before = others(&rows);
    three.env().script(&["kill", "3"]);
    let after = support::wait_until(Duration::from_mins(1), "the row under min ISR", || {
        let (_, rows, _) = get_fleet(home.path(), &config, &[]);
        let r = row(&rows, "three");
        (r["health"] == "under_min_isr" && r["under_min_isr"] == MIN_ISR_PARTITIONS).then_some(rows)
    });
    let r = row(&after, "three");
    assert_eq!(r["brokers_answering"], 2, "{r:#}");
    // Every partition lost a replica; only the strict topic's are below
    // their minimum (the broker default is 1).
    assert!(
        r["under_replicated"].as_u64().unwrap() > MIN_ISR_PARTITIONS,
        "{r:#}"
    );
    assert_eq!(others(&after), before);
    frozen.env().script(&["thaw", "1"]);
}

/// A context whose `password_command` reads the terminal is `needs_login`
/// at once, even when kscope itself has a terminal (run under `script`, a
/// pseudo-terminal of its own): the fleet runs the command without one, so
/// it can neither prompt over the output nor wait for an answer.
#[test]
fn a_password_command_that_reads_the_terminal_is_needs_login_without_waiting() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = tempfile::tempdir().expect("a home directory");
    let config = home.path().join("login.toml");
    std::fs::write(
        &config,
        format!(
            "[contexts.login]\nbootstrap_servers = [\"{}\"]\n\
             [contexts.login.sasl]\nmechanism = \"PLAIN\"\nusername = \"alice\"\n\
             password_command = \"read -r pw </dev/tty && echo $pw\"\n",
            env.bootstrap_list()[0]
        ),
    )
    .expect("write the config");
    let out = home.path().join("rows.json");
    let command = format!(
        "HOME='{home}' XDG_CONFIG_HOME='{home}/config' XDG_STATE_HOME='{home}/state' \
         '{kscope}' --config '{config}' get fleet -o json >'{out}' 2>/dev/null",
        home = home.path().display(),
        kscope = env!("CARGO_BIN_EXE_kscope"),
        config = config.display(),
        out = out.display(),
    );
    let started = std::time::Instant::now();
    let ran = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env_remove("KSCOPE_BOOTSTRAP")
        .env_remove("KSCOPE_CONTEXT")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status();
    let Ok(_) = ran else {
        eprintln!("SKIPPED: no `script` to give kscope a terminal");
        return;
    };
    let took = started.elapsed();
    let rows: Vec<Value> =
        serde_json::from_slice(&std::fs::read(&out).expect("the rows")).expect("JSON rows");
    let login = row(&rows, "login");
    assert_eq!(login["health"], "needs_login", "{login:#}");
    assert_eq!(login["error_kind"], "needs_login", "{login:#}");
    assert!(
        login["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("needs login: ")),
        "{login:#}"
    );
    assert_eq!(login["partitions"], Value::Null, "{login:#}");
    // Not the 3 s a command that waits is given: without a terminal (setsid)
    // it failed at once. (Where setsid is missing, the read stops it until
    // that timeout: needs login too, only later.)
    let setsid = std::process::Command::new("setsid").arg("true").status();
    if setsid.is_ok_and(|s| s.success()) {
        assert!(took < Duration::from_millis(2500), "took {took:?}");
    }
}
