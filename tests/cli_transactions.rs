//! `kscope get transactions` and `kscope get producers` against the real
//! cluster, with a transaction held open by Kafka's own
//! `ProducerPerformance` (transactional, committing only every 10 minutes):
//! the open transaction is listed with its partition, and the partition's
//! producer shows the offset its open transaction starts at.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::time::Duration;

use serde_json::Value;
use support::producers::HeldOpen;

fn json(env: &support::ClusterEnv, args: &[&str]) -> Option<Vec<Value>> {
    let output = support::kscope(env, args);
    if !output.status.success() {
        return None;
    }
    serde_json::from_slice::<Value>(&output.stdout)
        .ok()?
        .as_array()
        .cloned()
}

#[test]
fn an_open_transaction_is_listed_with_its_partition_and_producer() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("txn");
    let id = support::unique("held-open");
    support::create_topic(&env, &topic, "1", &[]);
    let _producer = HeldOpen::start(&env, &topic, &id);
    let transaction = support::wait_until(Duration::from_mins(1), "the open transaction", || {
        json(&env, &["get", "transactions", "-o", "json"])?
            .into_iter()
            .find(|t| t["transactional_id"] == id.as_str())
    });
    assert_eq!(transaction["state"], "Ongoing");
    assert_eq!(
        transaction["partitions"],
        serde_json::json!([{"topic": topic, "partition": 0}])
    );
    assert!(transaction["timeout_ms"].as_i64().is_some_and(|t| t > 0));
    let producer_id = transaction["producer_id"].as_i64().expect("producer id");
    let producer = support::wait_until(Duration::from_secs(30), "its producer", || {
        json(&env, &["get", "producers", &topic, "-p", "0", "-o", "json"])?
            .into_iter()
            .find(|p| p["producer_id"].as_i64() == Some(producer_id))
    });
    assert_eq!(
        producer["txn_start_offset"].as_i64(),
        Some(0),
        "the open transaction starts at the partition's first offset: {producer}"
    );
    let table = support::kscope(&env, &["get", "transactions"]);
    support::assert_success(&table, "kscope get transactions");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains(&id) && text.contains(&format!("{topic}-0")),
        "{text}"
    );
}
