//! `kscope get acls|users|quotas` through the binary against the real
//! `StandardAuthorizer` of the cluster `scripts/kafka-cluster up --acls`
//! starts: the ACLs listed are exactly the ones the script created, a
//! topic's ACLs are those Kafka's MATCH filter applies to it, the quota the
//! script set is listed, and alice — who holds no DESCRIBE on the cluster —
//! gets one line naming the permission she lacks instead of a listing.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeSet;
use std::process::{Command, Output};

use serde_json::Value;
use support::ClusterEnv;

/// `kscope ARGS` as the PLAINTEXT super user (ANONYMOUS).
fn as_super_user(env: &ClusterEnv, args: &[&str]) -> Output {
    support::kscope(env, args)
}

/// `kscope ARGS` as alice over `SASL_PLAINTEXT` (PLAIN).
fn as_alice(env: &ClusterEnv, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kscope"))
        .arg("-b")
        .arg(env.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT"))
        .args(["-X", "security.protocol=SASL_PLAINTEXT"])
        .args(["-X", "sasl.mechanism=PLAIN"])
        .args([
            "-X",
            &format!("sasl.username={}", env.get("KSCOPE_PLAIN_USER")),
        ])
        .args([
            "-X",
            &format!("sasl.password={}", env.get("KSCOPE_PLAIN_PASSWORD")),
        ])
        .args(args)
        .env("HOME", std::env::temp_dir())
        .output()
        .expect("run kscope")
}

fn json(output: &Output, what: &str) -> Vec<Value> {
    support::assert_success(output, what);
    let value: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    value.as_array().expect("an array").clone()
}

/// An ACL row as `PERMISSION PRINCIPAL OPERATION RESOURCE PATTERN NAME HOST`.
fn acl_set(rows: &[Value]) -> BTreeSet<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {} {}",
                r["permission"].as_str().expect("permission"),
                r["principal"].as_str().expect("principal"),
                r["operation"].as_str().expect("operation"),
                r["resource_type"].as_str().expect("resource type"),
                r["pattern_type"].as_str().expect("pattern type"),
                r["resource_name"].as_str().expect("name"),
                r["host"].as_str().expect("host"),
            )
        })
        .collect()
}

/// What `create_acls` in `scripts/kafka-cluster` creates.
const CREATED: [&str; 4] = [
    "ALLOW User:alice READ TOPIC LITERAL orders *",
    "ALLOW User:alice DESCRIBE TOPIC PREFIXED orders *",
    "DENY User:alice WRITE TOPIC LITERAL orders *",
    "ALLOW User:alice READ GROUP PREFIXED alice- *",
];

#[test]
fn the_acls_listed_are_the_ones_the_script_created() {
    let Some(env) = support::acl_cluster() else {
        return;
    };
    let rows = json(
        &as_super_user(&env, &["get", "acls", "-o", "json"]),
        "kscope get acls",
    );
    let expected: BTreeSet<String> = CREATED.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(acl_set(&rows), expected);
    let table = as_super_user(&env, &["get", "acls"]);
    support::assert_success(&table, "kscope get acls (table)");
    let text = String::from_utf8_lossy(&table.stdout);
    let header = text.lines().next().expect("a header");
    for column in [
        "PRINCIPAL",
        "HOST",
        "OPERATION",
        "PERMISSION",
        "RESOURCE-TYPE",
        "PATTERN",
        "NAME",
    ] {
        assert!(header.contains(column), "{column} missing from: {header}");
    }
    assert_eq!(text.lines().count(), 5, "a header and four ACLs:\n{text}");
}

#[test]
fn a_topics_acls_are_its_literal_matching_prefixed_and_wildcard_ones() {
    let Some(env) = support::acl_cluster() else {
        return;
    };
    let of = |topic: &str| {
        acl_set(&json(
            &as_super_user(&env, &["get", "acls", "--topic", topic, "-o", "json"]),
            &format!("kscope get acls --topic {topic}"),
        ))
    };
    let orders: BTreeSet<String> = CREATED[..3].iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(
        of("orders"),
        orders,
        "literal and prefixed, not the group's"
    );
    let prefixed: BTreeSet<String> = [CREATED[1].to_owned()].into();
    assert_eq!(of("orders-eu"), prefixed, "only the prefix matches");
    assert!(of("payments").is_empty(), "nothing applies to payments");
}

#[test]
fn alice_without_describe_on_the_cluster_gets_one_line_naming_it() {
    let Some(env) = support::acl_cluster() else {
        return;
    };
    for (what, listing, needs) in [
        ("acls", "list ACLs", "DESCRIBE on the cluster"),
        ("users", "list SCRAM users", "DESCRIBE on the cluster"),
        (
            "quotas",
            "list client quotas",
            "DESCRIBE_CONFIGS on the cluster",
        ),
    ] {
        let output = as_alice(&env, &["get", what]);
        assert_eq!(output.status.code(), Some(1), "get {what} as alice");
        assert!(output.stdout.is_empty(), "nothing listed for get {what}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line for get {what}:\n{stderr}");
        assert!(
            lines[0].contains(&format!("not authorised to {listing} (needs {needs})"))
                && lines[0].contains("authorization failed"),
            "{}",
            lines[0]
        );
    }
}

#[test]
fn the_quota_the_script_set_is_listed() {
    let Some(env) = support::acl_cluster() else {
        return;
    };
    let rows = json(
        &as_super_user(&env, &["get", "quotas", "-o", "json"]),
        "kscope get quotas",
    );
    let listed: Vec<(&str, &str, f64)> = rows
        .iter()
        .map(|r| {
            (
                r["entity"].as_str().expect("entity"),
                r["key"].as_str().expect("key"),
                r["value"].as_f64().expect("value"),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("user=alice", "consumer_byte_rate", 2_097_152.0),
            ("user=alice", "producer_byte_rate", 1_048_576.0),
        ]
    );
}

#[test]
fn users_on_the_acl_cluster_are_alice_and_admin() {
    let Some(env) = support::acl_cluster() else {
        return;
    };
    let rows = json(
        &as_super_user(&env, &["get", "users", "-o", "json"]),
        "kscope get users",
    );
    let users: BTreeSet<&str> = rows
        .iter()
        .map(|r| r["user"].as_str().expect("user"))
        .collect();
    assert_eq!(users, BTreeSet::from(["admin", "alice"]));
    assert_eq!(rows.len(), 4, "two mechanisms each");
}
