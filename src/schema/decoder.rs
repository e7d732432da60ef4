//! The one entry point for decoding a record's key or value: [`Decoder`].
//!
//! Schemas are fetched once per id and kept for the session. A final answer
//! (unknown id, a schema that does not compile) is kept too, so a topic full
//! of one unknown id asks the registry once; a transient failure (registry
//! down) is kept for [`RETRY_AFTER`] and then asked again, so records with
//! ids met before keep decoding while new ids are marked.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::client::{RegistryClient, RegistryConfig};
use super::error::Error;
use super::fetch::{self, Compiled, Format, SchemaInfo};
use super::wire;

/// How long a transient registry failure is remembered before asking again.
pub const RETRY_AFTER: Duration = Duration::from_secs(10);

/// The most failed ids remembered; past it, new unknown ids are not asked
/// for (a topic of random bytes would otherwise query the registry per record).
pub const MAX_FAILED_IDS: usize = 4096;

/// A key or value decoded with its schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The schema id from the wire prefix.
    pub schema_id: u32,
    /// The schema's format.
    pub format: Format,
    /// The subject it is registered under, if known.
    pub subject: Option<String>,
    /// That subject's version, if known.
    pub version: Option<i32>,
    /// For Protobuf, the message's full name.
    pub message_type: Option<String>,
    /// The value as JSON.
    pub value: Value,
}

/// What decoding a key or value gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Decoding {
    /// No Confluent wire prefix: the bytes are shown as they are.
    NotFramed,
    /// Decoded with its schema.
    Decoded(Decoded),
    /// Framed, but not decodable now: the reason is the marker shown beside
    /// the bytes (which the caller keeps).
    Failed {
        /// The schema id from the wire prefix.
        schema_id: u32,
        /// Why, e.g. `schema id 7 not found in the registry`.
        reason: String,
    },
}

enum Slot {
    Ready(Arc<SchemaInfo>),
    Failed { error: Error, at: Instant },
}

/// Decodes Confluent-framed Avro, Protobuf and JSON Schema values through a
/// schema registry. Cheap to clone; clones share the schema cache.
#[derive(Clone)]
pub struct Decoder {
    client: RegistryClient,
    cache: Arc<Mutex<HashMap<u32, Slot>>>,
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder")
            .field("client", &self.client)
            .finish_non_exhaustive()
    }
}

impl Decoder {
    /// A decoder for the registry `config` describes (nothing is fetched yet).
    pub fn new(config: &RegistryConfig) -> Result<Self, Error> {
        super::avro::limit_allocations();
        Ok(Self {
            client: RegistryClient::new(config)?,
            cache: Arc::default(),
        })
    }

    /// The registry client (for listing subjects).
    pub fn client(&self) -> &RegistryClient {
        &self.client
    }

    /// Decode a key or value, fetching its schema first if this id was not
    /// met yet (on tokio's blocking pool). Never fails: a problem is
    /// [`Decoding::Failed`].
    pub async fn decode(&self, bytes: &[u8]) -> Decoding {
        let Some(framed) = wire::split(bytes) else {
            return Decoding::NotFramed;
        };
        match self.schema(framed.schema_id).await {
            Ok(info) => decode_with(&info, framed.payload),
            Err(error) => failed(framed.schema_id, &error),
        }
    }

    /// Decode with the schemas already cached; `None` when this id's schema
    /// has not been fetched yet (or its failure has expired): call
    /// [`Decoder::decode`] (or [`Decoder::schema`]) then.
    pub fn decode_cached(&self, bytes: &[u8]) -> Option<Decoding> {
        let Some(framed) = wire::split(bytes) else {
            return Some(Decoding::NotFramed);
        };
        match self.cached(framed.schema_id)? {
            Ok(info) => Some(decode_with(&info, framed.payload)),
            Err(error) => Some(failed(framed.schema_id, &error)),
        }
    }

    /// Schema `id`, from the cache or the registry.
    pub async fn schema(&self, id: u32) -> Result<Arc<SchemaInfo>, Error> {
        if let Some(cached) = self.cached(id) {
            return cached;
        }
        if self.failed_ids() >= MAX_FAILED_IDS {
            return Err(Error::Schema {
                what: format!("id {id}"),
                message: format!("not asked for: {MAX_FAILED_IDS} schema ids failed already"),
            });
        }
        let client = self.client.clone();
        let fetched = tokio::task::spawn_blocking(move || fetch::fetch(&client, id))
            .await
            .unwrap_or_else(|e| {
                Err(Error::Schema {
                    what: format!("id {id}"),
                    message: format!("fetch task failed: {e}"),
                })
            });
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        match fetched {
            Ok(info) => {
                let info = Arc::new(info);
                cache.insert(id, Slot::Ready(Arc::clone(&info)));
                Ok(info)
            }
            Err(error) => {
                let at = Instant::now();
                cache.insert(
                    id,
                    Slot::Failed {
                        error: error.clone(),
                        at,
                    },
                );
                Err(error)
            }
        }
    }

    fn cached(&self, id: u32) -> Option<Result<Arc<SchemaInfo>, Error>> {
        let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        match cache.get(&id)? {
            Slot::Ready(info) => Some(Ok(Arc::clone(info))),
            Slot::Failed { error, at } => {
                if error.is_transient() && at.elapsed() >= RETRY_AFTER {
                    None
                } else {
                    Some(Err(error.clone()))
                }
            }
        }
    }

    fn failed_ids(&self) -> usize {
        let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache
            .values()
            .filter(|s| matches!(s, Slot::Failed { .. }))
            .count()
    }
}

fn failed(schema_id: u32, error: &Error) -> Decoding {
    Decoding::Failed {
        schema_id,
        reason: reason(schema_id, error),
    }
}

/// The marker for a value whose schema `schema_id` could not be had.
pub fn reason(schema_id: u32, error: &Error) -> String {
    match error {
        Error::NotFound { .. } => format!("schema id {schema_id} not found in the registry"),
        other => other.to_string(),
    }
}

/// Decode the bytes after the prefix with a fetched schema.
pub fn decode_with(info: &SchemaInfo, payload: &[u8]) -> Decoding {
    let result = match &info.compiled {
        Compiled::Avro(schema) => schema.decode(payload).map(|v| (v, None)),
        Compiled::Protobuf(schema) => schema.decode(payload).map(|(v, n)| (v, Some(n))),
        Compiled::JsonSchema => serde_json::from_slice(payload)
            .map(|v| (v, None))
            .map_err(|e| format!("not JSON: {e}")),
    };
    match result {
        Ok((value, message_type)) => Decoding::Decoded(Decoded {
            schema_id: info.id,
            format: info.format,
            subject: info.subject.clone(),
            version: info.version,
            message_type,
            value,
        }),
        Err(message) => Decoding::Failed {
            schema_id: info.id,
            reason: format!(
                "schema id {} ({}): cannot decode: {message}",
                info.id,
                info.format.name()
            ),
        },
    }
}
