//! The record detail: metadata, key, headers and the value (pretty JSON,
//! text or a hex dump), laid out once as lines of tagged pieces when the
//! record is opened, so a frame only draws the visible lines. Every piece
//! of record bytes is escaped here ([`crate::untrusted`]). A Confluent-framed
//! key or value shows decoded with its schema when the registry gave it
//! ([`SchemaCache`]), else its bytes with a marker: decoding…, or why not.

use crate::browse::format::{self, Kind, Line, Tok};
use crate::browse::{Format, Record, ring::DEFAULT_VALUE_CAP};
use crate::columns::messages::{datetime, key_text, zone};
use crate::schema::decoder::Decoded;
use crate::untrusted::escaped;

use super::schema_cache::{SchemaCache, Shown};

/// Lines of a value shown at most.
const MAX_LINES: usize = 100_000;

/// The record opened on the detail screen.
#[derive(Debug, Clone)]
pub struct Detail {
    /// The record (a copy: it may leave the ring meanwhile).
    pub record: Record,
    /// What is drawn.
    pub lines: Vec<Line>,
}

impl Detail {
    /// Lay `record` of `topic` out under `format` with local times at
    /// `utc_offset`, framed keys and values decoded with the schemas held
    /// (and a value without the wire prefix with the topic's mapping).
    pub fn new(
        record: Record,
        topic: &str,
        (format, utc_offset): (Format, i32),
        schemas: &SchemaCache,
    ) -> Detail {
        let lines = lines(&record, topic, (format, utc_offset), schemas);
        Detail { record, lines }
    }
}

fn label(text: &str) -> (Tok, String) {
    (Tok::Label, text.to_owned())
}

fn plain(text: String) -> (Tok, String) {
    (Tok::Plain, escaped(text))
}

/// The whole detail, top to bottom.
pub fn lines(
    record: &Record,
    topic: &str,
    (format, utc_offset): (Format, i32),
    schemas: &SchemaCache,
) -> Vec<Line> {
    let mut out = vec![
        vec![
            label("partition "),
            plain(record.partition.to_string()),
            label("   offset "),
            plain(record.offset.to_string()),
            label("   leader epoch "),
            plain(if record.leader_epoch < 0 {
                "unknown".to_owned()
            } else {
                record.leader_epoch.to_string()
            }),
            label("   size "),
            plain(format!("{} B", record.size)),
            label("   codec "),
            plain(record.codec.name().to_owned()),
        ],
        vec![
            label("time      "),
            plain(format!(
                "{} {}",
                datetime(record.timestamp, utc_offset),
                zone(utc_offset)
            )),
            label("   type "),
            plain(record.timestamp_type.name().to_owned()),
        ],
        vec![
            label("          "),
            plain(format!("{} UTC", datetime(record.timestamp, 0))),
        ],
    ];
    out.push(key_line(record.key.as_deref(), format, schemas));
    out.push(vec![label(&format!("headers   {}", record.headers.len()))]);
    for header in &record.headers {
        let value = header.value.as_deref().map_or_else(
            || (Tok::Dim, "null".to_owned()),
            |v| plain(String::from_utf8_lossy(v).into_owned()),
        );
        out.push(vec![
            (Tok::Punct, "  ".to_owned()),
            (
                Tok::Key,
                escaped(String::from_utf8_lossy(&header.key).into_owned()),
            ),
            (Tok::Punct, " = ".to_owned()),
            value,
        ]);
    }
    out.push(Vec::new());
    value_lines(record, (topic, format), schemas, &mut out);
    out
}

/// The key: decoded on one line when framed and its schema is held.
fn key_line(key: Option<&[u8]>, format: Format, schemas: &SchemaCache) -> Line {
    let Some(k) = key else {
        return vec![label("key       "), (Tok::Dim, "null".to_owned())];
    };
    let mut line = vec![label("key       ")];
    match schemas.shown(k, format) {
        Shown::Decoded(d) => {
            line.push(plain(d.value.to_string()));
            line.push((
                Tok::Dim,
                format!(
                    "   ({}, schema id {}, {} bytes)",
                    d.format.name(),
                    d.schema_id,
                    k.len()
                ),
            ));
        }
        shown => {
            line.push(plain(key_text(Some(k))));
            line.push((Tok::Dim, format!("   ({} bytes)", k.len())));
            if let Some(marker) = marker(&shown) {
                line.push((Tok::Dim, "   ".to_owned()));
                line.push(marker);
            }
        }
    }
    line
}

