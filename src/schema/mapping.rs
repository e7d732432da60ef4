//! Per-topic schemas for values without the Confluent wire prefix (raw Avro
//! or Protobuf, or JSON): the config maps a topic regex to a registry
//! subject (its latest version), a local `.avsc` file, or a local `.proto`
//! file and a message name. The first mapping whose regex matches the topic
//! wins. Each mapping is compiled once, when a value of a matching topic is
//! first met, and kept (also when it failed: the marker says why).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use regex::Regex;

use super::avro::AvroSchema;
use super::client::RegistryClient;
use super::decoder::{Decoded, Decoding, decode_with};
use super::error::Error;
use super::fetch::{self, Format, SchemaInfo};
use super::protobuf::ProtobufSchema;

/// Where a mapped topic's schema comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The latest version of a registry subject.
    Subject(String),
    /// A local Avro schema file.
    Avro(PathBuf),
    /// A local `.proto` file (self-contained, or importing only Google's
    /// well-known types) and the full name of the message the values hold.
    Proto {
        file: PathBuf,
        /// e.g. `shop.Order`.
        message: String,
    },
}

/// One `[[contexts.NAME.topic_schemas]]` entry, resolved.
#[derive(Debug, Clone)]
pub struct TopicSchema {
    /// Topics it applies to.
    pub topic: Regex,
    /// Its schema.
    pub source: Source,
}

enum Compiled {
    /// A registry schema: decoded like a framed value of its id.
    Registry(Arc<SchemaInfo>),
    Avro(Box<AvroSchema>),
    Proto(ProtobufSchema, String),
}

/// Each mapping's compiled schema (or why not), by its index.
type CompiledByIndex = HashMap<usize, Result<Arc<Compiled>, String>>;

/// The mappings of a context with what they compiled to. Cheap to clone.
#[derive(Clone, Default)]
pub struct Mappings {
    list: Arc<Vec<TopicSchema>>,
    compiled: Arc<Mutex<CompiledByIndex>>,
}

impl std::fmt::Debug for Mappings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mappings")
            .field("list", &self.list)
            .finish_non_exhaustive()
    }
}

