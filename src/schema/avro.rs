//! Avro: the writer's schema from the registry (its references parsed with
//! it), values decoded with `apache-avro` and rendered as JSON by
//! [`super::avro_json`].

use std::collections::HashMap;

use apache_avro::Schema;
use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::schema::{Name, ResolvedSchema};
use serde_json::Value;

/// The most one value may make the Avro reader allocate at once. The crate's
/// default is 512 MiB: a hostile length prefix in a 10-byte value would ask
/// for that much. Values are bounded by Kafka's fetch size anyway.
pub const MAX_ALLOCATION: usize = 16 * 1024 * 1024;

/// Lower the Avro reader's allocation limit (process-wide, first call wins).
pub fn limit_allocations() {
    apache_avro::util::max_allocation_bytes(MAX_ALLOCATION);
}

/// A parsed writer schema with the named types of its references.
#[derive(Debug)]
pub struct AvroSchema {
    root: Schema,
    references: Vec<Schema>,
    names: HashMap<Name, Schema>,
}

impl AvroSchema {
    /// Parse `text`; `references` are the texts of the schemas it names.
    pub fn parse(text: &str, references: &[String]) -> Result<Self, String> {
        limit_allocations();
        let (root, references) = if references.is_empty() {
            (
                Schema::parse_str(text).map_err(|e| e.to_string())?,
                Vec::new(),
            )
        } else {
            Schema::parse_str_with_list(text, references).map_err(|e| e.to_string())?
        };
        let mut all: Vec<&Schema> = references.iter().collect();
        all.push(&root);
        let names = ResolvedSchema::new_with_schemata(all)
            .map_err(|e| e.to_string())?
            .get_names()
            .iter()
            .map(|(name, schema)| (name.clone(), (*schema).clone()))
            .collect();
        Ok(Self {
            root,
            references,
            names,
        })
    }

    /// Decode one value (the bytes after the wire prefix) to JSON.
    pub fn decode(&self, mut payload: &[u8]) -> Result<Value, String> {
        let mut all: Vec<&Schema> = self.references.iter().collect();
        all.push(&self.root);
        let reader = GenericDatumReader::builder(&self.root)
            .writer_schemata(all)
            .map_err(|e| e.to_string())?
            .build()
            .map_err(|e| e.to_string())?;
        let value = reader.read_value(&mut payload).map_err(|e| e.to_string())?;
        if !payload.is_empty() {
            return Err(format!("{} bytes left after the value", payload.len()));
        }
        Ok(super::avro_json::to_json(value, &self.root, &self.names))
    }
}
