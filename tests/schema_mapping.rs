//! Values without the Confluent wire prefix, decoded by the config's
//! per-topic mapping (`[[contexts.NAME.topic_schemas]]`): raw Avro through a
//! local `.avsc`, raw Protobuf through a local `.proto` and a message name,
//! against the real cluster with `kscope consume -o json`; a topic no
//! mapping matches keeps its bytes.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod schema_fixture;
mod support;

use std::process::Command;

use serde_json::Value;

fn consume(config: &std::path::Path, topic: &str) -> Vec<Value> {
    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .arg("--config")
        .arg(config)
        .args(["--context", "mapped", "consume", topic, "-o", "json"])
        .output()
        .expect("run kscope");
    support::assert_success(&output, &format!("kscope consume {topic}"));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one json object per line"))
        .collect()
}

#[test]
fn raw_avro_and_protobuf_values_decode_through_local_schema_files() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = schema_fixture::registry(&env);
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("order.avsc"),
        r#"{"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"s","type":"string"}]}"#,
    )
    .expect("write avsc");
    std::fs::write(
        dir.path().join("click.proto"),
        "syntax = \"proto3\";\npackage web;\nmessage Click { string url = 1; }\n",
    )
    .expect("write proto");
    let orders = support::unique("map-orders");
    let clicks = support::unique("map-clicks");
    let plain = support::unique("map-plain");
    let servers: Vec<String> = env
        .bootstrap_list()
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect();
    // Relative files are read from the config file's directory.
    let config = format!(
        "[contexts.mapped]\nbootstrap_servers = [{}]\n\n\
         [[contexts.mapped.topic_schemas]]\ntopic = \"^{orders}$\"\navro_file = \"order.avsc\"\n\n\
         [[contexts.mapped.topic_schemas]]\ntopic = \"^{clicks}\"\nproto_file = \"click.proto\"\nmessage = \"web.Click\"\n",
        servers.join(", ")
    );
    let config_path = dir.path().join("config.toml");
    std::fs::write(&config_path, config).expect("write config");
    for topic in [&orders, &clicks, &plain] {
        support::create_topic(&env, topic, "1", &[]);
    }
    // Order { id: 21, s: "hi" }; Click { url: "/x" }.
    schema_fixture::fixture(&env, &registry, &orders, &["raw", "2a046869"]);
    schema_fixture::fixture(&env, &registry, &clicks, &["raw", "0a022f78"]);
    schema_fixture::fixture(&env, &registry, &plain, &["raw", "0a022f78"]);

    let order = consume(&config_path, &orders);
    assert_eq!(order.len(), 1, "{order:#?}");
    assert_eq!(order[0]["value"], serde_json::json!({"id": 21, "s": "hi"}));
    assert_eq!(order[0]["value_encoding"], "avro");
    assert!(order[0].get("value_schema_id").is_none(), "{:#}", order[0]);

    let click = consume(&config_path, &clicks);
    assert_eq!(click[0]["value"], serde_json::json!({"url": "/x"}));
    assert_eq!(click[0]["value_encoding"], "protobuf");

    let unmapped = consume(&config_path, &plain);
    assert_ne!(
        unmapped[0]["value_encoding"], "protobuf",
        "{:#}",
        unmapped[0]
    );
}
