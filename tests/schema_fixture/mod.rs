//! The schema-registry fixture shared by the tests that need Confluent-framed
//! records from the real serializers: the Python client with its
//! schema-registry extras (installed once into the kscope cache dir), the
//! shared cluster's registry URL, and `produce.py` (see its docstring).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use super::support::{self, ClusterEnv, kscope};

/// The Python client with its schema-registry extras, installed once into the
/// kscope cache dir (like `scripts/kcat` installs the plain client).
pub fn python_path() -> PathBuf {
    let cache = support::cache_dir();
    let dir = cache.join("python-schemaregistry");
    if !dir.join(".complete").exists() {
        let output = Command::new("python3")
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(["--root-user-action=ignore", "--target"])
            .arg(&dir)
            .arg("confluent-kafka[schemaregistry,avro,protobuf,json]==2.16.1")
            .output()
            .expect("run pip");
        support::assert_success(&output, "pip install confluent-kafka[schemaregistry]");
        std::fs::write(dir.join(".complete"), "").expect("mark the install complete");
    }
    dir
}

/// The shared cluster's registry URL; in CI a missing one is a failure.
pub fn registry(env: &ClusterEnv) -> String {
    let url = env.get("KSCOPE_SCHEMA_REGISTRY");
    assert!(
        !url.is_empty(),
        "the test cluster has no schema registry (start it with --registry)"
    );
    url.to_owned()
}

/// Run `produce.py` on `topic`; its stdout lines.
pub fn fixture(env: &ClusterEnv, registry: &str, topic: &str, args: &[&str]) -> Vec<String> {
    let output = Command::new("python3")
        .arg(support::repo().join("tests/schema_fixture/produce.py"))
        .args([env.bootstrap(), registry, topic])
        .args(args)
        .env("PYTHONPATH", python_path())
        .output()
        .expect("run python3");
    support::assert_success(&output, &format!("produce.py {topic} {}", args.join(" ")));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Seed the demo's schema traffic (`DemoTraffic schemas PREFIX`, the code
/// `scripts/demo` runs) under a fresh prefix: `PREFIXorders-avro`,
/// `PREFIXpayments-protobuf` and `PREFIXusers-jsonschema`, 50 records each.
/// Returns the prefix.
pub fn demo_schemas(env: &ClusterEnv, registry: &str) -> String {
    let prefix = format!("{}-", support::unique("demo"));
    let source = support::repo().join("scripts/demo-traffic/DemoTraffic.java");
    let output = Command::new(support::repo().join("scripts/kafka-cluster"))
        .args(["tool", "--name", env.name()])
        .arg(&source)
        .args([env.bootstrap(), "schemas", &prefix])
        .env("KSCOPE_SCHEMA_REGISTRY", registry)
        .output()
        .expect("run scripts/kafka-cluster tool");
    support::assert_success(&output, "DemoTraffic schemas");
    prefix
}

/// `kscope consume TOPIC -o json` through the registry: one object per record.
pub fn consume(env: &ClusterEnv, registry: &str, topic: &str) -> Vec<Value> {
    let url = format!("schema.registry.url={registry}");
    let output = kscope(env, &["-X", &url, "consume", topic, "-o", "json"]);
    support::assert_success(&output, &format!("kscope consume {topic}"));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one json object per line"))
        .collect()
}
