//! Protobuf: the schema's `.proto` text (and its references, by import name)
//! compiled in-process with `protox`, values decoded with `prost-reflect` and
//! rendered as proto3 JSON with the `.proto` field names.
//!
//! A schema may also be a base64 `FileDescriptorProto`: the Python client
//! registers that form, Confluent's registry turns it into text, Apicurio
//! keeps it as it is. Both forms are read, for the schema and its references.

use std::collections::HashMap;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use prost_reflect::{DynamicMessage, FileDescriptor, MessageDescriptor, SerializeOptions};
use protox::file::{ChainFileResolver, File, FileResolver, GoogleFileResolver};
use serde_json::Value;

/// The name the registered schema itself is compiled under (references keep
/// their import names; this one cannot be imported by them).
const ROOT: &str = "kscope-registry-root/schema.proto";

/// A compiled Protobuf schema.
#[derive(Debug)]
pub struct ProtobufSchema {
    file: FileDescriptor,
}

/// One file's source: `.proto` text or an encoded `FileDescriptorProto`.
enum Source {
    Text(String),
    Descriptor(Vec<u8>),
}

impl Source {
    /// Base64 of a descriptor when `text` is that (a `.proto` file always
    /// holds a space or `;`, which base64 does not).
    fn read(text: &str) -> Self {
        let trimmed = text.trim();
        if !trimmed.is_empty()
            && !trimmed.contains([' ', ';', '\n'])
            && let Ok(bytes) = BASE64.decode(trimmed)
        {
            return Source::Descriptor(bytes);
        }
        Source::Text(text.to_owned())
    }

    fn file(&self, name: &str) -> Result<File, protox::Error> {
        match self {
            Source::Text(text) => File::from_source(name, text),
            Source::Descriptor(bytes) => File::decode_file_descriptor_proto(bytes.as_slice())
                .map_err(|e| protox::Error::new(format!("file '{name}': {e}"))),
        }
    }
}

/// In-memory sources by import name.
struct Sources(HashMap<String, Source>);

impl FileResolver for Sources {
    fn open_file(&self, name: &str) -> Result<File, protox::Error> {
        match self.0.get(name) {
            Some(source) => source.file(name),
            None => Err(protox::Error::file_not_found(name)),
        }
    }
}

impl ProtobufSchema {
    /// Compile `text`; `references` are `(import name, source)` pairs of every
    /// schema it imports, directly or not. Google's well-known types resolve
    /// without a reference.
    pub fn parse(text: &str, references: &[(String, String)]) -> Result<Self, String> {
        let mut sources: HashMap<String, Source> = references
            .iter()
            .map(|(name, text)| (name.clone(), Source::read(text)))
            .collect();
        let root = Source::read(text);
        // A descriptor carries its own name, which its imports are relative to.
        let root_name = match &root {
            Source::Text(_) => ROOT.to_owned(),
            Source::Descriptor(_) => root
                .file(ROOT)
                .map_err(|e| one_line(&e.to_string()))?
                .name()
                .to_owned(),
        };
        sources.insert(root_name.clone(), root);
        let mut chain = ChainFileResolver::new();
        chain.add(Sources(sources));
        chain.add(GoogleFileResolver::new());
        let mut compiler = protox::Compiler::with_file_resolver(chain);
        compiler.include_imports(true);
        compiler
            .open_file(&root_name)
            .map_err(|e| one_line(&e.to_string()))?;
        let pool = compiler.descriptor_pool();
        let file = pool
            .get_file_by_name(&root_name)
            .ok_or_else(|| "the compiled schema has no file".to_owned())?;
        if file.messages().len() == 0 {
            return Err("the schema defines no message".to_owned());
        }
        Ok(Self { file })
    }

    /// The message at a message-index path (`[0]` is the file's first message,
    /// `[1, 0]` the first message nested in the second).
    pub fn message(&self, path: &[usize]) -> Option<MessageDescriptor> {
        let (first, nested) = path.split_first()?;
        let mut message = self.file.messages().nth(*first)?;
        for index in nested {
            let child = message.child_messages().nth(*index)?;
            message = child;
        }
        Some(message)
    }

    /// The message named `full_name` (e.g. `shop.Order`), nested or not.
    pub fn find(&self, full_name: &str) -> Option<MessageDescriptor> {
        self.file.parent_pool().get_message_by_name(full_name)
    }

    /// Decode raw bytes (no wire prefix, no message index) as message
    /// `full_name` to JSON.
    pub fn decode_message(&self, full_name: &str, bytes: &[u8]) -> Result<Value, String> {
        let descriptor = self
            .find(full_name)
            .ok_or_else(|| format!("the schema has no message '{full_name}'"))?;
        to_json(descriptor, bytes)
    }

    /// Decode the bytes after the wire prefix (message index included) to
    /// JSON; also returns the message's full name.
    pub fn decode(&self, payload: &[u8]) -> Result<(Value, String), String> {
        let (path, bytes) = super::wire::message_index(payload)?;
        let descriptor = self
            .message(&path)
            .ok_or_else(|| format!("the schema has no message at index {path:?}"))?;
        let name = descriptor.full_name().to_owned();
        Ok((to_json(descriptor, bytes)?, name))
    }
}

/// One message's bytes as JSON with its field names.
fn to_json(descriptor: MessageDescriptor, bytes: &[u8]) -> Result<Value, String> {
    {
        let message = DynamicMessage::decode(descriptor, bytes).map_err(|e| e.to_string())?;
        let options = SerializeOptions::new()
            .use_proto_field_name(true)
            .stringify_64_bit_integers(false)
            .skip_default_fields(false);
        message
            .serialize_with_options(serde_json::value::Serializer, &options)
            .map_err(|e| e.to_string())
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMON: &str = "syntax = \"proto3\";\npackage common;\nmessage Money { string currency = 1; int64 units = 2; }\n";
    const ORDER: &str = "syntax = \"proto3\";\npackage shop;\nimport \"common.proto\";\nmessage Order { string id = 1; common.Money total = 2; message Line { string sku = 1; } }\n";

    #[test]
    fn a_reference_resolves_and_nested_indexes_pick_the_nested_message() {
        let schema =
            ProtobufSchema::parse(ORDER, &[("common.proto".to_owned(), COMMON.to_owned())])
                .expect("compiles");
        // Order { id: "o1", total: Money { currency: "EUR", units: 5 } }, index [0]
        let mut bytes = vec![
            0, 0x0a, 2, b'o', b'1', 0x12, 7, 0x0a, 3, b'E', b'U', b'R', 0x10, 5,
        ];
        let (value, name) = schema.decode(&bytes).expect("decodes");
        assert_eq!(name, "shop.Order");
        assert_eq!(value["total"]["units"], 5);
        assert_eq!(value["total"]["currency"], "EUR");
        // Order.Line { sku: "x" } at [0, 0]: count 2 (zigzag 4), 0, 0
        bytes = vec![4, 0, 0, 0x0a, 1, b'x'];
        let (value, name) = schema.decode(&bytes).expect("nested");
        assert_eq!(
            (name.as_str(), &value["sku"]),
            ("shop.Order.Line", &Value::from("x"))
        );
        assert!(schema.decode(&[2, 6]).is_err(), "no message at [3]");
    }

    #[test]
    fn a_missing_reference_or_bad_text_is_an_error() {
        assert!(ProtobufSchema::parse(ORDER, &[]).is_err());
        assert!(ProtobufSchema::parse("message {", &[]).is_err());
    }
}
