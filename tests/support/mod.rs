//! What every integration test shares: finding the real Kafka cluster the test
//! command started, starting throwaway clusters for destructive tests, driving
//! `scripts/kafka-cluster`, and waiting for a condition with a deadline;
//! [`tmux`] drives the real binary in a terminal for end-to-end tests;
//! [`producers`] holds a transaction open with Kafka's own producer;
//! [`replay`] drives `kscope replay`'s model without a terminal.
//!
//! The test command (`scripts/test`) starts a shared 3-node cluster with auth
//! listeners and exports `KSCOPE_TEST_CLUSTER`, the path of its `cluster.env`.
//! With `CI=true` a missing cluster fails the test; elsewhere the test says
//! loudly that it skipped.
#![allow(dead_code, clippy::unwrap_used, clippy::panic, clippy::expect_used)]

pub mod consumers;
pub mod fleet;
pub mod producers;
pub mod replay;
pub mod tmux;
pub mod watch;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The variables of a running cluster's `cluster.env`.
#[derive(Debug, Clone)]
pub struct ClusterEnv {
    vars: HashMap<String, String>,
}

impl ClusterEnv {
    /// Read a `cluster.env` written by `scripts/kafka-cluster up`.
    pub fn load(path: &Path) -> Self {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read cluster env {}: {e}", path.display()));
        let vars = text
            .lines()
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| line.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        Self { vars }
    }

    /// One variable, e.g. `KSCOPE_BOOTSTRAP_SASL_SSL`; panics naming it if absent.
    pub fn get(&self, key: &str) -> &str {
        self.vars.get(key).unwrap_or_else(|| {
            panic!("cluster env has no {key} (was the cluster started with --auth?)")
        })
    }

    /// The PLAINTEXT bootstrap list.
    pub fn bootstrap(&self) -> &str {
        self.get("KSCOPE_BOOTSTRAP")
    }

    /// The PLAINTEXT bootstrap addresses as a list.
    pub fn bootstrap_list(&self) -> Vec<String> {
        self.bootstrap().split(',').map(str::to_owned).collect()
    }

    /// The cluster's name, for `--name` on the script.
    pub fn name(&self) -> &str {
        self.get("KSCOPE_CLUSTER_NAME")
    }

