//! A record's key and value as the schema registry decodes them, and how
//! each is written as a JSON field: what `consume`, the Messages screen's
//! workers (masking, `:find`) and the exports share.

use serde_json::Value;

use crate::browse::Record;
use crate::browse::json::Field;

use super::{Decoder, Decoding};

/// A record's key and value as the schema registry decodes them.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordDecoding {
    /// The key's decoding.
    pub key: Decoding,
    /// The value's decoding.
    pub value: Decoding,
}

impl RecordDecoding {
    /// The decoded JSON of the key and of the value, where a schema
    /// decoded them (what mask rules' paths reach into).
    pub fn json_mut(&mut self) -> (Option<&mut Value>, Option<&mut Value>) {
        fn json(field: &mut Decoding) -> Option<&mut Value> {
            match field {
                Decoding::Decoded(decoded) => Some(&mut decoded.value),
                _ => None,
            }
        }
        (json(&mut self.key), json(&mut self.value))
    }
}

/// How a key or value a schema decoded (or failed to) is written in JSON:
/// the decoded value with its format and registry id (a local schema has
/// id 0, left out), or the bytes as base64 with the id and the reason.
pub fn field(decoding: &Decoding) -> Field<'_> {
    match decoding {
        Decoding::NotFramed => Field::Bytes,
        Decoding::Decoded(decoded) => Field::Decoded {
            json: &decoded.value,
            encoding: decoded.format.name(),
            schema_id: (decoded.schema_id != 0).then_some(decoded.schema_id),
        },
        Decoding::Failed { schema_id, reason } => Field::Failed {
            schema_id: *schema_id,
            reason,
        },
    }
}

/// Decode a record's key and value (each schema id fetched once per session).
pub async fn decode(decoder: &Decoder, record: &Record) -> RecordDecoding {
    RecordDecoding {
        key: decode_field(decoder, record.key.as_deref()).await,
        value: decode_field(decoder, record.value.as_deref()).await,
    }
}

async fn decode_field(decoder: &Decoder, bytes: Option<&[u8]>) -> Decoding {
    match bytes {
        Some(bytes) => decoder.decode(bytes).await,
        None => Decoding::NotFramed,
    }
}
