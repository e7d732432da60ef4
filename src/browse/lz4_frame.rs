//! LZ4 frames as Kafka holds them, decoded block by block straight into one
//! buffer (no streaming decoder, no intermediate copy).
//!
//! Every LZ4 batch in a Kafka log passed the broker's own reader
//! (`KafkaLZ4BlockInputStream`), which decompresses each block on its own:
//! blocks are independent, as Kafka's writer makes them. That reader does not
//! verify the content checksum, and neither does this one: the batch's
//! CRC-32C, checked before any inflating, already covers every compressed
//! byte, so the frame's own checksums (header, block, content) are skipped
//! rather than computed again. A frame this path does not take (linked
//! blocks, a dictionary, another frame version or magic) is handed back to
//! the caller, which reads it with the general streaming decoder.

use super::error::InflateError;

/// The LZ4 frame magic number (little-endian on the wire).
const MAGIC: u32 = 0x184D_2204;

const CODEC: &str = "lz4";

fn corrupt(message: impl Into<String>) -> InflateError {
    InflateError::Corrupt {
        codec: CODEC,
        message: message.into(),
    }
}

fn too_large(cap: usize) -> InflateError {
    InflateError::TooLarge { codec: CODEC, cap }
}

/// Split `n` bytes off the front of `rest`, or say what was cut short.
fn take<'a>(rest: &mut &'a [u8], n: usize, what: &str) -> Result<&'a [u8], InflateError> {
    let (head, tail) = rest
        .split_at_checked(n)
        .ok_or_else(|| corrupt(format!("truncated {what}")))?;
    *rest = tail;
    Ok(head)
}

/// Decode the LZ4 frame `compressed`, producing at most `cap` bytes;
/// `Ok(None)` when the frame needs the general decoder (see the module).
pub fn inflate(compressed: &[u8], cap: usize) -> Result<Option<Vec<u8>>, InflateError> {
    let mut rest = compressed;
    let magic = take(&mut rest, 4, "frame magic")?;
    if magic != MAGIC.to_le_bytes() {
        return Ok(None);
    }
    let &[flags, block_descriptor] = take(&mut rest, 2, "frame descriptor")? else {
        return Err(corrupt("truncated frame descriptor"));
    };
    let (version, independent, dictionary) = (flags >> 6, flags & 0x20 != 0, flags & 0x01 != 0);
    if version != 1 || !independent || dictionary {
        return Ok(None);
    }
    let block_max: usize = match (block_descriptor >> 4) & 0x7 {
        4 => 64 << 10,
        5 => 256 << 10,
        6 => 1 << 20,
        7 => 4 << 20,
        other => return Err(corrupt(format!("block maximum size code {other}"))),
    };
    let block_checksums = flags & 0x10 != 0;
    if flags & 0x08 != 0 {
        take(&mut rest, 8, "content size")?;
    }
    take(&mut rest, 1, "header checksum")?;

    // One allocation: the blocks' sizes bound the output (a block inflates
    // at most ~255×, and never past the frame's block size).
    let bound: usize = Blocks {
        rest,
        block_checksums,
    }
    .map_while(Result::ok)
    .map(|block| match block {
        Block::Stored(data) => data.len(),
        Block::Compressed(data) => data
            .len()
            .saturating_mul(255)
            .saturating_add(16)
            .min(block_max),
    })
    .fold(0, usize::saturating_add);
    let mut out = super::buffers::take(bound.min(cap));
    for block in (Blocks {
        rest,
        block_checksums,
    }) {
        let block = block?;
        let (Block::Stored(data) | Block::Compressed(data)) = block;
        if data.len() > block_max {
            return Err(corrupt(format!(
                "a {}-byte block in a frame of {block_max}-byte blocks",
                data.len()
            )));
        }
        match block {
            Block::Stored(data) => {
                if out.len().saturating_add(data.len()) > cap {
                    return Err(too_large(cap));
                }
                out.extend_from_slice(data);
            }
            Block::Compressed(data) => decode_block(data, block_max, cap, &mut out)?,
        }
    }
    Ok(Some(out))
}

/// One block of a frame.
enum Block<'a> {
    /// Held as is (the high bit of its size).
    Stored(&'a [u8]),
    /// LZ4-compressed.
    Compressed(&'a [u8]),
}

/// The blocks of a frame up to its end mark (a content checksum may follow
/// it: not verified); a truncated block is an error, and the last item.
struct Blocks<'a> {
    rest: &'a [u8],
    block_checksums: bool,
}

impl<'a> Iterator for Blocks<'a> {
    type Item = Result<Block<'a>, InflateError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut block = || {
            let size = take(&mut self.rest, 4, "block size")?;
            let size = u32::from_le_bytes([size[0], size[1], size[2], size[3]]);
            if size == 0 {
                return Ok(None);
            }
            let len = usize::try_from(size & 0x7FFF_FFFF).unwrap_or(usize::MAX);
            let data = take(&mut self.rest, len, "block")?;
            if self.block_checksums {
                take(&mut self.rest, 4, "block checksum")?;
            }
            Ok(Some(if size & 0x8000_0000 != 0 {
                Block::Stored(data)
            } else {
                Block::Compressed(data)
            }))
        };
        let next = block();
        if !matches!(next, Ok(Some(_))) {
            self.rest = &[];
        }
        next.transpose()
    }
}

