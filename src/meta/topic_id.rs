//! [`TopicId`]: Kafka's 128-bit topic uuid, shown the way Kafka's tools show it.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// A topic's id (KIP-516). All zeros means "none": brokers older than
/// Metadata v10 send no ids, and a topic being created has none yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TopicId([u8; 16]);

impl TopicId {
    /// The id with no value (all zeros).
    pub const NIL: TopicId = TopicId([0; 16]);

    /// From the uuid's bytes, as the protocol carries them.
    pub fn from_bytes(bytes: [u8; 16]) -> Self {
        TopicId(bytes)
    }

    /// The uuid's bytes.
    pub fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// Whether this is the "no id" value.
    pub fn is_nil(&self) -> bool {
        self.0 == [0; 16]
    }
}

/// Kafka's own text form (`Uuid.toString()`): url-safe base64 without
/// padding, as `kafka-topics --describe` prints it, so the two can be compared.
impl fmt::Display for TopicId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&URL_SAFE_NO_PAD.encode(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_like_kafkas_uuid_to_string() {
        // Kafka's Uuid.ONE_UUID (0…01) prints as AAAAAAAAAAAAAAAAAAAAAQ.
        let mut bytes = [0u8; 16];
        bytes[15] = 1;
        assert_eq!(
            TopicId::from_bytes(bytes).to_string(),
            "AAAAAAAAAAAAAAAAAAAAAQ"
        );
        assert!(TopicId::NIL.is_nil());
        assert!(!TopicId::from_bytes(bytes).is_nil());
    }
}
