//! Authentication through the binary against the real cluster's SASL
//! listeners: a refused password is one clear line, after one attempt at one
//! broker (every broker would refuse the same credentials, and trying each
//! only risks locking the account).
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

/// `kscope -b <SASL_PLAINTEXT listeners> -X … ARGS` as `user`/`password`.
fn kscope_as(
    env: &support::ClusterEnv,
    mechanism: &str,
    user: &str,
    password: &str,
    args: &[&str],
) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kscope"))
        .arg("-b")
        .arg(env.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT"))
        .args(["-X", "security.protocol=SASL_PLAINTEXT"])
        .args(["-X", &format!("sasl.mechanism={mechanism}")])
        .args(["-X", &format!("sasl.username={user}")])
        .args(["-X", &format!("sasl.password={password}")])
        .args(args)
        .env("HOME", std::env::temp_dir())
        .output()
        .expect("run kscope")
}

/// How many failed authentications the cluster's brokers have logged.
fn failed_authentications(env: &support::ClusterEnv) -> usize {
    let dir = PathBuf::from(env.get("KSCOPE_CLUSTER_DIR"));
    let nodes: u32 = env.get("KSCOPE_NODES").parse().expect("node count");
    (1..=nodes)
        .map(|node| {
            let log = dir.join(format!("node-{node}")).join("server.log");
            std::fs::read_to_string(&log)
                .unwrap_or_default()
                .matches("Failed authentication with")
                .count()
        })
        .sum()
}

#[test]
fn a_refused_password_is_one_clear_error_after_one_attempt_at_one_broker() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let user = env.get("KSCOPE_SCRAM_USER").to_owned();
    let good = env.get("KSCOPE_SCRAM_PASSWORD").to_owned();
    for mechanism in ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"] {
        let before = failed_authentications(&env);
        let output = kscope_as(&env, mechanism, &user, "surely-wrong", &["get", "topics"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{mechanism}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{mechanism}: one line: {stderr}");
        for expected in [mechanism, &format!("user '{user}'"), "password", "refused"] {
            assert!(
                stderr.contains(expected),
                "{mechanism}: no {expected:?} in {stderr}"
            );
        }
        assert!(!stderr.contains("surely-wrong"), "{stderr}");
        support::wait_until(
            Duration::from_secs(20),
            "the broker to log the failed authentication",
            || (failed_authentications(&env) > before).then_some(()),
        );
        // A good login after it: by the time it is through, any other
        // attempt of the failed run would have been logged too.
        let fine = kscope_as(&env, mechanism, &user, &good, &["get", "brokers"]);
        support::assert_success(
            &fine,
            &format!("kscope get brokers as {user} ({mechanism})"),
        );
        assert_eq!(
            failed_authentications(&env) - before,
            1,
            "{mechanism}: the wrong password was tried at exactly one broker, once"
        );
    }
}