/// Append one compressed block (at most `block_max` bytes once decoded) to
/// `out`, never letting `out` pass `cap`. The block is decoded straight into
/// `out`'s spare room: no zeroing, no copy (a scratch block copied over was
/// a tenth of `consume -o raw`'s time).
fn decode_block(
    block: &[u8],
    block_max: usize,
    cap: usize,
    out: &mut Vec<u8>,
) -> Result<(), InflateError> {
    // Room for one byte past the cap, so going past it is seen as such.
    let room = block_max.min(cap.saturating_sub(out.len()).saturating_add(1));
    match decompress_appending(block, room, out) {
        Some(_) if out.len() > cap => Err(too_large(cap)),
        Some(_) => Ok(()),
        None if room < block_max => {
            // Cut short by the cap, or corrupt? Decoding with the block's
            // full room tells which (rare: a batch at its inflate cap).
            let mut whole = vec![0; block_max];
            let max = i32::try_from(block_max).unwrap_or(i32::MAX);
            match lz4::block::decompress_to_buffer(block, Some(max), &mut whole) {
                Ok(_) => Err(too_large(cap)),
                Err(e) => Err(corrupt(e.to_string())),
            }
        }
        None => Err(corrupt("Decompression failed. Input invalid or too long?")),
    }
}

/// Decode the LZ4 block `block` onto the end of `out`, writing at most
/// `room` bytes; the bytes written, or `None` when the block is corrupt or
/// needs more room.
#[allow(unsafe_code)] // FFI into the spare capacity of a Vec: one copy less per record byte
fn decompress_appending(block: &[u8], room: usize, out: &mut Vec<u8>) -> Option<usize> {
    out.reserve(room);
    let spare = out.spare_capacity_mut();
    let room = room.min(spare.len());
    let (Ok(len), Ok(max)) = (i32::try_from(block.len()), i32::try_from(room)) else {
        return None;
    };
    // SAFETY: LZ4_decompress_safe reads `len` bytes of `block` and writes at
    // most `max` bytes at `spare`, which has at least `room` = `max` bytes of
    // capacity; it reads back only bytes it wrote itself (a match reaching
    // before the output's start is an error), never the uninitialised rest.
    let written = unsafe {
        lz4::liblz4::LZ4_decompress_safe(block.as_ptr().cast(), spare.as_mut_ptr().cast(), len, max)
    };
    let written = usize::try_from(written).ok()?;
    // SAFETY: LZ4 initialised the first `written` (<= room) spare bytes.
    unsafe { out.set_len(out.len() + written) };
    Some(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn frame(data: &[u8], checksums: bool, mode: lz4::BlockMode) -> Vec<u8> {
        let checksum = if checksums {
            lz4::ContentChecksum::ChecksumEnabled
        } else {
            lz4::ContentChecksum::NoChecksum
        };
        let mut encoder = lz4::EncoderBuilder::new()
            .block_size(lz4::BlockSize::Max64KB)
            .block_mode(mode)
            .checksum(checksum)
            .build(Vec::new())
            .expect("an encoder");
        encoder.write_all(data).expect("compress");
        let (out, done) = encoder.finish();
        done.expect("finish");
        out
    }

    fn sample(len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| u8::try_from((i * 7 + i / 300) % 251).unwrap_or(0))
            .collect()
    }

    #[test]
    fn independent_blocks_decode_whole_with_or_without_checksums() {
        let data = sample(300_000); // five 64 KiB blocks
        for checksums in [false, true] {
            let framed = frame(&data, checksums, lz4::BlockMode::Independent);
            let out = inflate(&framed, 1 << 20)
                .expect("decodes")
                .expect("this path");
            assert_eq!(out, data, "checksums {checksums}");
        }
        let empty = frame(&[], false, lz4::BlockMode::Independent);
        assert_eq!(inflate(&empty, 16).expect("decodes"), Some(Vec::new()));
    }

    #[test]
    fn past_the_cap_is_too_large_and_corrupt_blocks_are_corrupt() {
        let data = sample(300_000);
        let framed = frame(&data, false, lz4::BlockMode::Independent);
        // The cap falls inside the second block and exactly at the end.
        assert_eq!(inflate(&framed, 100_000), Err(too_large(100_000)));
        assert!(matches!(
            inflate(&framed, 299_999),
            Err(InflateError::TooLarge { .. })
        ));
        assert_eq!(
            inflate(&framed, 300_000).expect("fits").map(|o| o.len()),
            Some(300_000)
        );

        let mut broken = framed.clone();
        broken.truncate(framed.len() / 2);
        assert!(matches!(
            inflate(&broken, 1 << 20),
            Err(InflateError::Corrupt { .. })
        ));
        let mut scrambled = framed;
        for byte in scrambled.iter_mut().skip(12).take(40) {
            *byte = 0xFF;
        }
        assert!(matches!(
            inflate(&scrambled, 1 << 20),
            Err(InflateError::Corrupt { .. })
        ));
    }

    #[test]
    fn linked_blocks_and_other_magics_go_to_the_general_decoder() {
        let data = sample(200_000);
        let linked = frame(&data, false, lz4::BlockMode::Linked);
        assert_eq!(inflate(&linked, 1 << 20), Ok(None));
        assert_eq!(inflate(b"\x50\x2A\x4D\x18rest", 1 << 20), Ok(None));
        assert!(matches!(
            inflate(b"\x04", 16),
            Err(InflateError::Corrupt { .. })
        ));
    }
}