impl Mappings {
    /// Mappings in the config's order.
    pub fn new(list: Vec<TopicSchema>) -> Self {
        Self {
            list: Arc::new(list),
            compiled: Arc::default(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The index of the mapping that applies to `topic`.
    pub fn find(&self, topic: &str) -> Option<usize> {
        self.list.iter().position(|m| m.topic.is_match(topic))
    }

    /// Decode an unframed `bytes` of `topic` with its mapping; `None` when no
    /// mapping applies. Compiles the mapping on first use (blocking: file
    /// reads, and for a subject two registry requests through `client`), so
    /// async callers run this on the blocking pool.
    pub fn decode(
        &self,
        topic: &str,
        bytes: &[u8],
        client: Option<&RegistryClient>,
    ) -> Option<Decoding> {
        let index = self.find(topic)?;
        let compiled = self.compiled(index, client);
        Some(match compiled {
            Ok(compiled) => decode(&compiled, bytes),
            Err(reason) => Decoding::Failed {
                schema_id: 0,
                reason,
            },
        })
    }

    /// Decode an unframed `bytes` of `topic` if its mapping was compiled
    /// already (never blocks: no file or registry is touched); `None` when
    /// no mapping applies or it is not compiled yet ([`Mappings::prepare`]).
    pub fn decode_prepared(&self, topic: &str, bytes: &[u8]) -> Option<Decoding> {
        let index = self.find(topic)?;
        let done = self
            .compiled
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&index)
            .cloned()?;
        Some(match done {
            Ok(compiled) => decode(&compiled, bytes),
            Err(reason) => Decoding::Failed {
                schema_id: 0,
                reason,
            },
        })
    }

    /// Whether `topic` has a mapping that is not compiled yet.
    pub fn unprepared(&self, topic: &str) -> bool {
        self.find(topic).is_some_and(|index| {
            !self
                .compiled
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .contains_key(&index)
        })
    }

    /// Compile `topic`'s mapping, if it has one (blocking: file reads, and
    /// for a subject two registry requests through `client`); the result,
    /// or why it failed, is kept for [`Mappings::decode_prepared`].
    pub fn prepare(&self, topic: &str, client: Option<&RegistryClient>) {
        if let Some(index) = self.find(topic) {
            let _ = self.compiled(index, client);
        }
    }

    fn compiled(
        &self,
        index: usize,
        client: Option<&RegistryClient>,
    ) -> Result<Arc<Compiled>, String> {
        if let Some(done) = self
            .compiled
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&index)
        {
            return done.clone();
        }
        let result = self
            .list
            .get(index)
            .ok_or_else(|| "no such mapping".to_owned())
            .and_then(|m| compile(&m.source, client))
            .map(Arc::new);
        self.compiled
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(index, result.clone());
        result
    }
}

fn compile(source: &Source, client: Option<&RegistryClient>) -> Result<Compiled, String> {
    let read = |path: &PathBuf| {
        std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read schema file '{}': {e}", path.display()))
    };
    match source {
        Source::Subject(subject) => {
            let client = client.ok_or_else(|| {
                format!("subject '{subject}': no schema registry configured for this context")
            })?;
            let latest = client
                .version(subject, "latest")
                .map_err(|e| e.to_string())?;
            let info = fetch::fetch(client, latest.id).map_err(|e: Error| e.to_string())?;
            Ok(Compiled::Registry(Arc::new(info)))
        }
        Source::Avro(path) => AvroSchema::parse(&read(path)?, &[])
            .map(|s| Compiled::Avro(Box::new(s)))
            .map_err(|e| format!("schema file '{}': {e}", path.display())),
        Source::Proto { file, message } => {
            let schema = ProtobufSchema::parse(&read(file)?, &[])
                .map_err(|e| format!("schema file '{}': {e}", file.display()))?;
            if schema.find(message).is_none() {
                return Err(format!(
                    "schema file '{}' has no message '{message}'",
                    file.display()
                ));
            }
            Ok(Compiled::Proto(schema, message.clone()))
        }
    }
}

fn decode(compiled: &Compiled, bytes: &[u8]) -> Decoding {
    let local = |format: Format, result: Result<serde_json::Value, String>, message| match result {
        Ok(value) => Decoding::Decoded(Decoded {
            schema_id: 0,
            format,
            subject: None,
            version: None,
            message_type: message,
            value,
        }),
        Err(reason) => Decoding::Failed {
            schema_id: 0,
            reason: format!("{} (local schema): cannot decode: {reason}", format.name()),
        },
    };
    match compiled {
        Compiled::Registry(info) => match &info.compiled {
            // The registry's Protobuf schemas are framed with a message
            // index; an unframed value is the file's first message.
            fetch::Compiled::Protobuf(_) => {
                let mut payload = Vec::with_capacity(bytes.len() + 1);
                payload.push(0);
                payload.extend_from_slice(bytes);
                decode_with(info, &payload)
            }
            _ => decode_with(info, bytes),
        },
        Compiled::Avro(schema) => local(Format::Avro, schema.decode(bytes), None),
        Compiled::Proto(schema, message) => local(
            Format::Protobuf,
            schema.decode_message(message, bytes),
            Some(message.clone()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path
    }

    #[test]
    fn the_first_matching_mapping_decodes_raw_avro_and_protobuf() {
        let dir = tempfile::tempdir().expect("tempdir");
        let avsc = write(
            &dir,
            "o.avsc",
            r#"{"type":"record","name":"O","fields":[{"name":"id","type":"long"}]}"#,
        );
        let proto = write(
            &dir,
            "c.proto",
            "syntax = \"proto3\";\npackage web;\nmessage Click { string url = 1; }\n",
        );
        let mappings = Mappings::new(vec![
            TopicSchema {
                topic: Regex::new("^orders$").expect("regex"),
                source: Source::Avro(avsc),
            },
            TopicSchema {
                topic: Regex::new("^clicks").expect("regex"),
                source: Source::Proto {
                    file: proto,
                    message: "web.Click".to_owned(),
                },
            },
            TopicSchema {
                topic: Regex::new(".").expect("regex"),
                source: Source::Subject("x-value".to_owned()),
            },
        ]);
        // id 21 as a zigzag long is 42.
        let Some(Decoding::Decoded(order)) = mappings.decode("orders", &[42], None) else {
            panic!("orders decodes")
        };
        assert_eq!(order.value, serde_json::json!({"id": 21}));
        let Some(Decoding::Decoded(click)) = mappings.decode("clicks-eu", b"\x0a\x01/", None)
        else {
            panic!("clicks decode")
        };
        assert_eq!(click.value, serde_json::json!({"url": "/"}));
        assert_eq!(click.message_type.as_deref(), Some("web.Click"));
        let Some(Decoding::Failed { reason, .. }) = mappings.decode("other", b"x", None) else {
            panic!("a subject without a registry is a marker")
        };
        assert!(reason.contains("no schema registry"), "{reason}");
        assert_eq!(
            mappings
                .decode("orders", &[0x80], None)
                .map(|d| matches!(d, Decoding::Failed { .. })),
            Some(true)
        );
    }

    #[test]
    fn a_missing_file_or_message_is_a_marker_not_a_crash() {
        let dir = tempfile::tempdir().expect("tempdir");
        let proto = write(
            &dir,
            "c.proto",
            "syntax = \"proto3\";\nmessage A { int32 n = 1; }\n",
        );
        let mappings = Mappings::new(vec![
            TopicSchema {
                topic: Regex::new("^a$").expect("regex"),
                source: Source::Proto {
                    file: proto,
                    message: "B".to_owned(),
                },
            },
            TopicSchema {
                topic: Regex::new("^b$").expect("regex"),
                source: Source::Avro(dir.path().join("missing.avsc")),
            },
        ]);
        let reason = |topic| match mappings.decode(topic, b"", None) {
            Some(Decoding::Failed { reason, .. }) => reason,
            other => panic!("{other:?}"),
        };
        assert!(reason("a").contains("no message 'B'"), "{}", reason("a"));
        assert!(
            reason("b").contains("cannot read schema file"),
            "{}",
            reason("b")
        );
        assert_eq!(mappings.decode("c", b"", None), None);
    }
}
