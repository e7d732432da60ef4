//! How `consume` prints a record: JSON lines (through the one record
//! writer, [`RecordJson`]), an aligned table of safe one-line cells, or the
//! raw value. A [`Printer`] keeps its scratch between records: the JSON
//! line's buffer, and the last second's timestamp text (records of a batch
//! share their seconds; formatting a date is the costliest part of a row).

use std::fmt::Write as _;
use std::io::Write;

use crate::browse::Record;
use crate::browse::csv::RecordCsv;
use crate::browse::internal;
use crate::browse::json::{Field, RecordJson};
use crate::schema::Decoding;

use super::args::OutputFormat;
use super::error::Error;

/// Writes records one after another, reusing its buffers.
#[derive(Debug, Default)]
pub struct Printer {
    /// The JSON line being built.
    line: Vec<u8>,
    /// The last whole second formatted, and its RFC 3339 text without the `Z`
    /// (`None`: the time could not be formatted).
    second: Option<(u64, Option<String>)>,
}

impl Printer {
    /// The header line `output` starts with, if it has one.
    pub fn header(output: OutputFormat, out: &mut impl Write) -> Result<(), Error> {
        match output {
            OutputFormat::Table => writeln!(
                out,
                "{:>4}  {:>10}  {:<24}  {:<20}  VALUE",
                "PART", "OFFSET", "TIMESTAMP", "KEY"
            )?,
            OutputFormat::Csv => out.write_all(crate::browse::csv::HEADER.as_bytes())?,
            OutputFormat::Json | OutputFormat::Raw => {}
        }
        Ok(())
    }

