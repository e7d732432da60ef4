//! Where Kafka's coordinators keep an id's records in their internal
//! topics: Java's string hash of the id, made positive, modulo the topic's
//! partitions.

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
/// The transaction coordinator places a transactional id in
/// `__transaction_state` the same way.
/// `None` when the topic has no partitions.
pub fn partition_for_group(group: &str, partitions: i32) -> Option<i32> {
    if partitions <= 0 {
        return None;
    }
    let hash = java_string_hash(group);
    let abs = if hash == i32::MIN { 0 } else { hash.abs() };
    Some(abs % partitions)
}
