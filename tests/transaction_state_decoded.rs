//! `kscope consume __transaction_state` against the real cluster: a
//! transaction held open by Kafka's own `ProducerPerformance` comes back
//! from `--transactional-id T -o json` as that id's records, read from the
//! one partition the coordinator keeps it in: the producer id and epoch
//! `get transactions` reports, the state `Ongoing` once the topic's
//! partition joined, and the partition itself; the table shows each
//! record as one readable line.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::time::Duration;

use serde_json::Value;
use support::producers::HeldOpen;
use support::{kscope, unique};

#[test]
fn a_transactional_ids_records_are_its_transaction_as_the_coordinator_wrote_it() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("txn-state");
    let id = unique("txn-decoded");
    support::create_topic(&env, &topic, "1", &[]);
    let _producer = HeldOpen::start(&env, &topic, &id);
    let listed = support::wait_until(Duration::from_mins(1), "the open transaction", || {
        let output = kscope(&env, &["get", "transactions", "-o", "json"]);
        serde_json::from_slice::<Value>(&output.stdout)
            .ok()?
            .as_array()?
            .iter()
            .find(|t| t["transactional_id"] == id.as_str() && t["state"] == "Ongoing")
            .cloned()
    });
    let args = [
        "consume",
        "__transaction_state",
        "--transactional-id",
        id.as_str(),
        "-o",
        "json",
    ];
    let (records, stderr) = support::wait_until(Duration::from_secs(30), "its records", || {
        let output = kscope(&env, &args);
        support::assert_success(&output, "consume __transaction_state");
        let records: Vec<Value> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
            .collect();
        let ongoing = records.iter().any(|r| r["decoded"]["state"] == "Ongoing");
        ongoing.then(|| {
            (
                records,
                String::from_utf8_lossy(&output.stderr).into_owned(),
            )
        })
    });
    assert!(
        stderr.contains(&format!("transactional id '{id}' is in partition")),
        "{stderr}"
    );
    let partition = records[0]["partition"].as_i64().unwrap();
    for record in &records {
        let decoded = &record["decoded"];
        assert_eq!(decoded["type"], "transaction", "{record}");
        assert_eq!(decoded["transactional_id"], id.as_str(), "{record}");
        assert_eq!(record["partition"].as_i64(), Some(partition), "{record}");
        assert_eq!(decoded["producer_id"], listed["producer_id"], "{record}");
        assert!(
            decoded["timeout_ms"].as_i64().is_some_and(|t| t > 0),
            "{record}"
        );
    }
    let ongoing = records
        .iter()
        .map(|r| &r["decoded"])
        .find(|d| d["state"] == "Ongoing")
        .unwrap();
    assert_eq!(
        ongoing["partitions"],
        serde_json::json!([{"topic": topic, "partitions": [0]}]),
        "{ongoing}"
    );
    assert!(ongoing["start_timestamp"].as_i64().is_some_and(|t| t > 0));
    assert_eq!(ongoing["producer_epoch"], listed["producer_epoch"]);

    let table = kscope(&env, &args[..4]);
    support::assert_success(&table, "consume __transaction_state (table)");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        text.contains(&format!("transaction {id} Ongoing producer"))
            && text.contains(&format!("{topic}-0")),
        "{text}"
    );

    // The flag belongs to its topic.
    let wrong = kscope(&env, &["consume", &topic, "--transactional-id", &id]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("--transactional-id reads"),
        "{}",
        String::from_utf8_lossy(&wrong.stderr)
    );
}
