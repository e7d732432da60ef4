//! A record as one JSON object: the fields `kscope consume -o json` prints
//! and the Messages screen's `:save` writes (one serializer for both).
//! Byte fields are text when they are UTF-8, else base64, and say which.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use super::record::Record;

/// A byte field as JSON: its text and `utf8`, or base64 and `base64`.
fn encoded(bytes: Option<&[u8]>) -> (Value, &'static str) {
    match bytes {
        None => (Value::Null, "utf8"),
        Some(b) => match std::str::from_utf8(b) {
            Ok(text) => (Value::from(text), "utf8"),
            Err(_) => (Value::from(BASE64.encode(b)), "base64"),
        },
    }
}

/// One record as the JSON object `-o json` prints.
pub fn json_record(topic: &str, record: &Record) -> Value {
    let (key, key_encoding) = encoded(record.key.as_deref());
    let (value, value_encoding) = encoded(record.value.as_deref());
    let headers: Vec<Value> = record
        .headers
        .iter()
        .map(|h| {
            let (value, value_encoding) = encoded(h.value.as_deref());
            json!({
                "key": String::from_utf8_lossy(&h.key),
                "value": value,
                "value_encoding": value_encoding,
            })
        })
        .collect();
    json!({
        "topic": topic,
        "partition": record.partition,
        "offset": record.offset,
        "leader_epoch": record.leader_epoch,
        "timestamp": record.timestamp,
        "timestamp_type": record.timestamp_type.name(),
        "key": key,
        "key_encoding": key_encoding,
        "value": value,
        "value_encoding": value_encoding,
        "headers": headers,
        "size": record.size,
        "codec": record.codec.name(),
    })
}
