//! The fleet against real clusters: `kscope get fleet -o json` over a
//! config of five contexts — a throwaway 3-node cluster, the shared auth
//! cluster over SCRAM with the right password and with a wrong one, a
//! port nobody listens on, and a throwaway 1-node cluster whose broker is
//! frozen (SIGSTOP) — says the right thing for each; the running poller
//! publishes the healthy rows long before the frozen one gives up; and
//! killing a broker of the 3-node cluster turns its row under-replicated
//! while the other rows stay as they were.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use kscope::fleet::{self, FleetSettings, Health};
use serde_json::Value;

/// This file's throwaway clusters (ports 27092-27999 are the fleet's).
const THREE_NODES: u16 = 27792;
const FROZEN: u16 = 27892;
/// Nothing listens here.
const REFUSED: &str = "127.0.0.1:27999";
const TOPIC: &str = "fleet-orders";
/// A group committed at the start of [`TOPIC`], which holds [`RECORDS`].
const GROUP: &str = "fleet-lagging";
const RECORDS: u64 = 500;

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

fn get_fleet(home: &Path, config: &Path, extra: &[&str]) -> (Output, Vec<Value>, Duration) {
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env_remove("KSCOPE_BOOTSTRAP")
        .env_remove("KSCOPE_CONTEXT")
        .arg("--config")
        .arg(config)
        .args(extra)
        .args(["get", "fleet", "-o", "json"])
        .output()
        .expect("run kscope");
    let took = started.elapsed();
    let rows: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "get fleet printed no JSON ({e}); stderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, rows, took)
}

fn row<'a>(rows: &'a [Value], context: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["context"] == context)
        .unwrap_or_else(|| panic!("no row for '{context}' in {rows:#?}"))
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

/// Wait until the poller publishes rows that `ready` accepts, for at most `within`.
async fn wait_for_rows(
    rows: &mut tokio::sync::watch::Receiver<fleet::FleetRows>,
    within: Duration,
    what: &str,
    ready: impl Fn(&[fleet::FleetRow]) -> bool,
) -> fleet::FleetRows {
    let started = Instant::now();
    loop {
        let snapshot = rows.borrow_and_update().clone();
        if ready(&snapshot) {
            return snapshot;
        }
        assert!(
            started.elapsed() < within,
            "no {what} after {within:?}: {snapshot:#?}"
        );
        let _ = tokio::time::timeout(Duration::from_millis(250), rows.changed()).await;
    }
}

fn find<'a>(rows: &'a [fleet::FleetRow], context: &str) -> &'a fleet::FleetRow {
    rows.iter()
        .find(|r| r.context == context)
        .unwrap_or_else(|| panic!("no row for '{context}'"))
}

/// The running poller publishes the healthy rows while the frozen context
/// is still waiting out its deadline; then the frozen one fails with its
/// backoff shown, and the healthy ones are polled again on their cadence.
fn the_poller_publishes_healthy_rows_before_the_frozen_one(config: &Path) {
    let settings = FleetSettings {
        interval: Duration::from_secs(2),
        poll_deadline: Duration::from_secs(4),
        ..FleetSettings::default()
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let loaded = kscope::config::load::load(Some(config)).expect("the config loads");
        let targets = fleet::targets(loaded, &kscope::config::Selection::default());
        let poller = fleet::Fleet::start(targets, settings);
        let mut rows = poller.subscribe();
        let healthy = |rows: &[fleet::FleetRow]| {
            ["three", "auth"]
                .iter()
                .all(|name| find(rows, name).health == Health::Ok)
        };
        let first = wait_for_rows(&mut rows, settings.poll_deadline, "healthy rows", healthy).await;
        assert_eq!(find(&first, "frozen").health, Health::Pending);
        let polled_first = find(&first, "three").polled_at_ms;
        let later = wait_for_rows(
            &mut rows,
            Duration::from_secs(15),
            "a failed frozen row and a second poll",
            |rows| {
                find(rows, "frozen").health == Health::Unreachable
                    && find(rows, "three").polled_at_ms > polled_first
            },
        )
        .await;
        let frozen = find(&later, "frozen");
        assert_eq!(
            frozen.error_kind,
            Some(fleet::Reason::TimedOut),
            "{frozen:?}"
        );
        assert_eq!(frozen.retry_in_ms, Some(4000), "{frozen:?}");
        assert_eq!(
            later[0].health,
            Health::Unreachable,
            "worst first: {later:?}"
        );
        assert!(healthy(&later), "{later:#?}");
        let login = find(&later, "login");
        assert_eq!(login.health, Health::NeedsLogin, "{login:?}");
        assert_eq!(login.retry_in_ms, None, "{login:?}");

        // Logging in (here: settings resolved without the prompt) polls it.
        let loaded = kscope::config::load::load(Some(config)).expect("the config loads");
        let selection = kscope::config::Selection {
            context: Some("three".to_owned()),
            ..kscope::config::Selection::default()
        };
        let mut resolved = kscope::config::resolve::resolve(&loaded, &selection).expect("resolves");
        "login".clone_into(&mut resolved.name);
        poller.logged_in(resolved);
        wait_for_rows(
            &mut rows,
            Duration::from_secs(10),
            "the login row",
            |rows| find(rows, "login").health == Health::Ok,
        )
        .await;
    });
    drop(runtime);
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
    lagging_group(three.env());
    frozen.env().script(&["freeze", "1"]);

    // Headless, once: every row, worst first, exit 3 (some did not answer).
    let (output, rows, took) = get_fleet(home.path(), &config, &[]);
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
    let lag = row(&rows, "three");
    assert_eq!(lag["groups"], 1, "{lag:#}");
    assert_eq!(lag["worst_lag"], RECORDS, "{lag:#}");
    assert_eq!(lag["worst_lag_group"], GROUP, "{lag:#}");
    assert_eq!(lag["lag_groups_checked"], 1, "{lag:#}");
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
    // One poll deadline for the frozen context, not one per context.
    assert!(took < Duration::from_secs(15), "took {took:?}");
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

    the_poller_publishes_healthy_rows_before_the_frozen_one(&config);

    // Kill a broker of the 3-node cluster: its row turns under-replicated,
    // the others stay as they were.
    let before = others(&rows);
    three.env().script(&["kill", "3"]);
    let after = support::wait_until(Duration::from_mins(1), "the row under-replicated", || {
        let (_, rows, _) = get_fleet(home.path(), &config, &[]);
        let r = row(&rows, "three");
        (r["health"] == "under_replicated" && r["under_replicated"].as_u64() > Some(0))
            .then_some(rows)
    });
    let r = row(&after, "three");
    assert_eq!(r["brokers_answering"], 2, "{r:#}");
    assert_eq!(others(&after), before);
    frozen.env().script(&["thaw", "1"]);
}
