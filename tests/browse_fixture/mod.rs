//! Producing test records with the Python client (librdkafka, which
//! `scripts/kcat` installs into the kscope cache dir): `produce.py` beside
//! this file says what each mode writes. Used by the browse and Messages
//! tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Command;

use super::support;

/// Where `scripts/kcat` keeps the Python client; installed on first use.
fn python_path() -> PathBuf {
    let output = Command::new(support::repo().join("scripts/kcat"))
        .arg("-V")
        .output()
        .expect("run scripts/kcat");
    support::assert_success(&output, "scripts/kcat -V (installs the Python client)");
    let cache = support::cache_dir();
    cache.join("librdkafka-wheel")
}

/// `produce.py BOOTSTRAP TOPIC ARGS…`, which must succeed.
pub fn produce(env: &support::ClusterEnv, topic: &str, args: &[&str]) {
    let output = Command::new("python3")
        .arg(support::repo().join("tests/browse_fixture/produce.py"))
        .args([env.bootstrap(), topic])
        .args(args)
        .env("PYTHONPATH", python_path())
        .output()
        .expect("run python3");
    support::assert_success(&output, &format!("produce.py {topic} {}", args.join(" ")));
}