    /// Write `record` of `topic` as `output` says, with its schema decoding.
    pub fn write(
        &mut self,
        topic: &str,
        record: &Record,
        decoded: Option<&RecordDecoding>,
        output: OutputFormat,
        out: &mut impl Write,
    ) -> Result<(), Error> {
        let internal = (internal::decodes(topic) && output != OutputFormat::Raw)
            .then(|| internal::decode(record.key.as_deref(), record.value.as_deref()));
        if output == OutputFormat::Table
            && let Some(decoding) = &internal
        {
            return self.internal_row(record, decoding, out);
        }
        match output {
            OutputFormat::Json => {
                let json = RecordJson {
                    key: decoded.map_or(Field::Bytes, |d| field(&d.key)),
                    value: decoded.map_or(Field::Bytes, |d| field(&d.value)),
                    decoded: internal.as_ref(),
                    ..RecordJson::plain(topic, record)
                };
                self.line.clear();
                json.write(&mut self.line);
                self.line.push(b'\n');
                out.write_all(&self.line)?;
            }
            OutputFormat::Csv => {
                let csv = RecordCsv {
                    key: decoded.map_or(Field::Bytes, |d| field(&d.key)),
                    value: decoded.map_or(Field::Bytes, |d| field(&d.value)),
                    ..RecordCsv::plain(record)
                };
                self.line.clear();
                csv.write(&mut self.line);
                out.write_all(&self.line)?;
            }
            OutputFormat::Raw => {
                out.write_all(record.value.as_deref().unwrap_or_default())?;
                out.write_all(b"\n")?;
            }
            OutputFormat::Table => {
                let time = self.time(record.timestamp);
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

    /// A `__consumer_offsets` record's table row: the key's group, and the
    /// record as one readable line.
    fn internal_row(
        &mut self,
        record: &Record,
        decoding: &Result<internal::Decoded, String>,
        out: &mut impl Write,
    ) -> Result<(), Error> {
        let time = self.time(record.timestamp);
        let group = decoding.as_ref().ok().and_then(|d| d.key.group());
        writeln!(
            out,
            "{:>4}  {:>10}  {:<24}  {:<20}  {}",
            record.partition,
            record.offset,
            time,
            escaped(group.unwrap_or("-").as_bytes(), 20),
            escaped(internal::line(decoding).as_bytes(), 400)
        )?;
        Ok(())
    }

    /// A record's time in RFC 3339 UTC, as `time` formats it (milliseconds
    /// with trailing zeros cut, none when whole; a negative time is the
    /// epoch); the date part is formatted once per second.
    fn time(&mut self, timestamp: i64) -> String {
        let ms = u64::try_from(timestamp).unwrap_or(0);
        let second = ms / 1000;
        let text = match &self.second {
            Some((held, text)) if *held == second => text,
            _ => {
                let whole = super::event::rfc3339(
                    std::time::UNIX_EPOCH + std::time::Duration::from_secs(second),
                );
                let text = whole.strip_suffix('Z').map(str::to_owned);
                &self.second.insert((second, text)).1
            }
        };
        let Some(text) = text else {
            return super::event::rfc3339(
                std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms),
            );
        };
        let mut time = String::with_capacity(text.len() + 5);
        time.push_str(text);
        match ms % 1000 {
            0 => {}
            n if n % 100 == 0 => {
                let _ = write!(time, ".{}", n / 100);
            }
            n if n % 10 == 0 => {
                let _ = write!(time, ".{:02}", n / 10);
            }
            n => {
                let _ = write!(time, ".{n:03}");
            }
        }
        time.push('Z');
        time
    }
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
pub fn field(decoding: &Decoding) -> Field<'_> {
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
    let mut left = bytes;
    while !left.is_empty() {
        // from_utf8 validates a whole run at once (`Utf8Chunks` goes byte by byte).
        let (valid, invalid) = match std::str::from_utf8(left) {
            Ok(text) => (text, &left[left.len()..]),
            Err(error) => {
                let (good, bad) = left.split_at(error.valid_up_to());
                let bad_len = error.error_len().unwrap_or(bad.len());
                (
                    std::str::from_utf8(good).unwrap_or_default(),
                    &bad[..bad_len],
                )
            }
        };
        left = &left[valid.len() + invalid.len()..];
        let mut rest = valid;
        while let Some(c) = rest.chars().next() {
            if shown >= max {
                out.push('…');
                return out;
            }
            // A run of printable ASCII goes in whole.
            let plain = rest
                .bytes()
                .take(max - shown)
                .take_while(|b| (0x20..0x7f).contains(b))
                .count();
            if plain > 0 {
                out.push_str(&rest[..plain]);
                shown += plain;
                rest = &rest[plain..];
                continue;
            }
            rest = &rest[c.len_utf8()..];
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
        for b in invalid {
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

/// A record's key and value as the schema registry decodes them.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordDecoding {
    /// The key's decoding.
    pub key: Decoding,
    /// The value's decoding.
    pub value: Decoding,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::json::json_record;
    use crate::browse::{Codec, Header, TimestampType};
    use bytes::Bytes;
    use serde_json::Value;

    /// The cell as it was written before the fast paths (every character
    /// looked at, `Utf8Chunks` over the whole input), with invalid bytes past
    /// `max` cut like characters.
    fn reference(bytes: &[u8], max: usize) -> String {
        let mut out = String::new();
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

    #[test]
    fn cells_match_the_character_by_character_reference_on_random_bytes() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        let pieces: [&[u8]; 8] = [
            b"plain ascii ",
            "é中🚀".as_bytes(),
            b"\n\t\r\x1b[31m",
            "\u{202e}\u{2066}".as_bytes(),
            &[0xff, 0xfe],
            &[0xe4, 0xb8],
            &[0xf0, 0x9f, 0x9a],
            b"\x7f\x00",
        ];
        for _ in 0..20_000 {
            let mut bytes = Vec::new();
            for _ in 0..rng.random_range(0..40) {
                if rng.random_bool(0.2) {
                    bytes.push(rng.random());
                } else {
                    bytes.extend_from_slice(pieces[rng.random_range(0..pieces.len())]);
                }
            }
            let max = rng.random_range(0..60);
            assert_eq!(
                escaped(&bytes, max),
                reference(&bytes, max),
                "{bytes:?} max {max}"
            );
        }
    }

    #[test]
    fn times_are_what_rfc3339_says_for_every_millisecond_and_range() {
        let mut printer = Printer::default();
        let mut times: Vec<i64> = vec![-5, 0, 1, 10, 100, 999, 1_000, 253_402_300_799_999];
        times.extend((0..3_000).map(|n| 1_700_000_000_000 + n * 7));
        times.extend([253_402_300_800_000, i64::MAX]);
        for ms in times {
            let want = super::super::event::rfc3339(
                std::time::UNIX_EPOCH
                    + std::time::Duration::from_millis(u64::try_from(ms).unwrap_or(0)),
            );
            assert_eq!(printer.time(ms), want, "{ms}");
        }
    }

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
