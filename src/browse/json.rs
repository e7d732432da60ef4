//! A record as one JSON object: the fields `kscope consume -o json` prints
//! and the Messages screen's `:save` writes (one serializer for both).
//! Byte fields are text when they are UTF-8, else base64, and say which.
//!
//! [`RecordJson::write`] writes straight into a byte buffer, field by field,
//! with no map built per record and strings escaped in one pass (`consume`
//! prints millions of these; serde's writer spends most of its time in small
//! writes between escapes). The output is exactly `serde_json`'s compact form.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::Value;

use super::json_text::{number, string};
use super::record::{Header, Record};

/// How a key or value is written: its bytes as they are, or what a schema
/// made of them (the layer above decodes; this only writes).
#[derive(Debug, Clone, Copy)]
pub enum Field<'a> {
    /// The record's bytes: text when UTF-8, else base64.
    Bytes,
    /// Decoded with a schema: the JSON, the format's name and the registry's
    /// schema id (`None` for a local schema file, which has none).
    Decoded {
        /// The decoded value.
        json: &'a Value,
        /// `avro`, `protobuf` or `jsonschema`.
        encoding: &'a str,
        /// The registry id; left out when `None`.
        schema_id: Option<u32>,
    },
    /// Framed but not decodable: the bytes as base64, the id and why.
    Failed {
        /// The id from the wire prefix.
        schema_id: u32,
        /// Why it could not be decoded.
        reason: &'a str,
    },
}

/// One record as the object `-o json` prints: `topic`, `partition`,
/// `offset`, `leader_epoch`, `timestamp`, `timestamp_type`, `key`,
/// `key_encoding`, `value`, `value_encoding`, `headers`, `size`, `codec`,
/// then, for a field a schema decoded or failed, `FIELD_schema_id` and
/// `FIELD_schema_error` (key first), and for `__consumer_offsets` the
/// record `decoded`.
#[derive(Debug, Clone, Copy)]
pub struct RecordJson<'a> {
    /// The topic's name.
    pub topic: &'a str,
    pub record: &'a Record,
    /// How its key is written.
    pub key: Field<'a>,
    /// How its value is written.
    pub value: Field<'a>,
    /// A record of a topic Kafka keeps for itself (`__consumer_offsets`),
    /// decoded: written last as `decoded` (left out when `None`).
    pub decoded: Option<&'a Result<super::internal::Decoded, String>>,
}

impl<'a> RecordJson<'a> {
    /// The record with its key and value as bytes.
    pub fn plain(topic: &'a str, record: &'a Record) -> RecordJson<'a> {
        RecordJson {
            topic,
            record,
            key: Field::Bytes,
            value: Field::Bytes,
            decoded: None,
        }
    }
}

/// One record as the JSON object `-o json` prints (for callers that want a
/// [`Value`]; printing goes through [`RecordJson::write`] directly).
pub fn json_record(topic: &str, record: &Record) -> Value {
    let mut line = Vec::new();
    RecordJson::plain(topic, record).write(&mut line);
    serde_json::from_slice(&line).unwrap_or(Value::Null)
}

impl RecordJson<'_> {
    /// Append the record's JSON object (no newline) to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        let record = self.record;
        out.extend_from_slice(b"{\"topic\":");
        string(out, self.topic.as_bytes());
        out.extend_from_slice(b",\"partition\":");
        number(out, record.partition);
        out.extend_from_slice(b",\"offset\":");
        number(out, record.offset);
        out.extend_from_slice(b",\"leader_epoch\":");
        number(out, record.leader_epoch);
        out.extend_from_slice(b",\"timestamp\":");
        number(out, record.timestamp);
        out.extend_from_slice(b",\"timestamp_type\":\"");
        out.extend_from_slice(record.timestamp_type.name().as_bytes());
        out.extend_from_slice(b"\",\"key\":");
        field(out, "key", record.key.as_deref(), &self.key);
        out.extend_from_slice(b",\"value\":");
        field(out, "value", record.value.as_deref(), &self.value);
        out.extend_from_slice(b",\"headers\":[");
        for (n, header) in record.headers.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            header_object(out, header);
        }
        out.extend_from_slice(b"],\"size\":");
        number(out, record.size);
        out.extend_from_slice(b",\"codec\":\"");
        out.extend_from_slice(record.codec.name().as_bytes());
        out.push(b'"');
        schema_entries(out, "key", &self.key);
        schema_entries(out, "value", &self.value);
        if let Some(decoded) = self.decoded {
            out.extend_from_slice(b",\"decoded\":");
            super::internal::write_json(decoded, out);
        }
        out.push(b'}');
    }
}

/// A byte field's value, then `,"NAME_encoding":"…"`; `bytes` is `None` for
/// a null key or value.
fn field(out: &mut Vec<u8>, name: &str, bytes: Option<&[u8]>, how: &Field<'_>) {
    let encoding = match how {
        Field::Bytes => text_or_base64(out, bytes),
        Field::Decoded { json, encoding, .. } => {
            // Writing to a Vec cannot fail, and a Value always serialises.
            let _ = serde_json::to_writer(&mut *out, json);
            encoding
        }
        Field::Failed { .. } => {
            string(out, BASE64.encode(bytes.unwrap_or_default()).as_bytes());
            "base64"
        }
    };
    out.extend_from_slice(b",\"");
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"_encoding\":");
    string(out, encoding.as_bytes());
}

/// Bytes as a JSON string (the text when UTF-8, else base64) or `null`;
/// returns the encoding's name.
fn text_or_base64(out: &mut Vec<u8>, bytes: Option<&[u8]>) -> &'static str {
    match bytes {
        None => {
            out.extend_from_slice(b"null");
            "utf8"
        }
        Some(b) if std::str::from_utf8(b).is_ok() => {
            string(out, b);
            "utf8"
        }
        Some(b) => {
            string(out, BASE64.encode(b).as_bytes());
            "base64"
        }
    }
}

/// The trailing `,"NAME_schema_id":N` and `,"NAME_schema_error":"…"` of a
/// field a schema decoded or failed.
fn schema_entries(out: &mut Vec<u8>, name: &str, how: &Field<'_>) {
    let (id, error) = match how {
        Field::Bytes
        | Field::Decoded {
            schema_id: None, ..
        } => return,
        Field::Decoded {
            schema_id: Some(id),
            ..
        } => (*id, None),
        Field::Failed { schema_id, reason } => (*schema_id, Some(reason)),
    };
    out.extend_from_slice(b",\"");
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"_schema_id\":");
    number(out, id);
    if let Some(reason) = error {
        out.extend_from_slice(b",\"");
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"_schema_error\":");
        string(out, reason.as_bytes());
    }
}

/// A header as `{"key":…,"value":…,"value_encoding":…}` (an invalid UTF-8
/// key with replacement characters).
fn header_object(out: &mut Vec<u8>, header: &Header) {
    out.extend_from_slice(b"{\"key\":");
    string(out, String::from_utf8_lossy(&header.key).as_bytes());
    out.extend_from_slice(b",\"value\":");
    let encoding = text_or_base64(out, header.value.as_deref());
    out.extend_from_slice(b",\"value_encoding\":");
    string(out, encoding.as_bytes());
    out.push(b'}');
}
