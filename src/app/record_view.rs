//! The record detail: metadata, key, headers and the value (pretty JSON,
//! text or a hex dump), laid out once as lines of tagged pieces when the
//! record is opened, so a frame only draws the visible lines. Every piece
//! of record bytes is escaped here ([`crate::untrusted`]).

use crate::browse::format::{self, Kind, Line, Tok};
use crate::browse::{Format, Record, ring::DEFAULT_VALUE_CAP};
use crate::columns::messages::{datetime, key_text, zone};
use crate::untrusted::escaped;

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
    /// Lay `record` out under `format` with local times at `utc_offset`.
    pub fn new(record: Record, format: Format, utc_offset: i32) -> Detail {
        let lines = lines(&record, format, utc_offset);
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
pub fn lines(record: &Record, format: Format, utc_offset: i32) -> Vec<Line> {
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
    let key = match record.key.as_deref() {
        None => vec![label("key       "), (Tok::Dim, "null".to_owned())],
        Some(k) => vec![
            label("key       "),
            plain(key_text(Some(k))),
            (Tok::Dim, format!("   ({} bytes)", k.len())),
        ],
    };
    out.push(key);
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
    value_lines(record, format, &mut out);
    out
}

fn value_lines(record: &Record, format: Format, out: &mut Vec<Line>) {
    let Some(value) = record.value.as_deref() else {
        out.push(vec![
            label("value     "),
            (Tok::Lit, "(tombstone: null value)".to_owned()),
        ]);
        return;
    };
    let mut body = value;
    let mut title = vec![label("value     ")];
    let mut kind = format::kind_under(body, format);
    if let (Format::Auto, Some(id)) = (format, format::schema_id(value)) {
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
            Format::Auto,
            0,
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
        let text = flat(&lines(&record(None), Format::Auto, 0));
        assert!(text.iter().any(|l| l.contains("tombstone")), "{text:?}");
        let framed = flat(&lines(
            &record(Some(b"\0\0\0\0\x07{\"id\":1}")),
            Format::Auto,
            0,
        ));
        let value = framed
            .iter()
            .position(|l| l.starts_with("value"))
            .expect("value");
        assert!(framed[value].contains("schema id 7"), "{}", framed[value]);
        assert_eq!(framed[value + 2], "  \"id\": 1");
        let hex = flat(&lines(&record(Some(b"ab")), Format::Hex, 0));
        assert!(
            hex.iter().any(|l| l.starts_with("00000000  61 62")),
            "{hex:?}"
        );
    }
}
