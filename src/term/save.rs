//! What the Messages screen hands to the outside world: records saved as
//! JSON lines to a file (the fields of `kscope consume -o json`, through the
//! same serializer) or, for a path ending in `.csv`, as CSV (the screen's
//! columns, as `kscope consume -o csv` writes them), and a value copied to
//! the clipboard with OSC 52.
//!
//! Saving never overwrites a file unless forced (`:save! PATH`): the file is
//! created with `create_new`, so a file that appears meanwhile is not
//! clobbered either. It runs off the run loop (a blocking task).

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::browse::Record;
use crate::browse::csv::RecordCsv;
use crate::browse::json::RecordJson;
use crate::browse::ring::DEFAULT_VALUE_CAP;

/// `~/x` as the home directory's `x`; anything else as given.
fn expand(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(path),
    }
}

/// Write `records` of `topic` to `path` as JSON lines; the notice to show,
/// success or failure. An existing file is refused unless `force`.
pub fn save(path: &str, topic: &str, records: &[Record], force: bool) -> String {
    let target = expand(path);
    let mut options = OpenOptions::new();
    options.write(true);
    if force {
        options.create(true).truncate(true);
    } else {
        options.create_new(true);
    }
    let file = match options.open(&target) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
            return format!("not saved: '{path}' exists (:save! or :save-all! overwrites it)");
        }
        Err(error) => return format!("not saved: cannot create '{path}': {error}"),
    };
    let mut out = BufWriter::new(file);
    let mut line = Vec::new();
    let csv = is_csv(&target);
    let header = if csv {
        out.write_all(crate::browse::csv::HEADER.as_bytes())
    } else {
        Ok(())
    };
    let written = header.and_then(|()| {
        records.iter().try_for_each(|record| {
            line.clear();
            if csv {
                RecordCsv::plain(record).write(&mut line);
            } else {
                RecordJson::plain(topic, record).write(&mut line);
                line.push(b'\n');
            }
            out.write_all(&line)
        })
    });
    if let Err(error) = written.and_then(|()| out.flush()) {
        return format!("saving to '{path}' failed: {error}");
    }
    let shown = std::fs::canonicalize(&target).unwrap_or(target);
    let noun = if records.len() == 1 {
        "record"
    } else {
        "records"
    };
    let notice = format!("saved {} {noun} to {}", records.len(), shown.display());
    match records.iter().filter(|r| is_cut(r)).count() {
        0 => notice,
        cut => format!(
            "{notice} ({cut} values cut at 1 MiB by the view; kscope consume writes them whole)"
        ),
    }
}

/// Whether `path` asks for CSV (its extension is `csv`, any case).
fn is_csv(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
}

/// Whether the ring kept only the first [`DEFAULT_VALUE_CAP`] bytes of the
/// record's value.
fn is_cut(record: &Record) -> bool {
    record
        .value
        .as_ref()
        .is_some_and(|v| v.len() >= DEFAULT_VALUE_CAP && record.size > v.len())
}

/// The OSC 52 sequence that asks the terminal to put `bytes` on the
/// clipboard (base64 inside, so no record byte reaches the terminal as is).
pub fn osc52(bytes: &[u8]) -> String {
    format!("\u{1b}]52;c;{}\u{7}", BASE64.encode(bytes))
}

/// Send `bytes` to the clipboard through the terminal; the notice to show.
pub fn copy(bytes: &[u8]) -> String {
    let mut out = std::io::stdout();
    match out
        .write_all(osc52(bytes).as_bytes())
        .and_then(|()| out.flush())
    {
        Ok(()) => format!(
            "copied the value ({} bytes) with OSC 52 (the terminal must allow clipboard writes)",
            bytes.len()
        ),
        Err(error) => format!("copy failed: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::{Codec, TimestampType};
    use bytes::Bytes;

    fn record(offset: i64, value: &'static [u8]) -> Record {
        Record {
            partition: 0,
            offset,
            leader_epoch: 1,
            timestamp: 5,
            timestamp_type: TimestampType::Create,
            key: None,
            value: Some(Bytes::from_static(value)),
            headers: Vec::new(),
            codec: Codec::None,
            size: value.len() + 10,
        }
    }

    #[test]
    fn saves_json_lines_and_refuses_to_overwrite_unless_forced() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("out.jsonl");
        let path_text = path.to_str().expect("a UTF-8 path");
        let records = [record(1, b"{\"a\":1}"), record(2, b"\xff")];
        let notice = save(path_text, "orders", &records, false);
        assert!(notice.starts_with("saved 2 records to "), "{notice}");
        let text = std::fs::read_to_string(&path).expect("the saved file");
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            crate::browse::json::json_record("orders", &records[0])
        );
        assert_eq!(lines[1]["value_encoding"], "base64");

        let refused = save(path_text, "orders", &records[..1], false);
        assert!(refused.contains("exists"), "{refused}");
        let unchanged = std::fs::read_to_string(&path).expect("the saved file");
        assert_eq!(unchanged.lines().count(), 2, "a refused save left it alone");

        let forced = save(path_text, "orders", &records[..1], true);
        assert!(forced.starts_with("saved 1 record to "), "{forced}");
        let replaced = std::fs::read_to_string(&path).expect("the saved file");
        assert_eq!(replaced.lines().count(), 1, "a forced save replaced it");
    }

    #[test]
    fn a_csv_path_saves_the_screens_columns_as_csv() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("out.CSV");
        let path_text = path.to_str().expect("a UTF-8 path");
        let records = [record(1, b"a,\"b\"\nc"), record(2, b"plain")];
        let notice = save(path_text, "orders", &records, false);
        assert!(notice.starts_with("saved 2 records to "), "{notice}");
        let text = std::fs::read_to_string(&path).expect("the saved file");
        assert_eq!(
            text,
            "partition,offset,timestamp,key,value,size\r\n\
             0,1,1970-01-01T00:00:00.005Z,,\"a,\"\"b\"\"\nc\",17\r\n\
             0,2,1970-01-01T00:00:00.005Z,,plain,15\r\n"
        );
    }

    #[test]
    fn a_missing_directory_is_a_notice_not_a_crash() {
        let notice = save("/nonexistent-kscope-dir/x.jsonl", "t", &[], false);
        assert!(
            notice.starts_with("not saved: cannot create '/nonexistent-kscope-dir/x.jsonl'"),
            "{notice}"
        );
    }

    #[test]
    fn osc52_carries_the_bytes_base64_encoded() {
        assert_eq!(osc52(b"hi\x1b"), "\u{1b}]52;c;aGkb\u{7}");
    }
}
