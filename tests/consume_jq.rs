//! `kscope consume --filter/--project` (jq expressions, issue 29) against the
//! real cluster: JSON values written by Kafka's console producer (the Java
//! client) are filtered on `.value.status` and projected on `.value.id`; Avro
//! values written by the Python client's serializer through the registry
//! are filtered and projected on their decoded fields; a broken expression
//! is a usage error (exit 2) naming the column under a caret.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod schema_fixture;
mod support;

use serde_json::Value;
use support::{ClusterEnv, kscope, unique};

/// Kafka's console producer writing `lines` as values to partition-less
/// `topic` (the Java client spreads them).
fn produce_with_java(env: &ClusterEnv, topic: &str, lines: &[String]) {
    env.console_produce(topic, lines, &[]);
}

fn stdout_lines(output: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn filter_keeps_exactly_the_failed_records_and_project_prints_the_ids() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("jq");
    env.create_topic_with_kafka(&topic, &["--partitions", "3", "--replication-factor", "1"]);
    let statuses = ["OK", "FAILED", "PENDING", "FAILED", "OK"];
    let mut lines: Vec<String> = (0..200)
        .map(|i| {
            let status = statuses[i % statuses.len()];
            format!(r#"{{"id":{i},"status":"{status}","region":"eu"}}"#)
        })
        .collect();
    // Not JSON: the expression fails on it, and it is skipped.
    lines.push("plain text, not json".to_owned());
    produce_with_java(&env, &topic, &lines);
    let failed: Vec<i64> = (0..200_i64)
        .filter(|&i| statuses[usize::try_from(i).unwrap() % statuses.len()] == "FAILED")
        .collect();

    let output = kscope(
        &env,
        &[
            "consume",
            &topic,
            "--filter",
            r#".value.status == "FAILED""#,
            "-o",
            "json",
        ],
    );
    support::assert_success(&output, "consume --filter");
    let mut ids: Vec<i64> = stdout_lines(&output)
        .iter()
        .map(|line| {
            let record: Value = serde_json::from_str(line).expect("one object a line");
            // The record is printed as -o json prints it: the value as text.
            let value: Value =
                serde_json::from_str(record["value"].as_str().expect("text")).expect("json");
            assert_eq!(value["status"], "FAILED", "{line}");
            value["id"].as_i64().expect("id")
        })
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, failed);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("failed on 1 record"),
        "the non-JSON record is reported: {stderr}"
    );

    let output = kscope(
        &env,
        &[
            "consume",
            &topic,
            "--filter",
            r#".value.status? == "FAILED""#,
            "--project",
            ".value.id",
        ],
    );
    support::assert_success(&output, "consume --filter --project");
    let mut projected: Vec<i64> = stdout_lines(&output)
        .iter()
        .map(|line| line.parse().expect("one number a line"))
        .collect();
    projected.sort_unstable();
    assert_eq!(projected, failed);

    // -n counts the records that passed.
    let output = kscope(
        &env,
        &[
            "consume",
            &topic,
            "--filter",
            r#".value.status? == "FAILED""#,
            "--project",
            "{id: .value.id, p: .partition}",
            "-n",
            "3",
        ],
    );
    support::assert_success(&output, "consume -n 3");
    let rows = stdout_lines(&output);
    assert_eq!(rows.len(), 3, "{rows:?}");
    for row in rows {
        let row: Value = serde_json::from_str(&row).expect("json");
        assert!(row["p"].is_i64(), "{row}");
        assert!(failed.contains(&row["id"].as_i64().unwrap()), "{row}");
    }
}

#[test]
fn a_broken_expression_is_a_usage_error_with_the_column() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let output = kscope(
        &env,
        &["consume", "no-such-topic", "--filter", ".value.status =="],
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--filter: expected term, found the end at column 17"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\n  .value.status ==\n                  ^\n"),
        "{stderr}"
    );
    let output = kscope(&env, &["consume", "t", "--project", ".a | nope"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--project: undefined filter nope/0 at column 6"),
        "{stderr}"
    );
}

#[test]
fn avro_values_are_filtered_on_their_decoded_fields() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = schema_fixture::registry(&env);
    let topic = unique("jq-avro");
    env.create_topic_with_kafka(&topic, &["--partitions", "1", "--replication-factor", "1"]);
    // p-0 CARD, p-1 CASH, p-2 CASH.
    schema_fixture::fixture(&env, &registry, &topic, &["avro"]);
    let url = format!("schema.registry.url={registry}");
    let output = kscope(
        &env,
        &[
            "-X",
            &url,
            "consume",
            &topic,
            "--filter",
            r#".value.kind == "CASH" and .value_encoding == "avro" and (.value_schema_id | type) == "number""#,
            "--project",
            ".value.id, .value.payer.name",
        ],
    );
    support::assert_success(&output, "consume an Avro topic with --filter");
    assert_eq!(
        stdout_lines(&output),
        [r#""p-1""#, r#""ann1""#, r#""p-2""#, r#""ann2""#]
    );
}
