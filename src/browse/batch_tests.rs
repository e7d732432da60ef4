use bytes::{BufMut, BytesMut};

use super::*;
use crate::browse::error::InflateError;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::indexmap::IndexMap;
use crate::conn::protocol::records::{
    Compression, Record as KRecord, RecordBatchEncoder, RecordEncodeOptions,
    TimestampType as KTimestampType,
};

const CAP: usize = 64 * 1024 * 1024;

fn krecord(offset: i64, value: &str) -> KRecord {
    let mut headers = IndexMap::new();
    headers.insert(
        StrBytes::from_static_str("h"),
        Some(Bytes::from_static(b"v")),
    );
    KRecord {
        transactional: false,
        control: false,
        delete_horizon: false,
        partition_leader_epoch: 7,
        producer_id: -1,
        producer_epoch: -1,
        timestamp_type: KTimestampType::Creation,
        offset,
        sequence: -1,
        timestamp: 1_000 + offset,
        key: Some(Bytes::from(format!("k{offset}"))),
        value: Some(Bytes::from(value.to_owned())),
        headers,
    }
}

fn encoded(first: i64, count: i64, compression: Compression) -> Bytes {
    let records: Vec<KRecord> = (first..first + count)
        .map(|o| krecord(o, "value"))
        .collect();
    let mut buf = BytesMut::new();
    let done = RecordBatchEncoder::encode(
        &mut buf,
        &records,
        &RecordEncodeOptions {
            version: 2,
            compression,
        },
    );
    assert!(done.is_ok(), "encoding failed");
    buf.freeze()
}

#[test]
fn every_codec_decodes_to_the_same_records() {
    for compression in [
        Compression::None,
        Compression::Gzip,
        Compression::Snappy,
        Compression::Lz4,
        Compression::Zstd,
    ] {
        let bytes = encoded(10, 3, compression);
        let mut records = Vec::new();
        let mut next = 0;
        for item in items(&bytes, 4, CAP) {
            let Item::Batch { header, records: r } = item else {
                panic!("{compression:?}: {item:?}");
            };
            next = header.next_offset();
            records.extend(r);
        }
        assert_eq!(next, 13);
        assert_eq!(records.len(), 3);
        let r = &records[1];
        assert_eq!(
            (r.partition, r.offset, r.timestamp, r.leader_epoch),
            (4, 11, 1_011, 7)
        );
        assert_eq!(r.key.as_deref(), Some(&b"k11"[..]));
        assert_eq!(r.value.as_deref(), Some(&b"value"[..]));
        assert_eq!(r.headers.len(), 1);
        assert_eq!(r.timestamp_type, TimestampType::Create);
    }
}

#[test]
fn a_response_ending_in_a_partial_batch_keeps_the_whole_ones() {
    let mut bytes = BytesMut::new();
    bytes.put(raw_batch(
        0,
        &[(b"a", Some(b"1"), &[]), (b"b", Some(b"2"), &[])],
    ));
    let second = raw_batch(2, &[(b"c", Some(b"3"), &[]), (b"d", Some(b"4"), &[])]);
    bytes.put(second.slice(..second.len() - 5));
    let all: Vec<Item> = items(&bytes.freeze(), 0, CAP).collect();
    assert_eq!(all.len(), 2);
    assert!(matches!(&all[0], Item::Batch { records, .. } if records.len() == 2));
    assert_eq!(
        all[1],
        Item::Partial {
            base_offset: Some(2),
            needed: second.len()
        }
    );
    let tiny: Vec<Item> = items(&Bytes::from_static(&[0, 0, 0]), 0, CAP).collect();
    assert_eq!(
        tiny,
        vec![Item::Partial {
            base_offset: None,
            needed: 0
        }]
    );
}

#[test]
fn a_corrupt_batch_is_reported_and_the_next_one_still_decodes() {
    let mut first =
        BytesMut::from(&raw_batch(0, &[(b"a", Some(b"1"), &[]), (b"b", Some(b"2"), &[])])[..]);
    let last = first.len() - 1;
    first[last] ^= 0xff;
    let mut bytes = first;
    bytes.put(raw_batch(2, &[(b"c", Some(b"3"), &[])]));
    let all: Vec<Item> = items(&bytes.freeze(), 0, CAP).collect();
    assert!(matches!(
        &all[0],
        Item::Bad {
            base_offset: 0,
            next_offset: 2,
            error: BatchError::Crc { .. }
        }
    ));
    assert!(matches!(&all[1], Item::Batch { records, .. } if records[0].offset == 2));
}

#[test]
fn old_message_formats_are_named() {
    let mut old = BytesMut::from(&encoded(5, 1, Compression::None)[..]);
    old[16] = 1;
    let all: Vec<Item> = items(&old.freeze(), 0, CAP).collect();
    assert_eq!(
        all,
        vec![Item::Bad {
            base_offset: 5,
            next_offset: 6,
            error: BatchError::OldFormat(1)
        }]
    );
}

#[test]
fn an_inflation_past_the_cap_fails_that_batch_only() {
    let records: Vec<KRecord> = (0..1).map(|o| krecord(o, &"x".repeat(30_000))).collect();
    let mut buf = BytesMut::new();
    let done = RecordBatchEncoder::encode(
        &mut buf,
        &records,
        &RecordEncodeOptions {
            version: 2,
            compression: Compression::Zstd,
        },
    );
    assert!(done.is_ok());
    let all: Vec<Item> = items(&buf.freeze(), 0, 20_000).collect();
    assert_eq!(all.len(), 1, "{all:?}");
    assert!(matches!(
        &all[0],
        Item::Bad {
            next_offset: 1,
            error: BatchError::Inflate(InflateError::TooLarge { .. }),
            ..
        }
    ));
}

