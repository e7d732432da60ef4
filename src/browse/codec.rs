//! Bounded decompression of a record batch's records: every codec Kafka
//! uses (gzip, snappy in its xerial framing or raw, lz4 frames, zstd), and
//! a batch that inflates past the cap is an error for that batch, never an
//! out-of-memory.

use std::cell::RefCell;
use std::io::Read;

use bytes::Bytes;

use super::error::InflateError;

/// A record batch's compression codec (the low three bits of its attributes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// Not compressed.
    None,
    Gzip,
    /// Snappy (xerial framing, as the Java client writes it, or raw).
    Snappy,
    /// LZ4 frames.
    Lz4,
    /// Zstandard.
    Zstd,
}

impl Codec {
    /// The codec named by a batch's attributes, if it is one Kafka defines.
    pub fn from_attributes(attributes: i16) -> Option<Codec> {
        match attributes & 0x7 {
            0 => Some(Codec::None),
            1 => Some(Codec::Gzip),
            2 => Some(Codec::Snappy),
            3 => Some(Codec::Lz4),
            4 => Some(Codec::Zstd),
            _ => None,
        }
    }

    /// The name Kafka's `compression.type` uses.
    pub fn name(self) -> &'static str {
        match self {
            Codec::None => "none",
            Codec::Gzip => "gzip",
            Codec::Snappy => "snappy",
            Codec::Lz4 => "lz4",
            Codec::Zstd => "zstd",
        }
    }
}

/// The snappy-java stream header: magic, then version and compatible version.
const XERIAL_MAGIC: &[u8] = b"\x82SNAPPY\x00";
const XERIAL_HEADER_LEN: usize = 16;

thread_local! {
    /// The zstd decompression context of this thread, reused batch after batch.
    static ZSTD_CONTEXT: RefCell<zstd::zstd_safe::DCtx<'static>> =
        RefCell::new(zstd::zstd_safe::DCtx::create());
}

/// Decompress `compressed` (a batch's records) with `codec`, refusing to
/// produce more than `cap` bytes.
pub fn inflate(codec: Codec, compressed: &Bytes, cap: usize) -> Result<Bytes, InflateError> {
    let corrupt = |message: String| InflateError::Corrupt {
        codec: codec.name(),
        message,
    };
    match codec {
        Codec::None => {
            if compressed.len() > cap {
                return Err(InflateError::TooLarge {
                    codec: codec.name(),
                    cap,
                });
            }
            Ok(compressed.clone())
        }
        Codec::Gzip => read_capped(
            codec,
            flate2::read::MultiGzDecoder::new(&compressed[..]),
            compressed.len(),
            cap,
        ),
        Codec::Lz4 => {
            // Kafka's frames (independent blocks) block by block into one
            // buffer; anything else through liblz4's streaming decoder.
            if let Some(out) = super::lz4_frame::inflate(compressed, cap)? {
                return Ok(super::buffers::into_bytes(out));
            }
            let decoder = lz4::Decoder::new(&compressed[..]).map_err(|e| corrupt(e.to_string()))?;
            read_capped(codec, decoder, compressed.len(), cap)
        }
        Codec::Zstd => ZSTD_CONTEXT.with(|context| {
            // One decompression context per thread: creating one costs more
            // than decompressing a typical batch (it was 80 % of zstd decode).
            let mut context = context.borrow_mut();
            // A batch refused part-way (corrupt, past the cap) leaves the
            // context mid-frame; every batch starts from a clean session.
            context
                .reset(zstd::zstd_safe::ResetDirective::SessionOnly)
                .map_err(|code| corrupt(zstd::zstd_safe::get_error_name(code).to_owned()))?;
            let decoder = zstd::stream::read::Decoder::with_context(&compressed[..], &mut context);
            read_capped(codec, decoder, compressed.len(), cap)
        }),
        Codec::Snappy => snappy(compressed, cap),
    }
}

/// Read a decompressor to its end, at most `cap` bytes.
fn read_capped(
    codec: Codec,
    reader: impl Read,
    compressed_len: usize,
    cap: usize,
) -> Result<Bytes, InflateError> {
    let mut out = super::buffers::take(compressed_len.saturating_mul(4).min(cap));
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    reader
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|e| InflateError::Corrupt {
            codec: codec.name(),
            message: e.to_string(),
        })?;
    if out.len() > cap {
        return Err(InflateError::TooLarge {
            codec: codec.name(),
            cap,
        });
    }
    Ok(super::buffers::into_bytes(out))
}

