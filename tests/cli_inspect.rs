//! The read-only inspection commands (`get config`, `--sizes`, `get
//! acls|quotas|users|quorum`), run as the built binary against the shared
//! cluster.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use support::{kscope, unique};

use std::time::Duration;

use serde_json::Value;

fn json(env: &support::ClusterEnv, args: &[&str]) -> Value {
    let output = kscope(env, args);
    support::assert_success(&output, &format!("kscope {}", args.join(" ")));
    serde_json::from_slice::<Value>(&output.stdout).expect("json output")
}

fn rows(env: &support::ClusterEnv, args: &[&str]) -> Vec<Value> {
    json(env, args).as_array().expect("an array").clone()
}

fn text(env: &support::ClusterEnv, args: &[&str]) -> String {
    let output = kscope(env, args);
    support::assert_success(&output, &format!("kscope {}", args.join(" ")));
    String::from_utf8(output.stdout).expect("utf-8")
}

/// The config called `name` in a `get config -o json` answer.
fn config<'a>(rows: &'a [Value], name: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no config {name}"))
}

/// Kafka's own `ConfigCommand` against the cluster.
fn config_command(env: &support::ClusterEnv, args: &[&str]) -> String {
    let mut all = vec![
        "tool",
        "kafka.admin.ConfigCommand",
        "--bootstrap-server",
        env.bootstrap(),
    ];
    all.extend(args);
    env.script(&all)
}

#[test]
fn a_topic_config_set_at_creation_shows_its_dynamic_source_and_the_rest_are_defaults() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("inspect-config");
    support::create_topic(&env, &topic, "1", &["--config", "retention.ms=12345"]);

    let configs = rows(&env, &["get", "config", "topic", &topic, "-o", "json"]);
    let retention = config(&configs, "retention.ms");
    assert_eq!(retention["value"], "12345");
    assert_eq!(retention["source"], "DYNAMIC_TOPIC_CONFIG");
    assert_eq!(retention["is_default"], false);
    assert_eq!(retention["sensitive"], false);
    assert_eq!(retention["read_only"], false);
    assert_eq!(retention["type"], "LONG");
    assert!(
        retention["documentation"]
            .as_str()
            .is_some_and(|d| d.contains("retain")),
        "{retention}"
    );
    let cleanup = config(&configs, "cleanup.policy");
    assert_eq!(cleanup["value"], "delete");
    assert_eq!(cleanup["source"], "DEFAULT_CONFIG");
    assert_eq!(cleanup["is_default"], true);
    // Inherited from the broker (a dynamic default here): not the topic's own.
    let min_isr = config(&configs, "min.insync.replicas");
    assert_ne!(min_isr["source"], "DYNAMIC_TOPIC_CONFIG", "{min_isr}");
    let mut names: Vec<&str> = configs.iter().filter_map(|c| c["name"].as_str()).collect();
    let listed = names.clone();
    names.sort_unstable();
    assert_eq!(names, listed, "sorted by name");
    assert!(configs.len() > 20, "every key, not an empty selection");

    let table = text(&env, &["get", "config", "topic", &topic]);
    let header = table.lines().next().unwrap();
    assert!(header.starts_with("NAME"), "{table}");
    for column in ["VALUE", "SOURCE", "DEFAULT", "SENSITIVE", "READ-ONLY"] {
        assert!(header.contains(column), "{header}");
    }
    let line = table
        .lines()
        .find(|l| l.starts_with("retention.ms "))
        .expect("a retention.ms row");
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        cells,
        [
            "retention.ms",
            "12345",
            "DYNAMIC_TOPIC_CONFIG",
            "false",
            "false",
            "false"
        ]
    );
}

#[test]
fn a_broker_dynamic_config_shows_its_source_and_synonyms_and_secrets_stay_masked() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    config_command(
        &env,
        &[
            "--entity-type",
            "brokers",
            "--entity-name",
            "2",
            "--alter",
            "--add-config",
            "log.cleaner.backoff.ms=15001",
        ],
    );
    let backoff = support::wait_until(Duration::from_secs(30), "the dynamic config", || {
        let configs = rows(&env, &["get", "config", "broker", "2", "-o", "json"]);
        let backoff = config(&configs, "log.cleaner.backoff.ms").clone();
        (backoff["value"] == "15001").then_some((backoff, configs))
    });
    let (backoff, configs) = backoff;
    assert_eq!(backoff["source"], "DYNAMIC_BROKER_CONFIG");
    assert_eq!(backoff["is_default"], false);
    let chain: Vec<(&str, &str)> = backoff["synonyms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["source"].as_str().unwrap(),
                s["value"].as_str().unwrap_or("null"),
            )
        })
        .collect();
    assert_eq!(
        chain,
        [
            ("DYNAMIC_BROKER_CONFIG", "15001"),
            ("DEFAULT_CONFIG", "15000")
        ]
    );
    // Asked of broker 2 itself: its static node.id is 2.
    let node_id = config(&configs, "node.id");
    assert_eq!(node_id["value"], "2");
    assert_eq!(node_id["source"], "STATIC_BROKER_CONFIG");
    // The keystore password is in server.properties, and never printed.
    let secret = config(&configs, "ssl.keystore.password");
    assert_eq!(secret["sensitive"], true);
    assert_eq!(secret["value"], Value::Null);
    let table = text(&env, &["get", "config", "broker", "2"]);
    let line = table
        .lines()
        .find(|l| l.starts_with("ssl.keystore.password "))
        .expect("a keystore password row");
    assert!(line.contains("******"), "{line}");
    assert!(!table.contains("kscope-store"), "the secret leaked");

    // Another broker keeps the default: the change was for broker 2 only.
    let other = rows(&env, &["get", "config", "broker", "1", "-o", "json"]);
    assert_eq!(config(&other, "log.cleaner.backoff.ms")["value"], "15000");
}

