//! A record as jq's input value: the fields `-o json` writes, in its
//! order, a JSON key or value parsed (strict JSON by `jq_read`, jaq's own
//! reader for the rest), and the way back from jaq's values to JSON text.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use bytes::Bytes;
use jaq_json::{Map, Num, Val};
use serde_json::Value;

use super::jq_read::{self, Read};
use super::json::{Field, RecordJson};
use super::record::Header;

/// A record as the jq input: the fields of `-o json` in its order, a JSON
/// key or value parsed. [`with_record_val`] builds the same value faster
/// when records come one after another.
pub fn record_val(json: &RecordJson<'_>) -> Val {
    let mut map = sized_map(18);
    record_entries(json, |name, entry| {
        map.insert(name_val(name), entry.into_val());
    });
    Val::obj(map)
}

/// The value of one of a record's entries, as [`record_entries`] gives it:
/// a text known to repeat from record to record is left unmade, so that an
/// object refilled in place can keep the one it holds.
pub(super) enum Entry<'a> {
    /// A name known at compile time (`CREATE_TIME`, `utf8`, `none`).
    Name(&'static str),
    /// A text (the topic's name).
    Text(&'a str),
    /// Any other value.
    Val(Val),
}

impl Entry<'_> {
    pub(super) fn into_val(self) -> Val {
        match self {
            Entry::Name(name) => name_val(name),
            Entry::Text(s) => text(s),
            Entry::Val(value) => value,
        }
    }

    /// The text of a name or text entry.
    pub(super) fn text(&self) -> Option<&str> {
        match self {
            Entry::Name(s) | Entry::Text(s) => Some(s),
            Entry::Val(_) => None,
        }
    }
}

/// Each entry of `json`'s jq input, in the order `-o json` prints them.
pub(super) fn record_entries(json: &RecordJson<'_>, mut put: impl FnMut(&'static str, Entry<'_>)) {
    let record = json.record;
    let number = |n: i64| Entry::Val(int(n));
    put("topic", Entry::Text(json.topic));
    put("partition", number(record.partition.into()));
    put("offset", number(record.offset));
    put("leader_epoch", number(record.leader_epoch.into()));
    put("timestamp", number(record.timestamp));
    put("timestamp_type", Entry::Name(record.timestamp_type.name()));
    let (key, key_encoding) = field(record.key.as_ref(), &json.key);
    put("key", Entry::Val(key));
    put("key_encoding", Entry::Name(key_encoding));
    let (value, value_encoding) = field(record.value.as_ref(), &json.value);
    put("value", Entry::Val(value));
    put("value_encoding", Entry::Name(value_encoding));
    put(
        "headers",
        Entry::Val(record.headers.iter().map(header).collect()),
    );
    put(
        "size",
        number(i64::try_from(record.size).unwrap_or(i64::MAX)),
    );
    put("codec", Entry::Name(record.codec.name()));
    let names = [
        (&json.key, "key_schema_id", "key_schema_error"),
        (&json.value, "value_schema_id", "value_schema_error"),
    ];
    for (how, id_name, error_name) in names {
        match how {
            Field::Decoded {
                schema_id: Some(id),
                ..
            } => put(id_name, number((*id).into())),
            Field::Failed { schema_id, reason } => {
                put(id_name, number((*schema_id).into()));
                put(error_name, Entry::Text(reason));
            }
            _ => {}
        }
    }
}

/// An empty object with room for `n` entries (no regrowth while filled).
fn sized_map(n: usize) -> Map {
    let mut map = Map::default();
    map.reserve(n);
    map
}

/// A name known at compile time as a jq string (its bytes not copied).
fn name_val(name: &'static str) -> Val {
    Val::utf8_str(Bytes::from_static(name.as_bytes()))
}

/// A key or value and its encoding's name.
fn field(bytes: Option<&Bytes>, how: &Field<'_>) -> (Val, &'static str) {
    match how {
        Field::Bytes => bytes_val(bytes, true),
        Field::Decoded { json, encoding, .. } => (from_json(json), static_encoding(encoding)),
        Field::Failed { .. } => (
            text(&BASE64.encode(bytes.map_or(&[][..], |b| &b[..]))),
            "base64",
        ),
    }
}

fn static_encoding(name: &str) -> &'static str {
    match name {
        "avro" => "avro",
        "protobuf" => "protobuf",
        "jsonschema" => "jsonschema",
        _ => "decoded",
    }
}

/// Bytes as `null`, parsed JSON (when `parse` and they are JSON), text or
/// base64. Text is a slice of `bytes` (not copied).
fn bytes_val(bytes: Option<&Bytes>, parse: bool) -> (Val, &'static str) {
    match bytes {
        None => (Val::Null, "utf8"),
        Some(b) if std::str::from_utf8(b).is_ok() => {
            let parsed = if parse && looks_like_json(b) {
                parse_json(b)
            } else {
                None
            };
            (parsed.unwrap_or_else(|| Val::utf8_str(b.clone())), "utf8")
        }
        Some(b) => (text(&BASE64.encode(b)), "base64"),
    }
}

/// UTF-8 `text` as a JSON value, or `None` when it is not one: strict JSON
/// read by [`jq_read`], anything else by jaq's reader (which takes a
/// superset); nesting past [`jq_read::MAX_DEPTH`] is not taken as JSON
/// (jaq's reader would recurse until the stack overflows).
fn parse_json(text: &Bytes) -> Option<Val> {
    match jq_read::read(text) {
        Read::Value(value) => Some(value),
        Read::NotStrict => jaq_json::read::parse_single(text).ok(),
        Read::TooDeep => None,
    }
}

/// A cheap first look: JSON text starts with `{`, `[`, `"`, a digit, `-`,
/// `t`, `f` or `n` (after white space).
fn looks_like_json(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| {
            matches!(
                b,
                b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
            )
        })
}

fn header(header: &Header) -> Val {
    let mut map = sized_map(3);
    let key = if std::str::from_utf8(&header.key).is_ok() {
        Val::utf8_str(header.key.clone())
    } else {
        text(&String::from_utf8_lossy(&header.key))
    };
    map.insert(name_val("key"), key);
    let (value, encoding) = bytes_val(header.value.as_ref(), false);
    map.insert(name_val("value"), value);
    map.insert(name_val("value_encoding"), name_val(encoding));
    Val::obj(map)
}

fn text(s: &str) -> Val {
    Val::utf8_str(Bytes::copy_from_slice(s.as_bytes()))
}

fn int(n: impl Into<i64>) -> Val {
    Val::Num(Num::from_integral(n.into()))
}

/// A `serde_json` value (a schema's decoding) as a jq value.
pub fn from_json(value: &Value) -> Val {
    match value {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Val::Num(Num::from_integral(i)),
            (None, Some(u)) => Val::Num(Num::from_integral(u)),
            _ => Val::Num(Num::Float(n.as_f64().unwrap_or(f64::NAN))),
        },
        Value::String(s) => text(s),
        Value::Array(items) => items.iter().map(from_json).collect(),
        Value::Object(fields) => Val::obj(
            fields
                .iter()
                .map(|(k, v)| (text(k), from_json(v)))
                .collect(),
        ),
    }
}

/// Append `value` as compact JSON (what `--project` prints).
pub fn write(value: &Val, out: &mut Vec<u8>) {
    use std::io::Write as _;
    // Writing to a Vec cannot fail.
    let _ = write!(out, "{value}");
}
