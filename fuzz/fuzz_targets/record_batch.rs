//! Decode record batches the way browse does (`browse::batch::items`), with
//! every codec. The input is not fed raw: a random batch would stop at its
//! CRC, so the target builds a v2 batch around the input (its records section
//! compressed with the chosen codec, a valid CRC) and appends the raw input as
//! a second, usually corrupt, batch. A repeat factor turns small inputs into
//! inflation bombs: up to 80 KiB of records compressed to a few bytes,
//! decoded under a 64 KiB inflate cap, so going past the cap must be an error
//! for that batch and never an allocation of the inflated size. The cap is a
//! parameter of `items` (browse passes 1 MiB); a small one reaches the same
//! paths at a sixteenth of the cost. (Until stop 23 the target built up to
//! 1.25 MiB under a 1 MiB cap, and compressing that held it at 0.6-4.7k
//! executions/s as the corpus grew.)
#![no_main]

use std::io::Write;

use bytes::Bytes;
use kscope::browse::batch::{Item, items};

/// The inflate cap the target decodes under.
const CAP: usize = 64 << 10;
/// The largest records section built (before compression): past the cap.
const MAX_SECTION: usize = CAP + CAP / 4;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&[mode, flags], rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let Some((count, section)) = rest.split_first_chunk::<4>() else {
        return;
    };
    let repeat = 1usize << ((flags >> 6) * 4);
    let mut records = Vec::new();
    while records.len() + section.len() <= MAX_SECTION && records.len() < section.len() * repeat {
        records.extend_from_slice(section);
        if section.is_empty() {
            break;
        }
    }
    let codec = mode % 5;
    let Some(compressed) = compress(codec, mode & 0x80 != 0, &records) else {
        return;
    };
    // Codec in the low bits; timestamp type, transactional and control from `flags`.
    let attributes = i16::from(codec) | i16::from(flags & 0x38);
    let mut bytes = kscope_fuzz::sealed_batch(attributes, i32::from_be_bytes(*count), &compressed);
    bytes.extend_from_slice(rest);
    for item in items(&Bytes::from(bytes), 0, CAP) {
        if let Item::Batch { records, .. } = item {
            for record in &records {
                assert!(record.value.as_ref().is_none_or(|v| v.len() <= CAP));
            }
        }
    }
});

/// `records` compressed with Kafka's codec number `codec` (snappy in the
/// xerial framing the Java client writes, or a raw block when `raw_snappy`).
fn compress(codec: u8, raw_snappy: bool, records: &[u8]) -> Option<Vec<u8>> {
    match codec {
        0 => Some(records.to_vec()),
        1 => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(records).ok()?;
            gz.finish().ok()
        }
        2 if raw_snappy => snap::raw::Encoder::new().compress_vec(records).ok(),
        2 => Some(kscope_fuzz::xerial_snappy(records)),
        3 => {
            let mut lz4 = lz4::EncoderBuilder::new().build(Vec::new()).ok()?;
            lz4.write_all(records).ok()?;
            let (out, done) = lz4.finish();
            done.ok().map(|()| out)
        }
        _ => zstd::encode_all(records, 1).ok(),
    }
}
