//! `kscope consume TOPIC`: a topic's records, headless, in `table`, `json`
//! (one object per line) or `raw` (value bytes verbatim, only to a pipe).
//!
//! Never joins a group or commits: `group:NAME` only reads the group's
//! committed offsets.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};

use regex::bytes::Regex;

use crate::browse::json::{Field, RecordJson};
use crate::browse::{self, Browser, Event, Isolation, Options, Record, Start};
use crate::groups::GroupsClient;
use crate::meta::Cluster;
use crate::schema::{Decoder, Decoding};

use super::args::OutputFormat;
use super::error::Error;

/// What `consume` was asked for.
#[derive(Debug, Clone)]
pub struct ConsumeArgs {
    /// The topic.
    pub topic: String,
    /// Only this partition.
    pub partition: Option<i32>,
    /// Where to start.
    pub from: String,
    /// Stop after this many records.
    pub count: Option<u64>,
    /// Keep reading past the end.
    pub follow: bool,
    /// Only records whose key or value matches.
    pub grep: Option<String>,
    /// `read_committed` or `read_uncommitted`.
    pub isolation: Isolation,
    /// Schemas for values without the wire prefix, by topic (config).
    pub mappings: crate::schema::mapping::Mappings,
}

/// Run `consume` until COUNT records, the end (unless following), or a closed pipe.
pub async fn run(
    cluster: &Cluster,
    args: ConsumeArgs,
    decoder: Option<&Decoder>,
    output: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    if output == OutputFormat::Raw && std::io::stdout().is_terminal() {
        return Err(Error::Usage(
            "-o raw writes record bytes verbatim and only to a pipe or file, not a terminal"
                .to_owned(),
        ));
    }
    let grep = args
        .grep
        .as_deref()
        .map(Regex::new)
        .transpose()
        .map_err(|e| Error::Usage(format!("--grep: {e}")))?;
    let now_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis(),
    )
    .unwrap_or(i64::MAX);
    let mut start = Start::parse(&args.from, now_ms)?;
    if let Start::Group(group) = &start {
        start = Start::Offsets(group_offsets(cluster, group, &args.topic).await?);
    }
    let options = Options {
        isolation: args.isolation,
        follow: args.follow,
        ..Options::default()
    };
    let mut browser = Browser::open(
        cluster.clone(),
        &args.topic,
        args.partition,
        &start,
        options,
    )
    .await?;
    if output == OutputFormat::Table {
        writeln!(
            out,
            "{:>4}  {:>10}  {:<24}  {:<20}  VALUE",
            "PART", "OFFSET", "TIMESTAMP", "KEY"
        )?;
    }
    let mut printed: u64 = 0;
    while args.count.is_none_or(|n| printed < n) && (args.follow || !browser.finished()) {
        for event in browser.next_events().await? {
            match event {
                Event::Notice(notice) if notice.loses_records() => {
                    super::partial::missing(format_args!("topic '{}' {notice}", args.topic));
                }
                Event::Notice(notice) => eprintln!("kscope: topic '{}' {notice}", args.topic),
                Event::Record(record) => {
                    if args.count.is_some_and(|n| printed >= n) {
                        break;
                    }
                    if grep.as_ref().is_some_and(|re| !matches(re, &record)) {
                        continue;
                    }
                    let decoding = match (decoder, output) {
                        (Some(registry), OutputFormat::Json | OutputFormat::Table) => {
                            Some(decode(registry, &record).await)
                        }
                        _ => None,
                    };
                    let decoding = match output {
                        OutputFormat::Json | OutputFormat::Table => {
                            mapped(&args, decoder, &record, decoding).await
                        }
                        OutputFormat::Raw => decoding,
                    };
                    write_record(&args.topic, &record, decoding.as_ref(), output, out)?;
                    printed += 1;
                }
            }
        }
        out.flush()?;
    }
    Ok(())
}

fn matches(re: &Regex, record: &Record) -> bool {
    record.key.as_ref().is_some_and(|k| re.is_match(k))
        || record.value.as_ref().is_some_and(|v| re.is_match(v))
}

