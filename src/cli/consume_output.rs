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
pub use crate::schema::record_decoding::{RecordDecoding, field};

use super::args::OutputFormat;
use super::error::Error;

/// Writes records one after another, reusing its buffers.
#[derive(Debug, Default)]
pub struct Printer {
    /// The JSON line being built.
    line: Vec<u8>,
    /// The table row being built.
    row: String,
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
            .then(|| internal::decode(topic, record.key.as_deref(), record.value.as_deref()));
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
                let mut row = std::mem::take(&mut self.row);
                row.clear();
                self.table_row(record, decoded, &mut row);
                out.write_all(row.as_bytes())?;
                self.row = row;
            }
        }
        Ok(())
    }

    /// A `__consumer_offsets`, `__transaction_state` or `__share_group_state`
    /// record's table row: the group or transactional id its key names, and
    /// the record as one readable line.
    fn internal_row(
        &mut self,
        record: &Record,
        decoding: &Result<internal::Decoded, String>,
        out: &mut impl Write,
    ) -> Result<(), Error> {
        let time = self.time(record.timestamp);
        let group = decoding.as_ref().ok().and_then(internal::Decoded::owner);
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

    /// A record's table row, newline included, appended to `row`: partition
    /// and offset right-aligned, time, key (20 characters) and value (120)
    /// as safe one-line cells, columns two spaces apart. Written straight
    /// into the reused row (no string per cell, no `format!`): the table is
    /// the default output, and formatting was most of its cost.
    fn table_row(&mut self, record: &Record, decoded: Option<&RecordDecoding>, row: &mut String) {
        pad_left(row, itoa::Buffer::new().format(record.partition), 4);
        row.push_str("  ");
        pad_left(row, itoa::Buffer::new().format(record.offset), 10);
        row.push_str("  ");
        let start = row.len();
        self.time_into(record.timestamp, row);
        pad_right(row, start, 24);
        row.push_str("  ");
        let start = row.len();
        match decoded.map(|d| &d.key) {
            Some(decoding @ (Decoding::Decoded(_) | Decoding::Failed { .. })) => {
                row.push_str(&cell(decoding, record.key.as_deref(), 20));
            }
            _ => match record.key.as_deref() {
                Some(key) => escape_into(row, key, 20),
                None => row.push('-'),
            },
        }
        pad_right(row, start, 20);
        row.push_str("  ");
        match decoded.map(|d| &d.value) {
            Some(decoding @ (Decoding::Decoded(_) | Decoding::Failed { .. })) => {
                row.push_str(&cell(decoding, record.value.as_deref(), 120));
            }
            _ => match record.value.as_deref() {
                Some(value) => escape_into(row, value, 120),
                None => row.push_str("(tombstone)"),
            },
        }
        row.push('\n');
    }

    /// A record's time in RFC 3339 UTC, as `time` formats it (milliseconds
    /// with trailing zeros cut, none when whole; a negative time is the
    /// epoch).
    fn time(&mut self, timestamp: i64) -> String {
        let mut time = String::with_capacity(24);
        self.time_into(timestamp, &mut time);
        time
    }

    /// [`Printer::time`] appended to `out`; the date part is formatted once
    /// per second.
    fn time_into(&mut self, timestamp: i64, out: &mut String) {
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
            out.push_str(&super::event::rfc3339(
                std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms),
            ));
            return;
        };
        out.push_str(text);
        let n = ms % 1000;
        if n != 0 {
            let digits = [
                b'0' + (n / 100) as u8,
                b'0' + (n / 10 % 10) as u8,
                b'0' + (n % 10) as u8,
            ];
            let kept = if n % 100 == 0 {
                1
            } else if n % 10 == 0 {
                2
            } else {
                3
            };
            out.push('.');
            out.push_str(std::str::from_utf8(&digits[..kept]).unwrap_or_default());
        }
        out.push('Z');
    }
}

/// `text` right-aligned in `width` columns (ASCII: one byte a column).
fn pad_left(row: &mut String, text: &str, width: usize) {
    for _ in text.len()..width {
        row.push(' ');
    }
    row.push_str(text);
}

