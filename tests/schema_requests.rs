//! Registry requests per session are bounded by the distinct schema ids met:
//! each id's schema and its subject/version lookup once, and a referenced
//! schema once however many ids reference it. Against a LABELLED FAKE
//! registry (a thread answering the Confluent API from fixed texts and
//! counting every request by path): counting needs to see every request,
//! which the real registry does not report.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use kscope::schema::{Decoder, Decoding, RegistryConfig};

const COMMON: &str = "syntax = \"proto3\";\npackage common;\nmessage Money { string currency = 1; int64 units = 2; }\n";
const ORDER: &str = "syntax = \"proto3\";\npackage shop;\nimport \"common.proto\";\nmessage Order { string id = 1; common.Money total = 2; }\n";
const INVOICE: &str = "syntax = \"proto3\";\npackage billing;\nimport \"common.proto\";\nmessage Invoice { common.Money due = 1; string number = 2; }\n";

/// Requests seen, by path.
type Seen = Arc<Mutex<BTreeMap<String, usize>>>;

/// The body the fake answers `path` with, if it knows it.
fn answer(path: &str) -> Option<String> {
    let reference = r#"[{"name":"common.proto","subject":"common","version":1}]"#;
    let schema = |text: &str| {
        format!(
            r#"{{"schema":{},"schemaType":"PROTOBUF","references":{reference}}}"#,
            serde_json::to_string(text).unwrap_or_default()
        )
    };
    match path {
        "/schemas/ids/1" => Some(schema(ORDER)),
        "/schemas/ids/2" => Some(schema(INVOICE)),
        "/schemas/ids/1/versions" => Some(r#"[{"subject":"orders-value","version":1}]"#.to_owned()),
        "/schemas/ids/2/versions" => {
            Some(r#"[{"subject":"invoices-value","version":1}]"#.to_owned())
        }
        "/subjects/common/versions/1" => Some(format!(
            r#"{{"subject":"common","version":1,"id":3,"schema":{},"schemaType":"PROTOBUF"}}"#,
            serde_json::to_string(COMMON).unwrap_or_default()
        )),
        _ => None,
    }
}

/// Start the fake; returns its URL and what it has seen.
fn fake_registry() -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let seen: Seen = Arc::default();
    let counted = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut request = String::new();
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or("").to_owned();
            *counted
                .lock()
                .expect("count")
                .entry(path.clone())
                .or_insert(0) += 1;
            let (status, body) = match answer(&path) {
                Some(body) => ("200 OK", body),
                None => (
                    "404 Not Found",
                    r#"{"error_code":40401,"message":"not found"}"#.to_owned(),
                ),
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, seen)
}

/// Invoice { due: Money { currency: "EUR", units: 5 }, number: "i-1" },
/// Confluent-framed with schema `id` and message index [0].
fn invoice(id: u32) -> Vec<u8> {
    let mut out = vec![0];
    out.extend_from_slice(&id.to_be_bytes());
    out.push(0);
    out.extend_from_slice(&[0x0a, 0x07, 0x0a, 0x03, b'E', b'U', b'R', 0x10, 0x05]);
    out.extend_from_slice(&[0x12, 0x03, b'i', b'-', b'1']);
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reference_shared_by_two_ids_is_fetched_once_and_each_id_once() {
    let (url, seen) = fake_registry();
    let decoder = Decoder::new(&RegistryConfig::new(url)).expect("decoder");
    decoder
        .schema(1)
        .await
        .expect("schema 1 compiles with its reference");
    decoder
        .schema(2)
        .await
        .expect("schema 2 compiles with the same reference");
    match decoder.decode(&invoice(2)).await {
        Decoding::Decoded(record) => {
            assert_eq!(record.value["due"]["currency"], "EUR");
            assert_eq!(record.value["number"], "i-1");
        }
        other => panic!("schema 2 decodes: {other:?}"),
    }
    // Again, and once more through the cache only: nothing new is asked.
    for _ in 0..3 {
        assert!(matches!(
            decoder.decode_cached(&invoice(2)),
            Some(Decoding::Decoded(_))
        ));
        decoder.schema(1).await.expect("cached");
    }
    let seen = seen.lock().expect("seen").clone();
    let expected: BTreeMap<String, usize> = [
        "/schemas/ids/1",
        "/schemas/ids/1/versions",
        "/schemas/ids/2",
        "/schemas/ids/2/versions",
        "/subjects/common/versions/1",
    ]
    .into_iter()
    .map(|path| (path.to_owned(), 1))
    .collect();
    assert_eq!(seen, expected, "each path once");
}