/// The group's committed offsets on `topic`, per partition.
async fn group_offsets(
    cluster: &Cluster,
    group: &str,
    topic: &str,
) -> Result<std::collections::BTreeMap<i32, i64>, Error> {
    let coordinator = cluster.coordinator_for(group).await?;
    let client = GroupsClient::new(cluster.clone());
    let mut answers = client
        .committed(vec![(group.to_owned(), coordinator)])
        .await;
    let committed = answers
        .remove(group)
        .ok_or_else(|| Error::Usage(format!("group '{group}' not found")))?
        .map_err(|e| Error::Usage(e.to_string()))?;
    Ok(committed
        .into_iter()
        .filter(|((t, _), _)| t == topic)
        .map(|((_, p), offset)| (p, offset))
        .collect())
}

/// A record's key and value as the schema registry decodes them.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordDecoding {
    /// The key's decoding.
    pub key: Decoding,
    /// The value's decoding.
    pub value: Decoding,
}

/// Decode a record's key and value (each schema id fetched once per session).
pub async fn decode(decoder: &Decoder, record: &Record) -> RecordDecoding {
    RecordDecoding {
        key: decode_field(decoder, record.key.as_deref()).await,
        value: decode_field(decoder, record.value.as_deref()).await,
    }
}

/// A value without the wire prefix decoded by its topic's mapping, if the
/// config has one (compiled once, on the blocking pool).
async fn mapped(
    args: &ConsumeArgs,
    decoder: Option<&Decoder>,
    record: &Record,
    decoding: Option<RecordDecoding>,
) -> Option<RecordDecoding> {
    let framed = decoding
        .as_ref()
        .is_some_and(|d| !matches!(d.value, Decoding::NotFramed));
    let (Some(value), false) = (record.value.clone(), framed) else {
        return decoding;
    };
    args.mappings.find(&args.topic)?;
    let (mappings, topic) = (args.mappings.clone(), args.topic.clone());
    let client = decoder.map(|d| d.client().clone());
    let value =
        tokio::task::spawn_blocking(move || mappings.decode(&topic, &value, client.as_ref()))
            .await
            .ok()
            .flatten()?;
    Some(RecordDecoding {
        key: decoding.map_or(Decoding::NotFramed, |d| d.key),
        value,
    })
}

async fn decode_field(decoder: &Decoder, bytes: Option<&[u8]>) -> Decoding {
    match bytes {
        Some(bytes) => decoder.decode(bytes).await,
        None => Decoding::NotFramed,
    }
}

fn write_record(
    topic: &str,
    record: &Record,
    decoded: Option<&RecordDecoding>,
    output: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    match output {
        OutputFormat::Json => {
            let json = RecordJson {
                key: decoded.map_or(Field::Bytes, |d| field(&d.key)),
                value: decoded.map_or(Field::Bytes, |d| field(&d.value)),
                ..RecordJson::plain(topic, record)
            };
            let mut line = Vec::with_capacity(256 + record.size);
            json.write(&mut line);
            line.push(b'\n');
            out.write_all(&line)?;
        }
        OutputFormat::Raw => {
            out.write_all(record.value.as_deref().unwrap_or_default())?;
            writeln!(out)?;
        }
        OutputFormat::Table => {
            let time = super::event::rfc3339(
                std::time::UNIX_EPOCH
                    + std::time::Duration::from_millis(
                        u64::try_from(record.timestamp).unwrap_or(0),
                    ),
            );
            let key = match decoded.map(|d| &d.key) {
                Some(decoding @ (Decoding::Decoded(_) | Decoding::Failed { .. })) => {
                    cell(decoding, record.key.as_deref(), 20)
                }
                _ => record
                    .key
                    .as_deref()
                    .map_or_else(|| "-".to_owned(), |k| escaped(k, 20)),
            };
            let value = match decoded.map(|d| &d.value) {
                Some(decoding @ (Decoding::Decoded(_) | Decoding::Failed { .. })) => {
                    cell(decoding, record.value.as_deref(), 120)
                }
                _ => record
                    .value
                    .as_deref()
                    .map_or_else(|| "(tombstone)".to_owned(), |v| escaped(v, 120)),
            };
            writeln!(
                out,
                "{:>4}  {:>10}  {:<24}  {:<20}  {value}",
                record.partition, record.offset, time, key
            )?;
        }
    }
    Ok(())
}

/// A decoded field in a table cell: its JSON on one line; a failure as
/// `[reason] ` and the bytes in hex.
fn cell(decoding: &Decoding, bytes: Option<&[u8]>, max: usize) -> String {
    match decoding {
        Decoding::Decoded(decoded) => escaped(decoded.value.to_string().as_bytes(), max),
        Decoding::Failed { reason, .. } => {
            let hex = bytes
                .unwrap_or_default()
                .iter()
                .fold(String::new(), |mut s, b| {
                    let _ = write!(s, "{b:02x}");
                    s
                });
            escaped(format!("[{reason}] {hex}").as_bytes(), max)
        }
        Decoding::NotFramed => String::new(),
    }
}

