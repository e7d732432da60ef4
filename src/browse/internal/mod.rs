//! Kafka's own topics, decoded: the records of `__consumer_offsets` (offset
//! commits, group metadata) shown as what they are, and the partition that
//! holds a group's records.

pub mod consumer_offsets;
mod consumer_offsets_text;
pub mod wire;

pub use consumer_offsets::{Decoded, TOPIC as CONSUMER_OFFSETS};

/// Whether `topic` is one whose records are decoded here.
pub fn decodes(topic: &str) -> bool {
    topic == CONSUMER_OFFSETS
}

/// Java's `String.hashCode`: `31 * h + c` over the UTF-16 code units,
/// wrapping.
pub fn java_string_hash(text: &str) -> i32 {
    text.encode_utf16().fold(0_i32, |h, unit| {
        h.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// The `__consumer_offsets` partition that holds `group`'s records, as
/// the group coordinator places it: `Utils.abs(groupId.hashCode()) %
/// partitions`, where Kafka's `Utils.abs` maps `Integer.MIN_VALUE` to 0.
/// `None` when the topic has no partitions.
pub fn partition_for_group(group: &str, partitions: i32) -> Option<i32> {
    if partitions <= 0 {
        return None;
    }
    let hash = java_string_hash(group);
    let abs = if hash == i32::MIN { 0 } else { hash.abs() };
    Some(abs % partitions)
}

/// The decoding of a record of a topic that [`decodes`]: the decoded key
/// and value, or why the key could not be read.
pub fn decode(key: Option<&[u8]>, value: Option<&[u8]>) -> Result<Decoded, String> {
    consumer_offsets::decode(key, value).map_err(|e| e.0)
}

/// Append the `decoded` JSON object of a record (`type: error` when its
/// key could not be read).
pub fn write_json(decoding: &Result<Decoded, String>, out: &mut Vec<u8>) {
    match decoding {
        Ok(decoded) => decoded.write_json(out),
        Err(reason) => consumer_offsets_text::write_error_json(reason, out),
    }
}

/// A record's one-line text (`[not decoded: …]` when its key could not be
/// read).
pub fn line(decoding: &Result<Decoded, String>) -> String {
    match decoding {
        Ok(decoded) => decoded.line(),
        Err(reason) => format!("[not decoded: {reason}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hashes_are_javas() {
        // Values of Java's "…".hashCode().
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("hello"), 99_162_322);
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
        // A character outside the BMP counts as its two UTF-16 units.
        assert_eq!(
            java_string_hash("🚀"),
            0xd83d_i32.wrapping_mul(31).wrapping_add(0xde80)
        );
    }

    #[test]
    fn a_groups_partition_is_the_coordinators() {
        assert_eq!(partition_for_group("polygenelubricants", 50), Some(0));
        assert_eq!(partition_for_group("a", 50), Some(97 % 50));
        // "hello".hashCode() is positive; a negative hash takes its absolute value.
        let negative = (0..1000)
            .map(|n| format!("group-{n}"))
            .find(|g| java_string_hash(g) < 0)
            .expect("some hash is negative");
        let hash = java_string_hash(&negative);
        assert_eq!(partition_for_group(&negative, 50), Some(-hash % 50));
        assert_eq!(partition_for_group("g", 0), None);
    }
}
