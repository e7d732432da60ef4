//! `kscope describe topic NAME --clients` against the real clusters: a
//! topic of 12 partitions over 3 brokers written by an idempotent producer
//! (Kafka's console producer) and a transactional one (`HeldOpen`), read by
//! a classic group and a KIP-848 consumer group (Kafka's console consumer)
//! — every producer and group shows, the transactional id and the members'
//! client ids included; on the cluster with an authorizer, the principals
//! its ACLs allow and deny; a topic that does not exist is an error and is
//! not created.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::time::Duration;

use serde_json::Value;
use support::ClusterEnv;
use support::consumers::Reading;
use support::producers::HeldOpen;

fn clients_json(env: &ClusterEnv, topic: &str) -> Value {
    let output = support::kscope(
        env,
        &["describe", "topic", topic, "--clients", "-o", "json"],
    );
    support::assert_success(&output, "kscope describe topic --clients");
    serde_json::from_slice(&output.stdout).expect("json")
}

fn group<'a>(d: &'a Value, name: &str) -> Option<&'a Value> {
    d["groups"]["groups"]
        .as_array()?
        .iter()
        .find(|g| g["group"] == name)
}

fn client_ids(group: &Value) -> Vec<String> {
    group["members"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["client_id"].as_str().map(str::to_owned))
        .collect()
}