#[test]
fn configs_of_a_missing_topic_or_broker_are_one_line_and_nothing_is_created() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let missing = unique("inspect-missing");
    let output = kscope(&env, &["get", "config", "topic", &missing]);
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!("kscope: topic '{missing}' does not exist\n")
    );
    let output = kscope(&env, &["get", "config", "broker", "99"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("broker 99"), "{stderr}");
    let listed = env.topic_command(&["--list"]);
    assert!(!listed.lines().any(|l| l == missing), "auto-created");
}

#[test]
fn a_topic_grows_after_producing_and_brokers_report_their_disk() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("inspect-sizes");
    support::create_topic(&env, &topic, "2", &[]);
    let before = rows(&env, &["get", "topics", &topic, "--sizes", "-o", "json"]);
    assert_eq!(before.len(), 1);
    assert_eq!(before[0]["name"], topic.as_str());
    assert_eq!(before[0]["partitions"], 2, "the plain fields stay");
    assert_eq!(before[0]["size_bytes"], 0);
    assert_eq!(before[0]["leader_size_bytes"], 0);

    env.produce_perf(&topic, 500, 100, &["acks=all"]);
    // acks=all: every in-sync replica has the data, so all replicas hold
    // three times what the leaders hold.
    let (all, leaders) = support::wait_until(Duration::from_secs(30), "sizes", || {
        let row = rows(&env, &["get", "topics", &topic, "--sizes", "-o", "json"]).remove(0);
        let all = row["size_bytes"].as_i64()?;
        let leaders = row["leader_size_bytes"].as_i64()?;
        (leaders > 500 * 100 / 2 && all == 3 * leaders).then_some((all, leaders))
    });
    assert!(all > leaders, "{all} {leaders}");

    let brokers = rows(&env, &["get", "brokers", "--sizes", "-o", "json"]);
    assert_eq!(brokers.len(), 3);
    for broker in &brokers {
        assert!(
            broker["host"].is_string(),
            "the plain fields stay: {broker}"
        );
        let used = broker["disk_used_bytes"].as_i64().expect("answered");
        assert!(used >= leaders / 2, "{broker}");
        let dirs = broker["log_dirs"].as_array().expect("log dirs");
        assert_eq!(dirs.len(), 1, "{broker}");
        let id = broker["id"].as_i64().unwrap();
        let path = dirs[0]["path"].as_str().unwrap();
        assert!(path.ends_with(&format!("node-{id}/data")), "{path}");
        assert_eq!(dirs[0]["used_bytes"].as_i64(), Some(used));
        let total = dirs[0]["total_bytes"].as_i64().expect("v4 reports it");
        let usable = dirs[0]["usable_bytes"].as_i64().expect("v4 reports it");
        assert!(0 < usable && usable <= total, "{broker}");
    }
    let table = text(&env, &["get", "topics", &topic, "--sizes"]);
    let cells: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(
        cells,
        [
            topic.as_str(),
            "2",
            "3",
            &all.to_string(),
            &leaders.to_string()
        ]
    );
}

#[test]
fn scram_users_list_alice_and_admin_with_mechanisms_and_never_a_secret() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let users = rows(&env, &["get", "users", "-o", "json"]);
    let listed: Vec<(&str, &str, i64)> = users
        .iter()
        .map(|u| {
            (
                u["user"].as_str().unwrap(),
                u["mechanism"].as_str().unwrap(),
                u["iterations"].as_i64().unwrap(),
            )
        })
        .collect();
    for user in ["admin", "alice"] {
        for mechanism in ["SCRAM-SHA-256", "SCRAM-SHA-512"] {
            assert!(
                listed
                    .iter()
                    .any(|(u, m, i)| *u == user && *m == mechanism && *i >= 4096),
                "{user} {mechanism}: {listed:?}"
            );
        }
    }
    let table = text(&env, &["get", "users"]);
    assert!(!table.contains("secret"), "{table}");
}

#[test]
fn acls_without_an_authorizer_are_an_empty_list_and_one_clear_line() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    // The shared cluster runs no authorizer (scripts/kafka-cluster sets no
    // authorizer.class.name): DescribeAcls answers SECURITY_DISABLED.
    let output = kscope(&env, &["get", "acls", "-o", "json"]);
    support::assert_success(&output, "kscope get acls");
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "[]\n");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no authorizer"), "{stderr}");
}

#[test]
fn the_quorum_matches_kafkas_metadata_quorum_command() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let status = env.script(&[
        "tool",
        "org.apache.kafka.tools.MetadataQuorumCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "describe",
        "--status",
    ]);
    let kafka_leader: i64 = status
        .lines()
        .find_map(|l| l.strip_prefix("LeaderId:"))
        .expect("a LeaderId line")
        .trim()
        .parse()
        .expect("a number");
    let replicas = rows(&env, &["get", "quorum", "-o", "json"]);
    let voters: Vec<i64> = replicas
        .iter()
        .filter(|r| r["role"] != "observer")
        .map(|r| r["node_id"].as_i64().unwrap())
        .collect();
    assert_eq!(
        voters,
        [kafka_leader]
            .into_iter()
            .chain((1..=3).filter(|id| *id != kafka_leader))
            .collect::<Vec<_>>(),
        "the leader first, then the voters: {status}"
    );
    assert_eq!(replicas[0]["role"], "leader");
    assert!(replicas.iter().all(|r| r["leader_id"] == kafka_leader));
    assert!(
        replicas
            .iter()
            .all(|r| r["lag"].as_i64().is_some_and(|l| l >= 0))
    );
    assert!(
        replicas[0]["high_watermark"]
            .as_i64()
            .is_some_and(|hw| hw > 0)
    );
}
