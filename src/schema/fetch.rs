//! One schema id, fetched and compiled: the schema, its references (each
//! `(subject, version)` once, transitively) and where it is registered.

use std::collections::{HashSet, VecDeque};

use super::avro::AvroSchema;
use super::client::{RawSchema, Reference, RegistryClient};
use super::error::Error;
use super::protobuf::ProtobufSchema;

/// The most references one schema may pull in (a bound on a hostile or
/// broken registry's reference graph).
pub const MAX_REFERENCES: usize = 256;

/// A schema's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Apache Avro.
    Avro,
    /// Protocol Buffers.
    Protobuf,
    /// JSON Schema (the value is JSON itself).
    JsonSchema,
}

impl Format {
    /// `avro`, `protobuf` or `jsonschema`: the `value_encoding` names.
    pub fn name(self) -> &'static str {
        match self {
            Format::Avro => "avro",
            Format::Protobuf => "protobuf",
            Format::JsonSchema => "jsonschema",
        }
    }

    /// The registry's `schemaType` (absent means Avro).
    pub fn from_schema_type(schema_type: Option<&str>) -> Result<Self, String> {
        match schema_type.map(str::to_ascii_uppercase).as_deref() {
            None | Some("AVRO") => Ok(Format::Avro),
            Some("PROTOBUF") => Ok(Format::Protobuf),
            Some("JSON") => Ok(Format::JsonSchema),
            Some(other) => Err(format!("unknown schema type '{other}'")),
        }
    }
}

/// A compiled schema, ready to decode values.
#[derive(Debug)]
pub enum Compiled {
    /// Avro writer schema (boxed: far larger than the others).
    Avro(Box<AvroSchema>),
    /// Protobuf file descriptor.
    Protobuf(ProtobufSchema),
    /// JSON Schema: nothing to compile, values are JSON.
    JsonSchema,
}

/// A schema id with what the registry says about it.
#[derive(Debug)]
pub struct SchemaInfo {
    pub id: u32,
    pub format: Format,
    /// A subject it is registered under, if the registry said.
    pub subject: Option<String>,
    /// That subject's version.
    pub version: Option<i32>,
    /// The schema compiled.
    pub compiled: Compiled,
}

/// Fetch schema `id`, its references and its subject/version, and compile it.
pub fn fetch(client: &RegistryClient, id: u32) -> Result<SchemaInfo, Error> {
    let raw = client.schema(id)?;
    let what = || format!("id {id}");
    let format =
        Format::from_schema_type(raw.schema_type.as_deref()).map_err(|message| Error::Schema {
            what: what(),
            message,
        })?;
    let references = references(client, &raw)?;
    let compiled = match format {
        Format::Avro => {
            let texts: Vec<String> = references.into_iter().map(|(_, text)| text).collect();
            Compiled::Avro(Box::new(AvroSchema::parse(&raw.schema, &texts).map_err(
                |message| Error::Schema {
                    what: what(),
                    message,
                },
            )?))
        }
        Format::Protobuf => Compiled::Protobuf(
            ProtobufSchema::parse(&raw.schema, &references).map_err(|message| Error::Schema {
                what: what(),
                message,
            })?,
        ),
        Format::JsonSchema => Compiled::JsonSchema,
    };
    // Where it is registered: shown beside the value, not needed to decode.
    let registered = client
        .subjects_of(id)
        .ok()
        .and_then(|v| v.into_iter().next());
    Ok(SchemaInfo {
        id,
        format,
        subject: registered.as_ref().map(|r| r.subject.clone()),
        version: registered.map(|r| r.version),
        compiled,
    })
}

/// Every schema `raw` references, directly or not, as `(name, text)`;
/// dependencies come before the schemas that need them (Avro parses in order).
fn references(client: &RegistryClient, raw: &RawSchema) -> Result<Vec<(String, String)>, Error> {
    let mut seen: HashSet<(String, i32)> = HashSet::new();
    let mut queue: VecDeque<Reference> = raw.references.iter().cloned().collect();
    let mut found = Vec::new();
    while let Some(reference) = queue.pop_front() {
        if !seen.insert((reference.subject.clone(), reference.version)) {
            continue;
        }
        if seen.len() > MAX_REFERENCES {
            return Err(Error::Schema {
                what: format!("reference '{}'", reference.name),
                message: format!("more than {MAX_REFERENCES} references"),
            });
        }
        let schema = client.pinned_version(&reference.subject, reference.version)?;
        queue.extend(schema.references.iter().cloned());
        found.push((reference.name, schema.schema.clone()));
    }
    found.reverse();
    Ok(found)
}