/// How a key or value a schema decoded (or failed to) is written in JSON:
/// the decoded value with its format and registry id (a local schema has
/// id 0, left out), or the bytes as base64 with the id and the reason.
fn field(decoding: &Decoding) -> Field<'_> {
    match decoding {
        Decoding::NotFramed => Field::Bytes,
        Decoding::Decoded(decoded) => Field::Decoded {
            json: &decoded.value,
            encoding: decoded.format.name(),
            schema_id: (decoded.schema_id != 0).then_some(decoded.schema_id),
        },
        Decoding::Failed { schema_id, reason } => Field::Failed {
            schema_id: *schema_id,
            reason,
        },
    }
}

/// Untrusted bytes as one safe line: control characters, escapes and bidi
/// overrides escaped, invalid UTF-8 as `\xNN`, cut at `max` characters.
pub fn escaped(bytes: &[u8], max: usize) -> String {
    // Each character shown takes at most 4 bytes: what lies past the first
    // max + 1 of them is never looked at (a 1 MiB value is not scanned whole
    // for a 120-character cell).
    let bytes = &bytes[..bytes.len().min(max.saturating_add(2).saturating_mul(4))];
    let mut out = String::with_capacity(bytes.len().min(max.saturating_add(1)));
    let mut shown = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if shown >= max {
                out.push('…');
                return out;
            }
            let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}');
            match c {
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if c.is_control() || bidi => {
                    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
                }
                c => out.push(c),
            }
            shown += 1;
        }
        for b in chunk.invalid() {
            if shown >= max {
                out.push('…');
                return out;
            }
            let _ = write!(out, "\\x{b:02x}");
            shown += 1;
        }
    }
    out
}

impl From<browse::Error> for Error {
    fn from(error: browse::Error) -> Self {
        Error::Browse(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::json::json_record;
    use crate::browse::{Codec, Header, TimestampType};
    use bytes::Bytes;
    use serde_json::Value;

    #[test]
    fn terminal_escapes_and_bidi_overrides_never_reach_the_terminal() {
        let text = "a\u{1b}[31mred\u{202e}x\n".as_bytes();
        assert_eq!(escaped(text, 100), "a\\u{1b}[31mred\\u{202e}x\\n");
        assert_eq!(escaped(&[0x66, 0xff, 0x67], 100), "f\\xffg");
        assert_eq!(escaped(b"abcdef", 3), "abc…");
        assert_eq!(
            escaped(&[0xff; 10], 3),
            "\\xff\\xff\\xff…",
            "invalid bytes are cut too"
        );
        let wide = "中".repeat(400);
        assert_eq!(escaped(wide.as_bytes(), 5), format!("{}…", "中".repeat(5)));
        assert_eq!(
            escaped("🚀🚀🚀".as_bytes(), 3),
            "🚀🚀🚀",
            "exactly max: no cut"
        );
        assert_eq!(escaped("🚀🚀🚀🚀".as_bytes(), 3), "🚀🚀🚀…");
    }

    #[test]
    fn json_says_how_each_field_is_encoded_and_null_is_null() {
        let record = Record {
            partition: 2,
            offset: 9,
            leader_epoch: 4,
            timestamp: 1_000,
            timestamp_type: TimestampType::LogAppend,
            key: Some(Bytes::from_static(&[0xff, 0x00])),
            value: None,
            headers: vec![
                Header {
                    key: Bytes::from_static(b"h"),
                    value: Some(Bytes::from_static(b"1")),
                },
                Header {
                    key: Bytes::from_static(b"h"),
                    value: None,
                },
            ],
            codec: Codec::Zstd,
            size: 20,
        };
        let json = json_record("t", &record);
        assert_eq!(json["key"], "/wA=");
        assert_eq!(json["key_encoding"], "base64");
        assert_eq!(json["value"], Value::Null);
        assert_eq!(json["timestamp_type"], "log_append");
        assert_eq!(json["headers"][1]["value"], Value::Null);
        assert_eq!(json["headers"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            (json["partition"].as_i64(), json["leader_epoch"].as_i64()),
            (Some(2), Some(4))
        );
    }
}

#[cfg(test)]
#[path = "consume_golden_tests.rs"]
mod golden_tests;
