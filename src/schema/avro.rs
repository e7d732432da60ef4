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

/// The largest value decoded with a recursive schema (a record that holds
/// itself): every level of nesting costs the decoder stack, and a value can
/// nest once per byte, so such values decode on a thread with
/// [`RECURSIVE_STACK`] of stack and longer ones are refused.
pub const MAX_RECURSIVE_PAYLOAD: usize = 2 * 1024;

/// The stack of the thread that decodes values of a recursive schema.
pub const RECURSIVE_STACK: usize = 256 * 1024 * 1024;

/// A parsed writer schema with the named types of its references.
#[derive(Debug)]
pub struct AvroSchema {
    root: Schema,
    references: Vec<Schema>,
    names: HashMap<Name, Schema>,
    recursive: bool,
    /// It has an array of items that take no bytes: values are refused.
    free_items: bool,
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
        let recursive = recursive(&root, &names, &mut Vec::new());
        let free_items = super::avro_amplify::has_free_items(&root, &names);
        Ok(Self {
            root,
            references,
            names,
            recursive,
            free_items,
        })
    }

    /// Decode one value (the bytes after the wire prefix) to JSON.
    pub fn decode(&self, payload: &[u8]) -> Result<Value, String> {
        if self.free_items {
            return Err(super::avro_amplify::REFUSED.to_owned());
        }
        if !self.recursive {
            return self.decode_here(payload);
        }
        if payload.len() > MAX_RECURSIVE_PAYLOAD {
            return Err(format!(
                "a value of a recursive schema over {MAX_RECURSIVE_PAYLOAD} bytes is not decoded (its nesting could overflow the stack)"
            ));
        }
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("avro-recursive".to_owned())
                .stack_size(RECURSIVE_STACK)
                .spawn_scoped(scope, || self.decode_here(payload))
                .map_err(|e| format!("cannot start the decoding thread: {e}"))?
                .join()
                .unwrap_or_else(|_| Err("the decoder panicked".to_owned()))
        })
    }

    fn decode_here(&self, mut payload: &[u8]) -> Result<Value, String> {
        let mut all: Vec<&Schema> = self.references.iter().collect();
        all.push(&self.root);
        let reader = GenericDatumReader::builder(&self.root)
            .writer_schemata(all)
            .map_err(|e| e.to_string())?
            .build()
            .map_err(|e| e.to_string())?;
        let value = reader.read_value(&mut payload).map_err(|e| {
            let text = e.to_string();
            // The crate's message names its own API ("Change the limit
            // using ..."): say what the value did instead.
            match text.strip_prefix("Unable to allocate ") {
                Some(rest) => format!(
                    "the value claims {} bytes, over the {} MiB limit",
                    rest.split_whitespace().next().unwrap_or("?"),
                    MAX_ALLOCATION >> 20
                ),
                None => text,
            }
        })?;
        if !payload.is_empty() {
            return Err(format!("{} bytes left after the value", payload.len()));
        }
        Ok(super::avro_json::to_json(value, &self.root, &self.names))
    }
}

/// Whether a named type holds itself (directly or through others).
fn recursive<'a>(
    schema: &'a Schema,
    names: &'a HashMap<Name, Schema>,
    open: &mut Vec<&'a Name>,
) -> bool {
    match schema {
        Schema::Ref { name } => {
            open.contains(&name)
                || names
                    .get(name)
                    .is_some_and(|target| named_recursive(name, target, names, open))
        }
        Schema::Record(record) => {
            if open.contains(&&record.name) {
                return true;
            }
            open.push(&record.name);
            let found = record
                .fields
                .iter()
                .any(|f| recursive(&f.schema, names, open));
            open.pop();
            found
        }
        Schema::Array(array) => recursive(&array.items, names, open),
        Schema::Map(map) => recursive(&map.types, names, open),
        Schema::Union(union) => union.variants().iter().any(|v| recursive(v, names, open)),
        _ => false,
    }
}

fn named_recursive<'a>(
    name: &'a Name,
    target: &'a Schema,
    names: &'a HashMap<Name, Schema>,
    open: &mut Vec<&'a Name>,
) -> bool {
    if let Schema::Record(_) = target {
        return recursive(target, names, open);
    }
    open.push(name);
    let found = recursive(target, names, open);
    open.pop();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recursive_schemas_are_told_from_reused_named_types() {
        let list =
            r#"{"type":"record","name":"Node","fields":[{"name":"next","type":["null","Node"]}]}"#;
        assert!(AvroSchema::parse(list, &[]).expect("parses").recursive);
        let reuse = r#"{"type":"record","name":"P","fields":[
            {"name":"a","type":{"type":"record","name":"Point","fields":[{"name":"x","type":"int"}]}},
            {"name":"b","type":"Point"}]}"#;
        let schema = AvroSchema::parse(reuse, &[]).expect("parses");
        assert!(!schema.recursive);
        // Point {x: 1}, Point {x: 2}
        assert_eq!(
            schema.decode(&[2, 4]).expect("decodes"),
            serde_json::json!({"a": {"x": 1}, "b": {"x": 2}})
        );
    }
}
