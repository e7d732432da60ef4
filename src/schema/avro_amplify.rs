//! Avro arrays whose items take no bytes on the wire (`null`, a record of
//! such fields, a zero-size fixed) let a value claim any number of items
//! for free: each block is a few bytes, and the reader's allocation limit
//! bounds one array, not an array of them (82 bytes of
//! `array<array<null>>` decoded to 655,360 items). Values of such schemas
//! are refused with a marker instead of decoded.

use std::collections::HashMap;

use apache_avro::Schema;
use apache_avro::schema::Name;

/// The marker of a refused value.
pub(crate) const REFUSED: &str = "the schema has an array of items that take no bytes (null, empty records): its values are not decoded, a few bytes could claim billions of items";

/// Whether `schema` (with its named types `names`) holds an array whose
/// items can take zero bytes.
pub(crate) fn has_free_items(schema: &Schema, names: &HashMap<Name, Schema>) -> bool {
    Walk {
        names,
        seen: Vec::new(),
    }
    .any_free_array(schema)
}

struct Walk<'a> {
    names: &'a HashMap<Name, Schema>,
    /// Named types already walked (a recursive schema ends here).
    seen: Vec<&'a Name>,
}

impl<'a> Walk<'a> {
    fn any_free_array(&mut self, schema: &'a Schema) -> bool {
        match schema {
            Schema::Array(array) => {
                zero_bytes(&array.items, self.names, &mut Vec::new())
                    || self.any_free_array(&array.items)
            }
            Schema::Map(map) => self.any_free_array(&map.types),
            Schema::Union(union) => union.variants().iter().any(|v| self.any_free_array(v)),
            Schema::Record(record) => {
                if self.seen.contains(&&record.name) {
                    return false;
                }
                self.seen.push(&record.name);
                record.fields.iter().any(|f| self.any_free_array(&f.schema))
            }
            Schema::Ref { name } => {
                if self.seen.contains(&name) {
                    return false;
                }
                self.seen.push(name);
                self.names
                    .get(name)
                    .is_some_and(|target| self.any_free_array(target))
            }
            _ => false,
        }
    }
}

/// Whether a value of `schema` can be encoded in zero bytes.
fn zero_bytes<'a>(
    schema: &'a Schema,
    names: &'a HashMap<Name, Schema>,
    open: &mut Vec<&'a Name>,
) -> bool {
    match schema {
        Schema::Null => true,
        Schema::Fixed(fixed) => fixed.size == 0,
        Schema::Record(record) => {
            if open.contains(&&record.name) {
                // A record that must hold itself has no finite value.
                return false;
            }
            open.push(&record.name);
            let free = record
                .fields
                .iter()
                .all(|f| zero_bytes(&f.schema, names, open));
            open.pop();
            free
        }
        Schema::Ref { name } => {
            !open.contains(&name)
                && names.get(name).is_some_and(|target| {
                    open.push(name);
                    let free = zero_bytes(target, names, open);
                    open.pop();
                    free
                })
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free(text: &str) -> bool {
        let schema = Schema::parse_str(text).expect("parses");
        has_free_items(&schema, &HashMap::new())
    }

    #[test]
    fn arrays_of_items_without_bytes_are_told_from_the_rest() {
        assert!(free(r#"{"type":"array","items":"null"}"#));
        assert!(free(
            r#"{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"map","values":{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"n","type":"null"}]}}}}]}"#
        ));
        assert!(free(
            r#"{"type":"array","items":{"type":"fixed","name":"F","size":0}}"#
        ));
        assert!(!free(r#"{"type":"array","items":"long"}"#));
        assert!(!free(r#"{"type":"array","items":["null","long"]}"#));
        assert!(!free(
            r#"{"type":"record","name":"Node","fields":[{"name":"next","type":["null","Node"]},{"name":"kids","type":{"type":"array","items":"Node"}}]}"#
        ));
    }
}