/// What a framed key or value that did not decode says beside its bytes.
fn marker(shown: &Shown) -> Option<(Tok, String)> {
    match shown {
        Shown::Bytes | Shown::Decoded(_) => None,
        Shown::NoRegistry(id) => Some((
            Tok::Dim,
            format!("schema id {id}: no schema registry configured for this context"),
        )),
        Shown::Pending(id) => Some((
            Tok::Dim,
            format!("schema id {id}: decoding… (asking the registry)"),
        )),
        Shown::Failed(_, reason) => Some((Tok::Lit, escaped(format!("not decoded: {reason}")))),
        Shown::MappingPending => Some((
            Tok::Dim,
            "decoding… (compiling the topic's schema)".to_owned(),
        )),
        Shown::MappingFailed(reason) => Some((
            Tok::Lit,
            escaped(format!("not decoded with the topic's schema: {reason}")),
        )),
    }
}

/// A decoded value: its schema (id, subject, version, format) and the
/// value as pretty JSON.
fn decoded_lines(value: &[u8], d: &Decoded, out: &mut Vec<Line>) {
    let mut schema = if d.schema_id == 0 && d.subject.is_none() {
        // Decoded by the topic's mapping to a local schema file.
        vec![
            label("schema    "),
            plain("the topic's local schema file".to_owned()),
        ]
    } else {
        vec![
            label("schema    "),
            plain(format!("id {}", d.schema_id)),
            label("   subject "),
            plain(d.subject.clone().unwrap_or_else(|| "?".to_owned())),
            label("   version "),
            plain(d.version.map_or_else(|| "?".to_owned(), |v| v.to_string())),
        ]
    };
    if let Some(message) = &d.message_type {
        schema.push(label("   message "));
        schema.push(plain(message.clone()));
    }
    out.push(schema);
    let mut title = vec![
        label("value     "),
        plain(format!(
            "{}, decoded from {} bytes",
            d.format.name(),
            value.len()
        )),
    ];
    if value.len() >= DEFAULT_VALUE_CAP {
        title.push((
            Tok::Dim,
            "   (cut: the ring keeps the first 1 MiB)".to_owned(),
        ));
    }
    out.push(title);
    let json = serde_json::to_vec(&d.value).unwrap_or_default();
    if let Some(json) = format::pretty_json(&json, MAX_LINES) {
        out.extend(json.into_iter().map(|line| {
            line.into_iter()
                .map(|(tok, text)| (tok, escaped(text)))
                .collect()
        }));
    }
}

fn value_lines(
    record: &Record,
    (topic, format): (&str, Format),
    schemas: &SchemaCache,
    out: &mut Vec<Line>,
) {
    let Some(value) = record.value.as_deref() else {
        out.push(vec![
            label("value     "),
            (Tok::Lit, "(tombstone: null value)".to_owned()),
        ]);
        return;
    };
    let shown = schemas.shown_value(topic, value, format);
    if let Shown::Decoded(decoded) = &shown {
        decoded_lines(value, decoded, out);
        return;
    }
    let mut body = value;
    let mut title = vec![label("value     ")];
    let mut kind = format::kind_under(body, format);
    if let Some(id) = format::schema_id(value).filter(|_| format.decodes()) {
        title.push(plain(format!("schema id {id} (Confluent wire format)   ")));
        body = &value[5..];
        kind = format::framed_kind(body);
    }
    title.push(plain(format!("{}, {} bytes", kind.name(), value.len())));
    if value.len() >= DEFAULT_VALUE_CAP {
        title.push((
            Tok::Dim,
            "   (cut: the ring keeps the first 1 MiB)".to_owned(),
        ));
    }
    out.push(title);
    if let Some(marker) = marker(&shown) {
        out.push(vec![label("          "), marker]);
    } else if matches!(format, Format::Avro | Format::Protobuf | Format::JsonSchema) {
        out.push(vec![
            label("          "),
            (
                Tok::Dim,
                format!(
                    "not Confluent-framed: shown as bytes, not {}",
                    format.name()
                ),
            ),
        ]);
    }
    match kind {
        Kind::Json => match format::pretty_json(body, MAX_LINES) {
            Some(json) => out.extend(json.into_iter().map(|line| {
                line.into_iter()
                    .map(|(tok, text)| (tok, escaped(text)))
                    .collect()
            })),
            None => text_lines(body, out),
        },
        Kind::Text => text_lines(body, out),
        Kind::Binary => out.extend(format::hex_dump(body, MAX_LINES)),
    }
}

