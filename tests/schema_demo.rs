//! The demo's schema traffic against the real cluster and the real registry:
//! `DemoTraffic schemas PREFIX` (scripts/demo-traffic/DemoTraffic.java, run
//! from source on Kafka's classpath, the same code `scripts/demo` seeds with)
//! registers an Avro, a Protobuf and a JSON Schema subject, frames values
//! with their ids by hand, and `kscope consume -o json` decodes every one of
//! them to the values the traffic wrote.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod schema_fixture;
mod support;

use std::collections::BTreeSet;

use schema_fixture::{consume, demo_schemas, registry};
use serde_json::{Value, json};
use support::ClusterEnv;

/// How many records `DemoTraffic schemas` writes to each topic.
const RECORDS: usize = 50;

/// Every record of `topic` decoded as `encoding`; the schema id they carry
/// and the value of the record keyed `key`.
fn decoded(
    env: &ClusterEnv,
    registry: &str,
    topic: &str,
    encoding: &str,
    key: &str,
) -> (u64, Value) {
    let records = consume(env, registry, topic);
    assert_eq!(records.len(), RECORDS, "{topic}: {records:#?}");
    let ids: BTreeSet<u64> = records
        .iter()
        .map(|record| {
            assert_eq!(record["value_encoding"], encoding, "{record:#}");
            assert!(record.get("value_schema_error").is_none(), "{record:#}");
            record["value_schema_id"]
                .as_u64()
                .unwrap_or_else(|| panic!("no schema id: {record:#}"))
        })
        .collect();
    assert_eq!(
        ids.len(),
        1,
        "{topic}: one schema for all records, got {ids:?}"
    );
    let value = records
        .iter()
        .find(|record| record["key"] == key)
        .unwrap_or_else(|| panic!("{topic}: no record keyed {key}"))["value"]
        .clone();
    (ids.into_iter().next().expect("one id"), value)
}

#[test]
fn the_demo_schema_traffic_decodes_as_avro_protobuf_and_json_schema() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = registry(&env);
    let prefix = demo_schemas(&env, &registry);

    let (avro_id, avro) = decoded(
        &env,
        &registry,
        &format!("{prefix}orders-avro"),
        "avro",
        "order-9",
    );
    assert_eq!(
        avro,
        json!({
            "id": 9,
            "order_id": "00000000-0000-5eed-0000-000000000009",
            "customer": "customer-9",
            "amount": 3.33,
            "status": "PAID",
            "placed_at": "2026-01-01T00:09:00Z",
            "coupon": "SPRING9",
        })
    );
    let (protobuf_id, protobuf) = decoded(
        &env,
        &registry,
        &format!("{prefix}payments-protobuf"),
        "protobuf",
        "payment-9",
    );
    assert_eq!(
        protobuf,
        json!({
            "id": "payment-9",
            "order_id": "00000000-0000-5eed-0000-000000000009",
            "amount_cents": 1333,
            "currency": "EUR",
            "method": "CARD",
            "captured": false,
        })
    );
    let (json_id, user) = decoded(
        &env,
        &registry,
        &format!("{prefix}users-jsonschema"),
        "jsonschema",
        "user-9",
    );
    assert_eq!(
        user,
        json!({
            "id": 9,
            "name": "User 9",
            "email": "user9@example.com",
            "plan": "free",
            "active": true,
        })
    );
    let ids = BTreeSet::from([avro_id, protobuf_id, json_id]);
    assert_eq!(ids.len(), 3, "three subjects, three schema ids: {ids:?}");
}