    /// Run `scripts/kafka-cluster COMMAND ARGS... --name <this cluster>`; panics on failure.
    pub fn script(&self, args: &[&str]) -> String {
        let mut all: Vec<&str> = args.to_vec();
        if args.first() == Some(&"tool") {
            // `tool` takes everything after the class verbatim, so the name goes first.
            all.insert(1, "--name");
            all.insert(2, self.name());
        } else {
            all.extend(["--name", self.name()]);
        }
        let output = script(&all);
        assert_success(&output, &format!("scripts/kafka-cluster {}", all.join(" ")));
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Kafka's own `TopicCommand` against this cluster with `args`; its stdout.
    pub fn topic_command(&self, args: &[&str]) -> String {
        let mut all = vec![
            "tool",
            "org.apache.kafka.tools.TopicCommand",
            "--bootstrap-server",
            self.bootstrap(),
        ];
        all.extend(args);
        self.script(&all)
    }

    /// Create `topic` with `TopicCommand --create`; `layout` is the rest of
    /// its arguments (`--partitions 3 --replication-factor 3`, or
    /// `--replica-assignment 1:2,2:3`).
    pub fn create_topic_with_kafka(&self, topic: &str, layout: &[&str]) {
        let mut args = vec!["--create", "--topic", topic];
        args.extend(layout);
        self.topic_command(&args);
    }

    /// Kafka's `ProducerPerformance` writing `records` records of `size`
    /// bytes to `topic` as fast as it can; `props` are producer properties
    /// (`acks=all`, `linger.ms=5`).
    pub fn produce_perf(&self, topic: &str, records: usize, size: usize, props: &[&str]) {
        let (records, size) = (records.to_string(), size.to_string());
        let servers = format!("bootstrap.servers={}", self.bootstrap());
        let mut args = vec![
            "tool",
            "org.apache.kafka.tools.ProducerPerformance",
            "--topic",
            topic,
            "--num-records",
            &records,
            "--record-size",
            &size,
            "--throughput",
            "-1",
            "--producer-props",
            &servers,
        ];
        args.extend(props);
        self.script(&args);
    }

    /// Kafka's console producer (the Java client, `acks=all`) writing `lines`
    /// to `topic`, one record each; `args` are more of its arguments, e.g.
    /// `--property parse.key=true --property key.separator=<TAB>` for
    /// `key<TAB>value` lines, or `--producer-property linger.ms=5`.
    pub fn console_produce(&self, topic: &str, lines: &[String], args: &[&str]) {
        use std::io::Write as _;
        let mut child = Command::new(repo().join("scripts/kafka-cluster"))
            .args(["tool", "--name", self.name()])
            .arg("org.apache.kafka.tools.ConsoleProducer")
            .args(["--bootstrap-server", self.bootstrap(), "--topic", topic])
            .args(["--producer-property", "acks=all"])
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start ConsoleProducer");
        {
            let mut stdin = child.stdin.take().unwrap();
            for line in lines {
                writeln!(stdin, "{line}").unwrap();
            }
        }
        assert_success(&child.wait_with_output().unwrap(), "ConsoleProducer");
    }
}

/// `--property` arguments of the console producer for `key<TAB>value` lines.
pub const KEYED: [&str; 4] = [
    "--property",
    "parse.key=true",
    "--property",
    "key.separator=\t",
];

/// The shared cluster, or `None` (with a loud message) outside CI when there is none.
pub fn shared_cluster() -> Option<ClusterEnv> {
    match std::env::var_os("KSCOPE_TEST_CLUSTER") {
        Some(path) => Some(ClusterEnv::load(Path::new(&path))),
        None if in_ci() => panic!(
            "KSCOPE_TEST_CLUSTER is not set and CI=true: this test needs the real cluster; run the tests with scripts/test"
        ),
        None => {
            eprintln!(
                "SKIPPED: no cluster (KSCOPE_TEST_CLUSTER unset); run the tests with scripts/test"
            );
            None
        }
    }
}

/// The one-node cluster with an authorizer (`scripts/kafka-cluster up
/// --acls`, started by the test command beside the shared one and named by
/// `KSCOPE_ACL_CLUSTER`), or `None` (with a loud message) outside CI when
/// there is none. PLAINTEXT connects as a super user; alice (SASL) holds
/// only the ACLs the script creates.
pub fn acl_cluster() -> Option<ClusterEnv> {
    match std::env::var_os("KSCOPE_ACL_CLUSTER") {
        Some(path) => Some(ClusterEnv::load(Path::new(&path))),
        None if in_ci() => panic!(
            "KSCOPE_ACL_CLUSTER is not set and CI=true: this test needs the cluster with an authorizer; run the tests with scripts/test"
        ),
        None => {
            eprintln!(
                "SKIPPED: no ACL cluster (KSCOPE_ACL_CLUSTER unset); run the tests with scripts/test"
            );
            None
        }
    }
}

/// Whether we run under CI, where a missing cluster is a failure.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Where the scripts cache downloads and installs (the Kafka jars, the
/// Python clients): `$KSCOPE_CACHE_DIR`, else `$XDG_CACHE_HOME/kscope`,
/// else `~/.cache/kscope`.
pub fn cache_dir() -> PathBuf {
    std::env::var_os("KSCOPE_CACHE_DIR").map_or_else(
        || {
            std::env::var_os("XDG_CACHE_HOME")
                .map_or_else(
                    || PathBuf::from(std::env::var("HOME").unwrap()).join(".cache"),
                    PathBuf::from,
                )
                .join("kscope")
        },
        PathBuf::from,
    )
}

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run `scripts/kafka-cluster` with these arguments.
pub fn script(args: &[&str]) -> Output {
    Command::new(repo().join("scripts/kafka-cluster"))
        .args(args)
        .output()
        .expect("scripts/kafka-cluster could not be started")
}

/// Panic with the command's stderr unless it succeeded.
pub fn assert_success(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A cluster of its own for a destructive test; stopped and deleted on drop.
#[derive(Debug)]
pub struct ThrowawayCluster {
    env: ClusterEnv,
}

impl ThrowawayCluster {
    /// Start `nodes` nodes named `name` at `port_base` (bases must be 100 apart).
    /// Returns `None` outside CI when no shared cluster is set (no cluster
    /// tooling wanted); under CI it starts without one (it needs none).
    pub fn start(name: &str, nodes: u8, port_base: u16, auth: bool) -> Option<Self> {
        Self::start_with(name, nodes, port_base, if auth { &["--auth"] } else { &[] })
    }

    /// [`ThrowawayCluster::start`] with `scripts/kafka-cluster up` flags of
    /// its own (`--auth`, `--tiered`).
    pub fn start_with(name: &str, nodes: u8, port_base: u16, flags: &[&str]) -> Option<Self> {
        if !in_ci() {
            shared_cluster()?;
        }
        let nodes = nodes.to_string();
        let base = port_base.to_string();
        let mut args = vec![
            "up",
            "--name",
            name,
            "--nodes",
            &nodes,
            "--port-base",
            &base,
        ];
        args.extend(flags);
        // A previous run killed mid-test may have left this name behind.
        let _ = script(&["down", "--name", name, "KILL"]);
        let output = script(&args);
        assert_success(&output, &format!("starting throwaway cluster '{name}'"));
        let dir = run_dir().join(name);
        Some(Self {
            env: ClusterEnv::load(&dir.join("cluster.env")),
        })
    }

    /// Its environment.
    pub fn env(&self) -> &ClusterEnv {
        &self.env
    }
}

impl Drop for ThrowawayCluster {
    fn drop(&mut self) {
        let _ = script(&["down", "--name", self.env.name(), "KILL"]);
        let _ = std::fs::remove_dir_all(run_dir().join(self.env.name()));
    }
}

fn run_dir() -> PathBuf {
    std::env::var_os("KSCOPE_RUN_DIR").map_or_else(|| repo().join(".run"), PathBuf::from)
}

/// Poll `check` until it returns `Some`, or panic after `timeout` naming `what`.
pub fn wait_until<T>(timeout: Duration, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(
            Instant::now() < deadline,
            "timed out after {timeout:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Async twin of [`wait_until`].
pub async fn wait_until_async<T, F, Fut>(timeout: Duration, what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            Instant::now() < deadline,
            "timed out after {timeout:?} waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// A name no other test or run uses: `prefix-` and 8 random hex digits.
pub fn unique(prefix: &str) -> String {
    format!("{prefix}-{:08x}", rand::random::<u32>())
}

/// The built `kscope` binary run with `-b` the cluster's PLAINTEXT bootstrap
/// list and `args`; its whole output.
pub fn kscope(env: &ClusterEnv, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kscope"))
        .arg("-b")
        .arg(env.bootstrap())
        .args(args)
        .output()
        .expect("run kscope")
}

/// Create `topic` with Kafka's own tool (`partitions` partitions, replication
/// factor 3, then `extra` arguments such as `--config k=v`) and wait until
/// `kscope get partitions` shows a leader for every partition: a broker that
/// has not yet applied the creation answers "does not exist", a reason to ask
/// again, not a failure.
pub fn create_topic(env: &ClusterEnv, topic: &str, partitions: &str, extra: &[&str]) {
    let mut layout = vec!["--partitions", partitions, "--replication-factor", "3"];
    layout.extend(extra);
    env.create_topic_with_kafka(topic, &layout);
    wait_until(Duration::from_secs(30), "the topic's leaders", || {
        let output = kscope(env, &["get", "partitions", topic, "-o", "json"]);
        if !output.status.success() {
            return None;
        }
        let rows = serde_json::from_slice::<serde_json::Value>(&output.stdout).ok()?;
        let rows = rows.as_array()?;
        (rows.len().to_string() == partitions && rows.iter().all(|r| r["leader"].is_i64()))
            .then_some(())
    });
}