fn text_lines(bytes: &[u8], out: &mut Vec<Line>) {
    let text = String::from_utf8_lossy(bytes);
    out.extend(
        text.split('\n')
            .take(MAX_LINES)
            .map(|line| vec![plain(line.to_owned())]),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::{Codec, Header, TimestampType};
    use bytes::Bytes;

    fn flat(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|(_, t)| t.as_str()).collect())
            .collect()
    }

    fn record(value: Option<&'static [u8]>) -> Record {
        Record {
            partition: 1,
            offset: 9,
            leader_epoch: -1,
            timestamp: 1_800_000_000_000,
            timestamp_type: TimestampType::LogAppend,
            key: Some(Bytes::from_static("k\u{202e}2J".as_bytes())),
            value: value.map(Bytes::from_static),
            headers: vec![Header {
                key: Bytes::from_static("h\u{202e}".as_bytes()),
                value: None,
            }],
            codec: Codec::Zstd,
            size: 40,
        }
    }

    #[test]
    fn metadata_key_headers_and_value_are_laid_out_escaped() {
        let text = flat(&lines(
            &record(Some("{\"a\":\"x\u{202e}\"}".as_bytes())),
            "t",
            (Format::Auto, 0),
            &SchemaCache::default(),
        ));
        assert!(text[0].contains("leader epoch unknown"), "{}", text[0]);
        assert!(text[0].contains("codec zstd"), "{}", text[0]);
        assert!(text[1].contains("type log_append"), "{}", text[1]);
        assert!(
            text[2].contains("2027-01-15 08:00:00.000 UTC"),
            "{}",
            text[2]
        );
        assert!(text[3].contains("k\\u{202e}2J"), "{}", text[3]);
        assert_eq!(text[5], "  h\\u{202e} = null");
        assert!(
            text.iter().any(|l| l == "  \"a\": \"x\\u{202e}\""),
            "{text:?}"
        );
        for line in &text {
            assert!(!line.chars().any(crate::untrusted::is_hostile), "{line:?}");
        }
    }

    #[test]
    fn tombstones_schema_ids_and_formats() {
        let text = flat(&lines(
            &record(None),
            "t",
            (Format::Auto, 0),
            &SchemaCache::default(),
        ));
        assert!(text.iter().any(|l| l.contains("tombstone")), "{text:?}");
        let framed = flat(&lines(
            &record(Some(b"\0\0\0\0\x07{\"id\":1}")),
            "t",
            (Format::Auto, 0),
            &SchemaCache::default(),
        ));
        let value = framed
            .iter()
            .position(|l| l.starts_with("value"))
            .expect("value");
        assert!(framed[value].contains("schema id 7"), "{}", framed[value]);
        assert!(
            framed[value + 1].contains("no schema registry configured"),
            "{}",
            framed[value + 1]
        );
        assert_eq!(framed[value + 3], "  \"id\": 1");
        let hex = flat(&lines(
            &record(Some(b"ab")),
            "t",
            (Format::Hex, 0),
            &SchemaCache::default(),
        ));
        assert!(
            hex.iter().any(|l| l.starts_with("00000000  61 62")),
            "{hex:?}"
        );
    }
}