/// Every field a section must carry: a read time and no error.
fn assert_fresh(d: &Value, section: &str) {
    let s = &d[section];
    assert!(s["read_at_ms"].as_i64().is_some_and(|t| t > 0), "{s}");
    assert!(
        s["read_at"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{s}"
    );
    assert!(s["error"].is_null(), "{section} failed: {s}");
}

/// The idempotent producer wrote many of the 12 partitions; the
/// transactional one shows its id and its open transaction.
fn assert_producers(d: &Value, txn_id: &str) {
    let producers = d["producers"]["producers"].as_array().unwrap();
    let idempotent = producers
        .iter()
        .find(|p| p["transactional_id"].is_null())
        .unwrap();
    let written: Vec<i64> = idempotent["partitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["partition"].as_i64().unwrap())
        .collect();
    assert!(
        written.len() > 3 && written.iter().all(|p| (0..12).contains(p)),
        "200 keys spread over many of the 12 partitions: {written:?}"
    );
    assert!(idempotent["producer_id"].as_i64().unwrap() >= 0);
    assert!(idempotent["last_timestamp_ms"].as_i64().unwrap() > 0);
    let transactional = producers
        .iter()
        .find(|p| p["transactional_id"] == txn_id)
        .unwrap();
    assert_eq!(transactional["transaction_state"], "Ongoing");
}

/// A classic group that stopped after it committed (console consumer with
/// `--max-messages`) still reads the topic: listed Empty, without members.
fn assert_stopped_classic_group_listed(env: &ClusterEnv, topic: &str, live: &str) {
    let stopped = support::unique("classic-stopped");
    env.script(&[
        "tool",
        "org.apache.kafka.tools.consumer.ConsoleConsumer",
        "--bootstrap-server",
        env.bootstrap(),
        "--topic",
        topic,
        "--group",
        &stopped,
        "--from-beginning",
        "--max-messages",
        "50",
        "--timeout-ms",
        "60000",
    ]);
    let d = clients_json(env, topic);
    let g = group(&d, &stopped).unwrap_or_else(|| panic!("{stopped} listed: {d}"));
    assert_eq!(g["state"], "Empty", "{g}");
    assert!(client_ids(g).is_empty(), "{g}");
    assert!(group(&d, live).is_some(), "the live one still listed");
}

#[test]
fn producers_groups_and_their_clients_of_a_twelve_partition_topic() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("clients");
    support::create_topic(&env, &topic, "12", &[]);
    let lines: Vec<String> = (0..200).map(|i| format!("key-{i}\tvalue-{i}")).collect();
    let mut args = support::KEYED.to_vec();
    args.extend(["--producer-property", "enable.idempotence=true"]);
    env.console_produce(&topic, &lines, &args);
    let txn_id = support::unique("txn-writer");
    let _held = HeldOpen::start(&env, &topic, &txn_id);
    let classic = support::unique("classic-reader");
    let kip848 = support::unique("kip848-reader");
    let _classic_reader = Reading::start(&env, &topic, &classic, "classic-client", false);
    let _kip848_reader = Reading::start(&env, &topic, &kip848, "kip848-client", true);

    let d = support::wait_until(
        Duration::from_secs(90),
        "both producers and both groups with their members",
        || {
            let d = clients_json(&env, &topic);
            let producers = d["producers"]["producers"].as_array()?;
            let transactional = producers
                .iter()
                .any(|p| p["transactional_id"] == txn_id.as_str());
            let idempotent = producers.iter().any(|p| p["transactional_id"].is_null());
            let classic_ok = group(&d, &classic)
                .is_some_and(|g| client_ids(g).contains(&"classic-client".to_owned()));
            let kip848_ok = group(&d, &kip848)
                .is_some_and(|g| client_ids(g).contains(&"kip848-client".to_owned()));
            (transactional && idempotent && classic_ok && kip848_ok).then_some(d)
        },
    );
    assert_eq!(d["topic"], topic.as_str());
    assert_eq!(d["partitions"], 12);
    for section in ["producers", "groups", "principals"] {
        assert_fresh(&d, section);
    }
    assert_eq!(
        d["producers"]["failed"].as_array().map(Vec::len),
        Some(0),
        "every partition answered: {}",
        d["producers"]
    );
    assert_producers(&d, &txn_id);
    let kip = group(&d, &kip848).unwrap();
    assert_eq!(kip["type"], "consumer");
    let held: usize = kip["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["partitions"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(held <= 12, "{kip}");
    assert!(
        kip["members"][0]["client_host"]
            .as_str()
            .is_some_and(|h| !h.is_empty())
    );
    assert_eq!(group(&d, &classic).unwrap()["type"], "classic");
    assert_eq!(d["principals"]["authorizer"], false, "{}", d["principals"]);

    assert_stopped_classic_group_listed(&env, &topic, &classic);

    let table = support::kscope(&env, &["describe", "topic", &topic, "--clients"]);
    support::assert_success(&table, "kscope describe topic --clients (table)");
    let text = String::from_utf8_lossy(&table.stdout);
    for part in [
        "PRODUCERS WRITING IT (read ",
        "GROUPS READING IT (read ",
        "PRINCIPALS (ACLs) (read ",
        "no authorizer: every principal may",
        txn_id.as_str(),
        kip848.as_str(),
        classic.as_str(),
        "kip848-client",
    ] {
        assert!(text.contains(part), "{part} missing:\n{text}");
    }
}

#[test]
fn a_topic_that_does_not_exist_is_an_error_and_is_not_created() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("no-such-topic");
    let output = support::kscope(&env, &["describe", "topic", &topic, "--clients"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does not exist"), "{stderr}");
    let listed = support::kscope(&env, &["get", "topics", "-o", "json"]);
    support::assert_success(&listed, "kscope get topics");
    assert!(
        !String::from_utf8_lossy(&listed.stdout).contains(&topic),
        "asking did not create it"
    );
}

#[test]
fn the_principals_allowed_and_denied_on_the_acl_cluster() {
    let Some(env) = support::acl_cluster() else {
        return;
    };
    // The ACLs `scripts/kafka-cluster up --acls` created are on `orders`.
    env.topic_command(&[
        "--create",
        "--if-not-exists",
        "--topic",
        "orders",
        "--partitions",
        "1",
        "--replication-factor",
        "1",
    ]);
    let d = support::wait_until(Duration::from_secs(30), "the topic's clients", || {
        let output = support::kscope(
            &env,
            &["describe", "topic", "orders", "--clients", "-o", "json"],
        );
        output
            .status
            .success()
            .then(|| serde_json::from_slice::<Value>(&output.stdout).expect("json"))
    });
    assert_fresh(&d, "principals");
    assert_eq!(d["principals"]["authorizer"], true);
    let acls: Vec<String> = d["principals"]["acls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            format!(
                "{} {} {} {}",
                a["permission"].as_str().unwrap(),
                a["principal"].as_str().unwrap(),
                a["operation"].as_str().unwrap(),
                a["pattern_type"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        acls,
        [
            "ALLOW User:alice DESCRIBE PREFIXED",
            "ALLOW User:alice READ LITERAL",
            "DENY User:alice WRITE LITERAL",
        ],
        "by principal then operation, the group's ACL left out"
    );
    let table = support::kscope(&env, &["describe", "topic", "orders", "--clients"]);
    support::assert_success(&table, "kscope describe topic orders --clients");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.lines()
            .any(|l| l.contains("User:alice") && l.contains("WRITE") && l.contains("DENY")),
        "{text}"
    );
}
