//! Shared by the fuzz targets: how a target's input becomes a decode call.
//!
//! Input layout: the first byte picks the version (offset from the request
//! type's lowest), the rest is a response frame without its length prefix
//! (response header + body), exactly what the connection's reader hands to
//! `decode_response`.

use bytes::Bytes;
use kscope::conn::protocol::Message;
use kscope::conn::{Rpc, decode_response};

/// Decode `data` as `R`'s response; any result but an abort or panic is fine.
pub fn decode<R: Rpc>(data: &[u8]) {
    let Some((&selector, frame)) = data.split_first() else {
        return;
    };
    let range = <R as Message>::VERSIONS;
    let span = i32::from(range.max) - i32::from(range.min) + 1;
    let offset = i32::from(selector) % span;
    let Ok(version) = i16::try_from(i32::from(range.min) + offset) else {
        return;
    };
    let _ = decode_response::<R>(Bytes::copy_from_slice(frame), version);
}

/// The corpus file content for a captured frame at `version`.
pub fn corpus_entry<R: Rpc>(version: i16, frame: &[u8]) -> Vec<u8> {
    let range = <R as Message>::VERSIONS;
    let selector = u8::try_from(version - range.min).unwrap_or(0);
    let mut entry = vec![selector];
    entry.extend_from_slice(frame);
    entry
}

/// A v2 record batch (offset 0, epoch 0) with `attributes`, a claimed
/// `count` of records and `records` as its records section (already
/// compressed as the attributes say), with a correct length and CRC: what a
/// fuzz target needs so its bytes reach the record decoder.
pub fn sealed_batch(attributes: i16, count: i32, records: &[u8]) -> Vec<u8> {
    let mut after_crc = Vec::with_capacity(records.len() + 40);
    after_crc.extend_from_slice(&attributes.to_be_bytes());
    after_crc.extend_from_slice(&count.wrapping_sub(1).to_be_bytes());
    after_crc.extend_from_slice(&1_000i64.to_be_bytes());
    after_crc.extend_from_slice(&2_000i64.to_be_bytes());
    after_crc.extend_from_slice(&(-1i64).to_be_bytes());
    after_crc.extend_from_slice(&(-1i16).to_be_bytes());
    after_crc.extend_from_slice(&(-1i32).to_be_bytes());
    after_crc.extend_from_slice(&count.to_be_bytes());
    after_crc.extend_from_slice(records);
    let length = i32::try_from(after_crc.len() + 9).unwrap_or(i32::MAX);
    let mut out = Vec::with_capacity(after_crc.len() + 21);
    out.extend_from_slice(&0i64.to_be_bytes());
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(&0i32.to_be_bytes());
    out.push(2);
    out.extend_from_slice(&crc32c::crc32c(&after_crc).to_be_bytes());
    out.extend_from_slice(&after_crc);
    out
}

/// `data` in the xerial snappy framing the Java client writes: the stream
/// header, then length-prefixed raw snappy blocks of at most 32 KiB input.
pub fn xerial_snappy(data: &[u8]) -> Vec<u8> {
    let mut out = b"\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01".to_vec();
    let mut encoder = snap::raw::Encoder::new();
    for chunk in data.chunks(32 * 1024) {
        let Ok(block) = encoder.compress_vec(chunk) else {
            return out;
        };
        let len = u32::try_from(block.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(&block);
    }
    out
}

/// The inflate cap the `decompress_*` targets decode under (as
/// `record_batch`: browse passes 1 MiB, a small cap reaches the same paths).
pub const DECOMPRESS_CAP: usize = 64 << 10;

/// The snappy-java stream header (magic, version 1, compatible version 1).
pub const XERIAL_HEADER: &[u8; 16] = b"\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01";

/// For the `decompress_*` targets: `data` is `[control][compressed...]`,
/// and the compressed bytes go unchanged into the records section of a v2
/// batch whose attributes say `codec` (1 gzip, 2 snappy, 3 lz4, 4 zstd),
/// sealed with a valid length and CRC-32C, so what a hostile broker could
/// send reaches the decompressor. The control byte's low six bits are the
/// claimed record count; with `xerial` (snappy) its top bit prepends the
/// snappy-java stream header. The batch is decoded as browse does
/// (`browse::batch::items`).
pub fn decode_compressed(codec: i16, xerial: bool, data: &[u8]) {
    use kscope::browse::batch::{BatchError, Item, items};

    let Some((&control, compressed)) = data.split_first() else {
        return;
    };
    let count = i32::from(control & 0x3f);
    let batch = if xerial && control & 0x80 != 0 {
        let mut framed = XERIAL_HEADER.to_vec();
        framed.extend_from_slice(compressed);
        sealed_batch(codec, count, &framed)
    } else {
        sealed_batch(codec, count, compressed)
    };
    let mut seen = 0;
    for item in items(&Bytes::from(batch), 0, DECOMPRESS_CAP) {
        seen += 1;
        match item {
            Item::Batch { records, .. } => {
                for record in &records {
                    assert!(
                        record
                            .value
                            .as_ref()
                            .is_none_or(|v| v.len() <= DECOMPRESS_CAP)
                    );
                }
            }
            // The harness seals every batch: a CRC or framing refusal would
            // mean the decompressor never ran.
            Item::Bad { error, .. } => assert!(
                !matches!(error, BatchError::Crc { .. } | BatchError::UnknownCodec(_)),
                "the sealed batch was refused before inflating: {error}"
            ),
            Item::Partial { .. } => panic!("the sealed batch read as partial"),
        }
    }
    assert_eq!(seen, 1, "one sealed batch, one item");
}
