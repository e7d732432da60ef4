//! Kafka's own topics, decoded: the records of `__consumer_offsets` (offset
//! commits, group metadata), of `__transaction_state` (each transactional
//! id's transaction) and of `__share_group_state` (each share-partition's
//! delivery state) shown as what they are, and the partition that holds a
//! group's, a transactional id's or a share-partition's records.

pub mod consumer_offsets;
mod consumer_offsets_text;
mod json_obj;
mod placement;
pub mod share_group_state;
mod share_group_state_text;
pub mod transaction_state;
mod transaction_state_text;
pub mod wire;

pub use consumer_offsets::TOPIC as CONSUMER_OFFSETS;
pub use placement::{java_string_hash, partition_for_group};
pub use share_group_state::TOPIC as SHARE_GROUP_STATE;
pub use transaction_state::TOPIC as TRANSACTION_STATE;

/// Whether `topic` is one whose records are decoded here.
pub fn decodes(topic: &str) -> bool {
    topic == CONSUMER_OFFSETS || topic == TRANSACTION_STATE || topic == SHARE_GROUP_STATE
}

/// A decoded record of one of Kafka's own topics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    /// A record of `__consumer_offsets`.
    Offsets(consumer_offsets::Decoded),
    /// A record of `__transaction_state`.
    Transaction(transaction_state::Decoded),
    /// A record of `__share_group_state`.
    ShareState(share_group_state::Decoded),
}

impl Decoded {
    /// Append the record's `decoded` JSON object.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            Decoded::Offsets(d) => d.write_json(out),
            Decoded::Transaction(d) => d.write_json(out),
            Decoded::ShareState(d) => d.write_json(out),
        }
    }

    /// Whom the record is about: the group (`__consumer_offsets`, and the
    /// share group of `__share_group_state`) or the transactional id
    /// (`__transaction_state`) its key names.
    pub fn owner(&self) -> Option<&str> {
        match self {
            Decoded::Offsets(d) => d.key.group(),
            Decoded::Transaction(d) => d.transactional_id.as_deref(),
            Decoded::ShareState(d) => d.key.as_ref().map(|k| k.group_id.as_str()),
        }
    }

    /// The record's one readable line.
    pub fn line(&self) -> String {
        match self {
            Decoded::Offsets(d) => d.line(),
            Decoded::Transaction(d) => d.line(),
            Decoded::ShareState(d) => d.line(),
        }
    }
}

/// The decoding of a record of `topic` (one that [`decodes`]; any other is
/// read as `__consumer_offsets`): the decoded key and value, or why the key
/// could not be read.
pub fn decode(topic: &str, key: Option<&[u8]>, value: Option<&[u8]>) -> Result<Decoded, String> {
    if topic == TRANSACTION_STATE {
        transaction_state::decode(key, value)
            .map(Decoded::Transaction)
            .map_err(|e| e.0)
    } else if topic == SHARE_GROUP_STATE {
        share_group_state::decode(key, value)
            .map(Decoded::ShareState)
            .map_err(|e| e.0)
    } else {
        consumer_offsets::decode(key, value)
            .map(Decoded::Offsets)
            .map_err(|e| e.0)
    }
}

/// The group (`__consumer_offsets`, `__share_group_state`) or
/// transactional id (`__transaction_state`) a record's key names, read
/// without decoding the rest.
pub fn key_owner(topic: &str, key: &[u8]) -> Option<String> {
    if topic == TRANSACTION_STATE {
        transaction_state::key_transactional_id(key)
    } else if topic == SHARE_GROUP_STATE {
        share_group_state::key_group(key)
    } else {
        consumer_offsets::key_group(key)
    }
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