/// A hand-made uncompressed batch (the crate's encoder collapses duplicate
/// header keys, so it cannot make one).
type Header<'a> = (&'a [u8], Option<&'a [u8]>);
type Raw<'a> = (&'a [u8], Option<&'a [u8]>, &'a [Header<'a>]);

fn raw_batch(base: i64, records: &[Raw]) -> Bytes {
    fn varint(buf: &mut Vec<u8>, v: i64) {
        #[allow(clippy::cast_sign_loss)]
        let mut z = ((v << 1) ^ (v >> 63)) as u64;
        while z >= 0x80 {
            buf.push(u8::try_from(z & 0x7f).unwrap_or(0) | 0x80);
            z >>= 7;
        }
        buf.push(u8::try_from(z).unwrap_or(0));
    }
    fn field(buf: &mut Vec<u8>, b: Option<&[u8]>) {
        match b {
            None => varint(buf, -1),
            Some(b) => {
                varint(buf, i64::try_from(b.len()).unwrap_or(0));
                buf.extend_from_slice(b);
            }
        }
    }
    let mut body = Vec::new();
    for (i, (key, value, headers)) in records.iter().enumerate() {
        let mut rec = vec![0u8];
        varint(&mut rec, 0);
        varint(&mut rec, i64::try_from(i).unwrap_or(0));
        field(&mut rec, Some(key));
        field(&mut rec, *value);
        varint(&mut rec, i64::try_from(headers.len()).unwrap_or(0));
        for (k, v) in *headers {
            field(&mut rec, Some(k));
            field(&mut rec, *v);
        }
        varint(&mut body, i64::try_from(rec.len()).unwrap_or(0));
        body.extend_from_slice(&rec);
    }
    let count = i32::try_from(records.len()).unwrap_or(0);
    let mut after_crc = Vec::new();
    after_crc.extend_from_slice(&0i16.to_be_bytes());
    after_crc.extend_from_slice(&(count - 1).to_be_bytes());
    after_crc.extend_from_slice(&500i64.to_be_bytes());
    after_crc.extend_from_slice(&500i64.to_be_bytes());
    after_crc.extend_from_slice(&(-1i64).to_be_bytes());
    after_crc.extend_from_slice(&(-1i16).to_be_bytes());
    after_crc.extend_from_slice(&(-1i32).to_be_bytes());
    after_crc.extend_from_slice(&count.to_be_bytes());
    after_crc.extend_from_slice(&body);
    let mut out = Vec::new();
    out.extend_from_slice(&base.to_be_bytes());
    out.extend_from_slice(
        &i32::try_from(after_crc.len() + 9)
            .unwrap_or(0)
            .to_be_bytes(),
    );
    out.extend_from_slice(&0i32.to_be_bytes());
    out.push(2);
    out.extend_from_slice(&crc32c::crc32c(&after_crc).to_be_bytes());
    out.extend_from_slice(&after_crc);
    Bytes::from(out)
}

#[test]
fn duplicate_header_keys_and_nulls_are_kept() {
    let bytes = raw_batch(
        0,
        &[(
            b"k",
            None,
            &[(b"trace", Some(b"1")), (b"trace", Some(b"2")), (b"n", None)],
        )],
    );
    let all: Vec<Item> = items(&bytes, 0, CAP).collect();
    let Item::Batch { records, .. } = &all[0] else {
        panic!("{:?}", all[0]);
    };
    let r = &records[0];
    assert_eq!(r.value, None, "a tombstone");
    let keys: Vec<&[u8]> = r.headers.iter().map(|h| h.key.as_ref()).collect();
    assert_eq!(keys, [&b"trace"[..], b"trace", b"n"]);
    assert_eq!(r.headers[1].value.as_deref(), Some(&b"2"[..]));
    assert_eq!(r.headers[2].value, None);
}

#[test]
fn garbage_never_panics() {
    let good = raw_batch(0, &[(b"k", Some(b"v"), &[])]);
    for cut in 0..good.len() {
        let _ = items(&good.slice(..cut), 0, CAP).count();
    }
    for i in 0..good.len() {
        let mut bad = BytesMut::from(&good[..]);
        bad[i] = bad[i].wrapping_add(0x5a);
        let _ = items(&bad.freeze(), 0, CAP).count();
    }
}

#[test]
fn a_batch_length_too_short_to_hold_the_magic_byte_is_malformed_not_a_panic() {
    // Found by the record_batch fuzz target: a length of 0 made a 12-byte
    // batch, and reading its magic byte (offset 16) indexed past the end.
    for length in [-1i32, 0, 4] {
        let mut bytes = 7i64.to_be_bytes().to_vec();
        bytes.extend_from_slice(&length.to_be_bytes());
        bytes.extend_from_slice(&[0xff; 40]);
        let all: Vec<Item> = items(&Bytes::from(bytes), 0, CAP).collect();
        assert!(
            matches!(
                all.as_slice(),
                [Item::Bad {
                    base_offset: 7,
                    next_offset: 8,
                    error: BatchError::Malformed(_)
                }]
            ),
            "length {length}: {all:?}"
        );
    }
    // The fuzz input's tail, which the target appends as a second batch:
    // a negative length with 19 bytes left.
    let found = [
        0x87, 0x87, 0x87, 0x87, 0x87, 0xff, 0x04, 0x0c, 0x97, 0xff, 0xd5, 0x20, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0x89,
    ];
    let _ = items(&Bytes::copy_from_slice(&found), 0, CAP).count();
}
