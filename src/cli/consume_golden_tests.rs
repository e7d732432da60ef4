//! `consume`'s output, byte for byte, over a matrix of records (every codec,
//! null / text / binary / escaped keys and values, headers with duplicates,
//! nulls and binary values, schema-decoded and failed fields) in every
//! format, against files written before the output was rewritten for speed:
//! `tests/golden/consume.{json,table,raw}`. `KSCOPE_BLESS=1` writes them.

use std::path::PathBuf;

use bytes::Bytes;
use serde_json::json;

use super::*;
use crate::browse::{Codec, Header, TimestampType};
use crate::schema::{Decoded, Format};

#[allow(clippy::unnecessary_wraps)] // reads as the record's Option fields
fn bytes(b: &[u8]) -> Option<Bytes> {
    Some(Bytes::copy_from_slice(b))
}

/// Every mix of key, value, headers, codec and timestamp type the fixture covers.
fn records() -> Vec<Record> {
    let keys: Vec<Option<Bytes>> = vec![
        None,
        bytes(b"order-4711"),
        bytes(&[0xff, 0x00, 0x7f]),
        bytes("a\"b\\c\n\t\u{1b}[31m\u{202e}é中".as_bytes()),
    ];
    let long = "x".repeat(300);
    let values: Vec<Option<Bytes>> = vec![
        None,
        bytes(br#"{"id":1,"status":"FAILED","nested":{"a":[1,2,3]},"s":"q\"uote"}"#),
        bytes(&[0, 1, 2, 0xc3, 0x28, 0xfe]),
        bytes("plain text with unicode ✓ 🚀 and \u{7f} del".as_bytes()),
        bytes(long.as_bytes()),
        bytes(b""),
    ];
    let headers: Vec<Vec<Header>> = vec![
        vec![],
        vec![Header {
            key: Bytes::from_static(b"region"),
            value: bytes(b"eu"),
        }],
        vec![
            Header {
                key: Bytes::from_static(b"dup"),
                value: bytes(b"1"),
            },
            Header {
                key: Bytes::from_static(b"dup"),
                value: None,
            },
            Header {
                key: Bytes::from_static(&[0xff, b'k']),
                value: bytes(&[0x80, 0x81]),
            },
        ],
    ];
    let codecs = [
        Codec::None,
        Codec::Gzip,
        Codec::Snappy,
        Codec::Lz4,
        Codec::Zstd,
    ];
    let mut out = Vec::new();
    let mut offset = 0_i64;
    for key in &keys {
        for value in &values {
            for (h, headers) in headers.iter().enumerate() {
                let codec = codecs[usize::try_from(offset).unwrap_or(0) % codecs.len()];
                out.push(Record {
                    partition: i32::try_from(offset % 7).unwrap_or(0),
                    offset: offset * 1_000_003,
                    leader_epoch: if h == 0 { -1 } else { 12 },
                    timestamp: 1_700_000_000_000 + offset * 61_001,
                    timestamp_type: if offset % 2 == 0 {
                        TimestampType::Create
                    } else {
                        TimestampType::LogAppend
                    },
                    key: key.clone(),
                    value: value.clone(),
                    headers: headers.clone(),
                    codec,
                    size: usize::try_from(offset).unwrap_or(0) * 17 + 70,
                });
                offset += 1;
            }
        }
    }
    out
}

/// Schema decodings for a few records: none, decoded with and without a
/// registry id, failed.
fn decodings(n: usize) -> Option<RecordDecoding> {
    let decoded = |id: u32, format: Format| {
        Decoding::Decoded(Decoded {
            schema_id: id,
            format,
            subject: Some("s".to_owned()),
            version: Some(1),
            message_type: None,
            value: json!({"id": 7, "name": "a\"b", "tags": ["x", null], "n": 1.5}),
        })
    };
    let failed = Decoding::Failed {
        schema_id: 99,
        reason: "schema id 99 not found in the registry".to_owned(),
    };
    match n % 6 {
        0 => None,
        1 => Some(RecordDecoding {
            key: Decoding::NotFramed,
            value: decoded(7, Format::Avro),
        }),
        2 => Some(RecordDecoding {
            key: decoded(3, Format::Protobuf),
            value: failed,
        }),
        3 => Some(RecordDecoding {
            key: failed.clone(),
            value: decoded(0, Format::JsonSchema),
        }),
        4 => Some(RecordDecoding {
            key: Decoding::NotFramed,
            value: Decoding::NotFramed,
        }),
        _ => Some(RecordDecoding {
            key: failed,
            value: decoded(5, Format::Avro),
        }),
    }
}

fn render(output: OutputFormat) -> Vec<u8> {
    let mut out = Vec::new();
    let mut printer = Printer::default();
    for (n, record) in records().iter().enumerate() {
        let decoding = match output {
            OutputFormat::Raw => None,
            _ => decodings(n),
        };
        printer
            .write("orders", record, decoding.as_ref(), output, &mut out)
            .expect("written");
    }
    out
}

fn check(name: &str, output: OutputFormat) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    let got = render(output);
    if std::env::var_os("KSCOPE_BLESS").is_some() {
        std::fs::write(&path, &got).expect("golden written");
        return;
    }
    let want = std::fs::read(&path).expect("golden file (KSCOPE_BLESS=1 writes it)");
    if got != want {
        let got = String::from_utf8_lossy(&got);
        let want = String::from_utf8_lossy(&want);
        for (n, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "{name} line {}", n + 1);
        }
        assert_eq!(
            got.lines().count(),
            want.lines().count(),
            "{name} line count"
        );
    }
}

#[test]
fn json_output_is_byte_for_byte_the_golden_file() {
    check("consume.json", OutputFormat::Json);
}

#[test]
fn table_output_is_byte_for_byte_the_golden_file() {
    check("consume.table", OutputFormat::Table);
}

#[test]
fn raw_output_is_byte_for_byte_the_golden_file() {
    check("consume.raw", OutputFormat::Raw);
}
