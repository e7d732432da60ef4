//! Schema-registry decoding against the real cluster and the real registry
//! (Apicurio Registry 3.0.9's Confluent API, started by `scripts/kafka-cluster
//! up --registry`): records produced by the Python client's own Avro,
//! Protobuf and JSON Schema serializers decode to the exact values produced,
//! including a nested Protobuf message index and a Protobuf reference
//! (Apicurio serves references); an unknown schema id is marked with the
//! bytes kept; the registry going down mid-session keeps cached ids decoding
//! and marks new ones; a registry refusing basic auth (a labelled fake: 401
//! for everything) gives a clear error without the password.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod schema_fixture;
mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use kscope::schema::{Decoder, Decoding, RegistryConfig};
use schema_fixture::{consume, fixture, registry};
use serde_json::Value;
use support::{kscope, unique};

fn produced_and_decoded(format: &str) {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = registry(&env);
    let topic = unique(&format!("sr-{format}"));
    support::create_topic(&env, &topic, "1", &[]);
    let expected: Vec<Value> = fixture(&env, &registry, &topic, &[format])
        .iter()
        .map(|line| serde_json::from_str(line).expect("the fixture prints JSON"))
        .collect();
    let records = consume(&env, &registry, &topic);
    assert_eq!(records.len(), expected.len(), "{records:#?}");
    for (record, want) in records.iter().zip(&expected) {
        assert_eq!(&record["value"], want, "{record:#}");
        assert_eq!(record["value_encoding"], format, "{record:#}");
        assert!(record["value_schema_id"].as_u64().is_some(), "{record:#}");
        assert!(record.get("value_schema_error").is_none(), "{record:#}");
    }
}

#[test]
fn avro_from_the_python_serializer_decodes_to_the_exact_values_with_logical_types() {
    produced_and_decoded("avro");
}

#[test]
fn protobuf_with_a_reference_and_nested_message_indexes_decodes_exactly() {
    // Order (index [0]) imports common/money.proto (a registered reference);
    // Order.Line is index [0, 0] and Refund [1].
    produced_and_decoded("protobuf");
}

#[test]
fn json_schema_values_are_their_json_with_the_schema_id() {
    produced_and_decoded("jsonschema");
}

#[test]
fn an_unknown_schema_id_is_marked_and_the_bytes_are_kept() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = registry(&env);
    let topic = unique("sr-unknown");
    support::create_topic(&env, &topic, "1", &[]);
    // Schema id 0x7fff0001: no registry here has handed out that many.
    fixture(&env, &registry, &topic, &["raw", "007fff00010203ff"]);
    let records = consume(&env, &registry, &topic);
    assert_eq!(records.len(), 1, "{records:#?}");
    let record = &records[0];
    assert_eq!(record["value_encoding"], "base64");
    assert_eq!(record["value"], "AH//AAECA/8=", "the bytes, unchanged");
    assert_eq!(record["value_schema_id"], 0x7fff_0001_u32);
    let error = record["value_schema_error"].as_str().unwrap();
    assert!(error.contains("2147418113 not found"), "{error}");
}

#[test]
fn get_schemas_lists_the_subjects_the_serializers_registered() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let registry = registry(&env);
    let topic = unique("sr-list");
    support::create_topic(&env, &topic, "1", &[]);
    fixture(&env, &registry, &topic, &["jsonschema"]);
    let url = format!("schema.registry.url={registry}");
    let output = kscope(&env, &["-X", &url, "get", "schemas", "-o", "json"]);
    support::assert_success(&output, "kscope get schemas");
    let subjects: Vec<Value> = serde_json::from_slice(&output.stdout).expect("a JSON array");
    let ours = subjects
        .iter()
        .find(|s| s["subject"] == format!("{topic}-value"))
        .unwrap_or_else(|| panic!("no subject {topic}-value in {subjects:#?}"));
    assert_eq!(ours["schema_type"], "jsonschema");
    assert_eq!(ours["version"], 1);
    assert_eq!(ours["versions"], 1);
}

/// A registry of the test's own (port 31501), stopped on drop.
struct OwnRegistry(String);

impl OwnRegistry {
    fn start(name: &str, port: &str) -> Self {
        let _ = support::script(&["registry", "down", "--name", name]);
        let output = support::script(&["registry", "up", "--name", name, "--registry-port", port]);
        support::assert_success(&output, "scripts/kafka-cluster registry up");
        Self(name.to_owned())
    }

    fn stop(&self) {
        let output = support::script(&["registry", "down", "--name", &self.0, "KILL"]);
        support::assert_success(&output, "scripts/kafka-cluster registry down");
    }
}

impl Drop for OwnRegistry {
    fn drop(&mut self) {
        let _ = support::script(&["registry", "down", "--name", &self.0, "KILL"]);
    }
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_registry_going_down_keeps_cached_ids_decoding_and_marks_new_ones() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let own = OwnRegistry::start("sr-down", "31501");
    let url = "http://127.0.0.1:31501/apis/ccompat/v7";
    // Two values of two schemas, serialized (and registered) by the Python client.
    let lines = fixture(&env, url, "down", &["hex"]);
    assert_eq!(lines.len(), 4, "{lines:?}");
    let (a, a_json) = (
        hex(&lines[0]),
        serde_json::from_str::<Value>(&lines[1]).unwrap(),
    );
    let (b, _) = (hex(&lines[2]), &lines[3]);
    let decoder = Decoder::new(&RegistryConfig::new(url)).expect("decoder");
    let Decoding::Decoded(first) = decoder.decode(&a).await else {
        panic!("schema a decodes while the registry is up");
    };
    assert_eq!(first.value, a_json);
    assert_eq!(first.subject.as_deref(), Some("down-a-value"));
    own.stop();
    let Decoding::Decoded(again) = decoder.decode(&a).await else {
        panic!("schema a is cached: it decodes with the registry down");
    };
    assert_eq!(again.value, a_json);
    match decoder.decode(&b).await {
        Decoding::Failed { reason, .. } => {
            assert!(reason.contains("unreachable"), "{reason}");
        }
        other => panic!("schema b was never fetched, so it cannot decode now: {other:?}"),
    }
}

/// A labelled fake registry for unit-level auth checks: answers every request
/// with 401 and the Confluent error body. Returns its URL.
fn fake_registry_refusing_everyone() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming().take(8) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let body = r#"{"error_code":40101,"message":"Unauthorized"}"#;
            let _ = write!(
                stream,
                "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    url
}

#[test]
fn a_refused_password_is_a_clear_error_that_never_shows_the_password() {
    let url = fake_registry_refusing_everyone();
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[contexts.x]\nbootstrap_servers = [\"127.0.0.1:1\"]\n[contexts.x.schema_registry]\nurl = \"{url}\"\nusername = \"alice\"\npassword = \"${{env:SR_TEST_PASSWORD}}\"\n"
        ),
    )
    .expect("write config");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_kscope"))
        .arg("--config")
        .arg(&config)
        .args(["get", "schemas"])
        .env("SR_TEST_PASSWORD", "wrong-pw-5150")
        .output()
        .expect("run kscope");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("refused user 'alice' (HTTP 401)"),
        "{stderr}"
    );
    assert!(!stderr.contains("wrong-pw-5150"), "{stderr}");
    assert!(!String::from_utf8_lossy(&output.stdout).contains("wrong-pw-5150"));
}