fn snappy(compressed: &[u8], cap: usize) -> Result<Bytes, InflateError> {
    let corrupt = |message: String| InflateError::Corrupt {
        codec: "snappy",
        message,
    };
    if !compressed.starts_with(XERIAL_MAGIC) {
        let mut out = Vec::new();
        raw_snappy_block(compressed, cap, &mut out)?;
        return Ok(Bytes::from(out));
    }
    let mut rest = compressed
        .get(XERIAL_HEADER_LEN..)
        .ok_or_else(|| corrupt("truncated xerial header".to_owned()))?;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let (len, tail) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| corrupt("truncated block length".to_owned()))?;
        let len = usize::try_from(u32::from_be_bytes(*len)).unwrap_or(usize::MAX);
        if len > tail.len() {
            return Err(corrupt(format!(
                "a {len}-byte block with {} bytes left",
                tail.len()
            )));
        }
        let (block, tail) = tail.split_at(len);
        raw_snappy_block(block, cap, &mut out)?;
        rest = tail;
    }
    Ok(Bytes::from(out))
}

/// Append one raw snappy block to `out`, checking its claimed length first.
fn raw_snappy_block(block: &[u8], cap: usize, out: &mut Vec<u8>) -> Result<(), InflateError> {
    let corrupt = |e: snap::Error| InflateError::Corrupt {
        codec: "snappy",
        message: e.to_string(),
    };
    let len = snap::raw::decompress_len(block).map_err(corrupt)?;
    let start = out.len();
    if start.saturating_add(len) > cap {
        return Err(InflateError::TooLarge {
            codec: "snappy",
            cap,
        });
    }
    out.resize(start + len, 0);
    let written = snap::raw::Decoder::new()
        .decompress(block, &mut out[start..])
        .map_err(corrupt)?;
    out.truncate(start + written);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::compression::{Compressor, Gzip, Lz4, Snappy, Zstd};
    use bytes::{BufMut, BytesMut};

    fn compressed<C: Compressor<BytesMut>>(data: &[u8]) -> Bytes
    where
        C::BufMut: BufMut,
    {
        let mut out = BytesMut::new();
        let done = C::compress(&mut out, |buf| {
            buf.put_slice(data);
            Ok(())
        });
        assert!(done.is_ok(), "compressing failed");
        out.freeze()
    }

    #[test]
    fn every_codec_round_trips_within_the_cap() {
        let data: Vec<u8> = (0..100_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        for (codec, bytes) in [
            (Codec::Gzip, compressed::<Gzip>(&data)),
            (Codec::Snappy, compressed::<Snappy>(&data)),
            (Codec::Lz4, compressed::<Lz4>(&data)),
            (Codec::Zstd, compressed::<Zstd>(&data)),
        ] {
            let out = inflate(codec, &bytes, data.len()).expect("inflates");
            assert_eq!(out.as_ref(), data.as_slice(), "{}", codec.name());
            assert_eq!(
                inflate(codec, &bytes, data.len() - 1),
                Err(InflateError::TooLarge {
                    codec: codec.name(),
                    cap: data.len() - 1
                }),
                "{} past the cap",
                codec.name()
            );
        }
    }

    #[test]
    fn a_bomb_is_refused_at_the_cap_not_inflated() {
        let zeros = vec![0u8; 50 * 1024 * 1024];
        for (codec, bytes) in [
            (Codec::Gzip, compressed::<Gzip>(&zeros)),
            (Codec::Zstd, compressed::<Zstd>(&zeros)),
            (Codec::Lz4, compressed::<Lz4>(&zeros)),
            (Codec::Snappy, compressed::<Snappy>(&zeros)),
        ] {
            assert!(
                bytes.len() < zeros.len() / 20,
                "{} compresses",
                codec.name()
            );
            assert!(matches!(
                inflate(codec, &bytes, 1024 * 1024),
                Err(InflateError::TooLarge { .. })
            ));
        }
    }

    #[test]
    fn garbage_is_corrupt_not_a_crash() {
        let garbage =
            Bytes::from_static(b"\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01\xff\xff\xff\xff");
        for codec in [Codec::Gzip, Codec::Snappy, Codec::Lz4, Codec::Zstd] {
            assert!(
                matches!(
                    inflate(codec, &garbage, 1024),
                    Err(InflateError::Corrupt { .. })
                ),
                "{}",
                codec.name()
            );
        }
    }

    #[test]
    fn a_zstd_batch_refused_part_way_leaves_the_next_batch_whole() {
        let data: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i % 13).to_le_bytes())
            .collect();
        let bytes = compressed::<Zstd>(&data);
        // Refused mid-frame (past the cap), then cut short: the thread's
        // reused context must not carry either into the next batch.
        assert!(matches!(
            inflate(Codec::Zstd, &bytes, 1000),
            Err(InflateError::TooLarge { .. })
        ));
        let cut = bytes.slice(..bytes.len() / 2);
        assert!(inflate(Codec::Zstd, &cut, data.len()).is_err());
        let out = inflate(Codec::Zstd, &bytes, data.len()).expect("inflates");
        assert_eq!(out.as_ref(), data.as_slice());
    }
}
