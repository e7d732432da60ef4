//! Why a record batch could not be decoded (each such batch is an item of
//! its own, `super::Item::Bad`, not a failure of the whole answer).

use crate::browse::error::InflateError;

/// Why a batch could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// Message format v0/v1 (before Kafka 0.11).
    #[error("message format v{0} (before Kafka 0.11) is not supported")]
    OldFormat(i8),
    /// An unknown magic byte.
    #[error("unknown record batch magic {0}")]
    UnknownMagic(i8),
    /// The checksum did not match.
    #[error("bad crc (batch says {expected:#010x}, bytes give {actual:#010x})")]
    Crc {
        /// The batch's CRC.
        expected: u32,
        /// The CRC of its bytes.
        actual: u32,
    },
    /// An unknown codec number.
    #[error("unknown compression codec {0}")]
    UnknownCodec(i16),
    /// Decompression failed or went past the cap.
    #[error(transparent)]
    Inflate(#[from] InflateError),
    /// The records inside are malformed.
    #[error("malformed record: {0}")]
    Malformed(&'static str),
}