/// Spaces after what was written since `start`, up to `width` characters.
fn pad_right(row: &mut String, start: usize, width: usize) {
    let written = row[start..].chars().count();
    for _ in written..width {
        row.push(' ');
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

/// Untrusted bytes as one safe line: control characters, escapes and bidi
/// overrides escaped, invalid UTF-8 as `\xNN`, cut at `max` characters.
pub fn escaped(bytes: &[u8], max: usize) -> String {
    let mut out = String::with_capacity(bytes.len().min(max.saturating_add(1)));
    escape_into(&mut out, bytes, max);
    out
}

/// [`escaped`] appended to `out`. Runs of printable ASCII are copied whole
/// and never validated as UTF-8; only a non-ASCII byte makes one character
/// be decoded. At most `max` + 1 characters are looked at, so a 1 MiB value
/// is not scanned whole for a 120-character cell.
pub fn escape_into(out: &mut String, bytes: &[u8], max: usize) {
    let mut shown = 0;
    let mut at = 0;
    while at < bytes.len() {
        if shown >= max {
            out.push('…');
            return;
        }
        let run = printable_run(&bytes[at..(at + max - shown).min(bytes.len())]);
        if run > 0 {
            out.push_str(std::str::from_utf8(&bytes[at..at + run]).unwrap_or_default());
            at += run;
            shown += run;
            continue;
        }
        let lead = bytes[at];
        // The width a lead byte announces; anything else is one bad byte.
        let width = match lead {
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 1,
        };
        let end = (at + width).min(bytes.len());
        match std::str::from_utf8(&bytes[at..end]) {
            Ok(text) => {
                if let Some(c) = text.chars().next() {
                    push_char(out, c);
                }
                at = end;
                shown += 1;
            }
            Err(error) => {
                let bad = error.error_len().unwrap_or(end - at).max(1);
                for b in &bytes[at..at + bad] {
                    if shown >= max {
                        out.push('…');
                        return;
                    }
                    let _ = write!(out, "\\x{b:02x}");
                    shown += 1;
                }
                at += bad;
            }
        }
    }
}

/// How many bytes `bytes` starts with that are printable ASCII (0x20 to
/// 0x7e), eight at a time while they are.
fn printable_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        // Some byte below 0x20, or some byte at or past 0x7f (its high bit
        // set, alone or once one is added).
        let below = word.wrapping_sub(0x20 * ONES) & !word & HIGH;
        let above = (word | word.wrapping_add(ONES)) & HIGH;
        if below | above != 0 {
            break;
        }
        at += 8;
    }
    at + bytes[at..]
        .iter()
        .take_while(|b| (0x20..0x7f).contains(*b))
        .count()
}

/// One character of a cell: `\n`, `\t`, `\r` as such, other control
/// characters and bidi overrides as `\u{…}`, the rest as itself.
fn push_char(out: &mut String, c: char) {
    let bidi =
        matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}');
    match c {
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        c if c.is_control() || bidi => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
        c => out.push(c),
    }
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
                // One character's escape is push_char's (its cases are the
                // terminal test's); what this checks is the walk around it.
                push_char(&mut out, c);
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
    fn table_rows_match_the_format_macro_they_replaced() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(26);
        let pieces: [&[u8]; 5] = [
            b"key-",
            "é中🚀".as_bytes(),
            b"\x1b\n",
            &[0xff],
            b"a long plain run",
        ];
        let mut printer = Printer::default();
        for _ in 0..5_000 {
            let mut field = || {
                rng.random_bool(0.9).then(|| {
                    let mut bytes = Vec::new();
                    for _ in 0..rng.random_range(0..12) {
                        bytes.extend_from_slice(pieces[rng.random_range(0..pieces.len())]);
                    }
                    Bytes::from(bytes)
                })
            };
            let (key, value) = (field(), field());
            let record = Record {
                partition: rng.random_range(0..100_000),
                offset: rng.random_range(0..i64::MAX),
                timestamp: rng.random_range(-5..4_000_000_000_000),
                key,
                value,
                ..Record::sample(0, 0)
            };
            let time = printer.time(record.timestamp);
            let key = record
                .key
                .as_deref()
                .map_or_else(|| "-".to_owned(), |k| escaped(k, 20));
            let value = record
                .value
                .as_deref()
                .map_or_else(|| "(tombstone)".to_owned(), |v| escaped(v, 120));
            let expected = format!(
                "{:>4}  {:>10}  {:<24}  {:<20}  {value}\n",
                record.partition, record.offset, time, key
            );
            let mut row = String::new();
            printer.table_row(&record, None, &mut row);
            assert_eq!(row, expected);
        }
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
