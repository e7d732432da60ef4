//! The Kafka protocol types, as the layers above use them: everything from the
//! (vendored, patched) `kafka-protocol` crate, plus its most used items at the
//! top so `conn::protocol::StrBytes` and `conn::protocol::messages::…` both work.

pub use kafka_protocol::*;

pub use kafka_protocol::protocol::{
    Decodable, Encodable, HeaderVersion, Message, StrBytes, VersionRange,
};
