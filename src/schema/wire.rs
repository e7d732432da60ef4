//! The Confluent wire format: magic byte 0, a 4-byte big-endian schema id,
//! then the payload; for Protobuf the payload starts with the message-index
//! path (which message of the schema's file it is).
//!
//! Apicurio's own framing (an 8-byte global id) is not read: a value that
//! does not start with the magic byte is simply not framed.

/// A value split into its schema id and the bytes after the prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Framed<'a> {
    /// The schema id the producer's serializer registered.
    pub schema_id: u32,
    /// Everything after the 5-byte prefix.
    pub payload: &'a [u8],
}

/// Split a Confluent-framed value; `None` when it is not framed (too short or
/// another first byte).
pub fn split(bytes: &[u8]) -> Option<Framed<'_>> {
    let (&magic, rest) = bytes.split_first()?;
    if magic != 0 || rest.len() < 4 {
        return None;
    }
    let (id, payload) = rest.split_at(4);
    let schema_id = u32::from_be_bytes([id[0], id[1], id[2], id[3]]);
    Some(Framed { schema_id, payload })
}

/// The longest message-index path read (deeper nesting is refused: no real
/// schema nests messages this deep, and a hostile count must not allocate).
pub const MAX_INDEX_DEPTH: usize = 64;

/// Read the Protobuf message-index path at the start of `payload`: a zigzag
/// varint count, then that many zigzag varint indexes; a count of 0 (the
/// single byte 0) means `[0]`, the file's first message. Returns the path and
/// the message bytes after it.
pub fn message_index(payload: &[u8]) -> Result<(Vec<usize>, &[u8]), String> {
    let (count, mut rest) = zigzag(payload)?;
    if count == 0 {
        return Ok((vec![0], rest));
    }
    let count = usize::try_from(count)
        .ok()
        .filter(|c| *c <= MAX_INDEX_DEPTH)
        .ok_or_else(|| format!("message index count {count} is out of range"))?;
    let mut path = Vec::with_capacity(count);
    for _ in 0..count {
        let (index, after) = zigzag(rest)?;
        let index =
            usize::try_from(index).map_err(|_| format!("message index {index} is negative"))?;
        path.push(index);
        rest = after;
    }
    Ok((path, rest))
}

/// One zigzag-encoded varint (at most 10 bytes) and the bytes after it.
fn zigzag(bytes: &[u8]) -> Result<(i64, &[u8]), String> {
    let mut value: u64 = 0;
    for (i, &byte) in bytes.iter().enumerate().take(10) {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            #[allow(clippy::cast_possible_wrap)]
            let decoded = ((value >> 1) as i64) ^ -((value & 1) as i64);
            return Ok((decoded, &bytes[i + 1..]));
        }
    }
    Err("message index: truncated or overlong varint".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framed_value_splits_and_anything_else_is_not_framed() {
        let framed = split(&[0, 0, 0, 1, 2, 9, 9]).expect("framed");
        assert_eq!(framed.schema_id, 258);
        assert_eq!(framed.payload, &[9, 9]);
        assert_eq!(split(&[0, 0, 0, 0, 7]).map(|f| f.payload.len()), Some(0));
        assert_eq!(split(&[0, 0, 0, 1]), None, "too short");
        assert_eq!(split(&[1, 0, 0, 0, 1]), None, "another magic byte");
        assert_eq!(split(b"{\"a\":1}"), None);
        assert_eq!(split(&[]), None);
    }

    #[test]
    fn message_indexes_are_zigzag_and_a_single_zero_is_the_first_message() {
        assert_eq!(message_index(&[0, 42]), Ok((vec![0], &[42][..])));
        // [1, 0]: count 2 (zigzag 4), then 1 (2) and 0 (0).
        assert_eq!(message_index(&[4, 2, 0, 7]), Ok((vec![1, 0], &[7][..])));
        // count 1, index 70 (zigzag 140 = 0x8c 0x01)
        assert_eq!(message_index(&[2, 0x8c, 0x01]), Ok((vec![70], &[][..])));
    }

    #[test]
    fn hostile_message_indexes_are_errors() {
        assert!(message_index(&[]).is_err(), "empty");
        assert!(message_index(&[4, 2]).is_err(), "count says 2, one given");
        assert!(message_index(&[1]).is_err(), "negative count");
        assert!(message_index(&[2, 1]).is_err(), "negative index");
        assert!(
            message_index(&[0xfe, 0xff, 0xff, 0xff, 0x0f]).is_err(),
            "huge count"
        );
        assert!(message_index(&[0x80; 11]).is_err(), "overlong varint");
    }
}
