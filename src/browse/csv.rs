//! A record as one CSV row (RFC 4180): what `kscope consume -o csv` prints
//! and the Messages screen's `:save FILE.csv` writes (one writer for both).
//!
//! The columns are the Messages screen's: `partition`, `offset`,
//! `timestamp` (RFC 3339 UTC with milliseconds; empty when unknown), `key`,
//! `value`, `size`. Key and value are written as `-o json` writes them: the
//! text when UTF-8, else base64; a schema-decoded field as its JSON (a
//! decoded string as the string itself); a null key or a tombstone as an
//! empty field. A field holding a comma, a double quote, CR or LF is quoted,
//! its quotes doubled; rows end with CRLF.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::Value;

use super::json::Field;
use super::record::Record;

/// The header row (with its CRLF).
pub const HEADER: &str = "partition,offset,timestamp,key,value,size\r\n";

/// One record as a CSV row.
#[derive(Debug, Clone, Copy)]
pub struct RecordCsv<'a> {
    pub record: &'a Record,
    /// How its key is written.
    pub key: Field<'a>,
    /// How its value is written.
    pub value: Field<'a>,
}

impl<'a> RecordCsv<'a> {
    /// The record with its key and value as bytes.
    pub fn plain(record: &'a Record) -> RecordCsv<'a> {
        RecordCsv {
            record,
            key: Field::Bytes,
            value: Field::Bytes,
        }
    }

    /// Append the row, CRLF included, to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        let record = self.record;
        out.extend_from_slice(record.partition.to_string().as_bytes());
        out.push(b',');
        out.extend_from_slice(record.offset.to_string().as_bytes());
        out.push(b',');
        out.extend_from_slice(timestamp(record.timestamp).as_bytes());
        out.push(b',');
        field(out, record.key.as_deref(), &self.key);
        out.push(b',');
        field(out, record.value.as_deref(), &self.value);
        out.push(b',');
        out.extend_from_slice(record.size.to_string().as_bytes());
        out.extend_from_slice(b"\r\n");
    }
}

/// Append `text` as one CSV field: quoted (quotes doubled) when it holds a
/// comma, a double quote, CR or LF; as it is otherwise.
pub fn quote(out: &mut Vec<u8>, text: &[u8]) {
    if !text
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
    {
        out.extend_from_slice(text);
        return;
    }
    out.push(b'"');
    for &b in text {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

/// Append one row of `cells` (quoted as needed), CRLF included.
pub fn row<S: AsRef<str>>(out: &mut Vec<u8>, cells: &[S]) {
    for (n, cell) in cells.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        quote(out, cell.as_ref().as_bytes());
    }
    out.extend_from_slice(b"\r\n");
}

/// A key or value as its field.
fn field(out: &mut Vec<u8>, bytes: Option<&[u8]>, how: &Field<'_>) {
    match (how, bytes) {
        (Field::Decoded { json, .. }, _) => match json {
            Value::String(text) => quote(out, text.as_bytes()),
            other => quote(out, other.to_string().as_bytes()),
        },
        (_, None) => {}
        (Field::Bytes, Some(bytes)) => match std::str::from_utf8(bytes) {
            Ok(text) => quote(out, text.as_bytes()),
            Err(_) => out.extend_from_slice(BASE64.encode(bytes).as_bytes()),
        },
        (Field::Failed { .. }, Some(bytes)) => {
            out.extend_from_slice(BASE64.encode(bytes).as_bytes());
        }
    }
}

/// `2024-01-01T12:30:00.123Z`; empty for a negative (unknown) time.
fn timestamp(ms: i64) -> String {
    super::format::datetime(ms, 0, 'T', "Z").unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::{Codec, TimestampType};
    use bytes::Bytes;

    fn quoted(text: &str) -> String {
        let mut out = Vec::new();
        quote(&mut out, text.as_bytes());
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn fields_are_quoted_only_when_rfc_4180_needs_it() {
        assert_eq!(quoted("plain"), "plain");
        assert_eq!(quoted(""), "");
        assert_eq!(quoted(" spaced "), " spaced ");
        assert_eq!(quoted("a,b"), "\"a,b\"");
        assert_eq!(quoted("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quoted("\""), "\"\"\"\"");
        assert_eq!(quoted("line\nbreak"), "\"line\nbreak\"");
        assert_eq!(quoted("cr\rhere"), "\"cr\rhere\"");
        assert_eq!(quoted("{\"a\":1,\"b\":2}"), "\"{\"\"a\"\":1,\"\"b\"\":2}\"");
    }

    #[test]
    fn a_row_of_cells_ends_with_crlf() {
        let mut out = Vec::new();
        row(&mut out, &["NAME", "a,b", "x"]);
        assert_eq!(out, b"NAME,\"a,b\",x\r\n");
    }

    fn record(key: Option<&'static [u8]>, value: Option<&'static [u8]>) -> Record {
        Record {
            partition: 3,
            offset: 41,
            leader_epoch: 0,
            timestamp: 1_704_112_200_123,
            timestamp_type: TimestampType::Create,
            key: key.map(Bytes::from_static),
            value: value.map(Bytes::from_static),
            headers: vec![],
            codec: Codec::None,
            size: 77,
        }
    }

    fn written(csv: &RecordCsv<'_>) -> String {
        let mut out = Vec::new();
        csv.write(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    #[test]
    fn records_write_the_screens_columns() {
        let r = record(Some(b"order-7"), Some(b"{\"id\":7, \"note\":\"a\"}"));
        assert_eq!(
            written(&RecordCsv::plain(&r)),
            "3,41,2024-01-01T12:30:00.123Z,order-7,\"{\"\"id\"\":7, \"\"note\"\":\"\"a\"\"}\",77\r\n"
        );
        let tombstone = record(None, None);
        assert_eq!(
            written(&RecordCsv::plain(&tombstone)),
            "3,41,2024-01-01T12:30:00.123Z,,,77\r\n"
        );
        let binary = record(Some(b"k"), Some(&[0xff, 0x00]));
        assert!(written(&RecordCsv::plain(&binary)).contains(",k,/wA=,"));
        let json = serde_json::json!({"id": 7});
        let text = serde_json::json!("plain text");
        let decoded = RecordCsv {
            key: Field::Decoded {
                json: &text,
                encoding: "avro",
                schema_id: Some(1),
            },
            value: Field::Decoded {
                json: &json,
                encoding: "avro",
                schema_id: Some(2),
            },
            ..RecordCsv::plain(&r)
        };
        assert!(written(&decoded).contains(",plain text,\"{\"\"id\"\":7}\",77"));
        let unknown_time = Record {
            timestamp: -1,
            ..record(Some(b"k"), Some(b"v"))
        };
        assert_eq!(
            written(&RecordCsv::plain(&unknown_time)),
            "3,41,,k,v,77\r\n"
        );
    }
}
