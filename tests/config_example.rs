//! `config.example.toml` parses, holds every key the code reads, and no key the
//! code does not read. The schema's keys are taken from the serde derives
//! themselves (the field lists `deserialize_struct` is given), so adding a field
//! without documenting it in the example fails here.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;

use kscope::config::keys::ACTIONS;
use kscope::config::schema::{
    ConfigFile, ContextSection, FleetSection, MaskSection, RefreshSection, SaslSection,
    SchemaRegistrySection, TlsSection, TopicSchemaSection, UiSection,
};
use kscope::config::{Selection, load, resolve};
use serde::Deserialize;
use serde::de::{self, Visitor};

fn example_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml")
}

/// A deserializer that only records the field list of the struct asked for.
struct FieldRecorder<'a>(&'a mut Vec<&'static str>);

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stop")
    }
}
impl std::error::Error for Stop {}
impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

impl<'de> de::Deserializer<'de> for FieldRecorder<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        self.0.extend_from_slice(fields);
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

fn fields_of<'de, T: Deserialize<'de>>() -> Vec<&'static str> {
    let mut fields = Vec::new();
    let _ = T::deserialize(FieldRecorder(&mut fields));
    assert!(!fields.is_empty(), "not a struct");
    fields
}

/// Every key path the code reads; `*` stands for a context name.
fn schema_keys() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let mut add = |prefix: &str, fields: Vec<&'static str>| {
        for field in fields {
            keys.insert(format!("{prefix}{field}"));
        }
    };
    add("", fields_of::<ConfigFile>());
    add("ui.", fields_of::<UiSection>());
    add("refresh.", fields_of::<RefreshSection>());
    add("fleet.", fields_of::<FleetSection>());
    add("keys.", ACTIONS.to_vec());
    add("contexts.*.", fields_of::<ContextSection>());
    add("contexts.*.refresh.", fields_of::<RefreshSection>());
    add("contexts.*.tls.", fields_of::<TlsSection>());
    add("contexts.*.sasl.", fields_of::<SaslSection>());
    add(
        "contexts.*.schema_registry.",
        fields_of::<SchemaRegistrySection>(),
    );
    add(
        "contexts.*.topic_schemas.",
        fields_of::<TopicSchemaSection>(),
    );
    add("contexts.*.mask.", fields_of::<MaskSection>());
    keys
}

fn collect(prefix: &str, table: &toml::Table, out: &mut BTreeSet<String>) {
    for (key, value) in table {
        let path = format!("{prefix}{key}");
        out.insert(path.clone());
        // An array of tables: every entry's keys under the array's path.
        if let Some(entries) = value.as_array() {
            for entry in entries.iter().filter_map(toml::Value::as_table) {
                collect(&format!("{path}."), entry, out);
            }
            continue;
        }
        let Some(inner) = value.as_table() else {
            continue;
        };
        if path == "contexts" {
            for context in inner.values() {
                collect(
                    "contexts.*.",
                    context.as_table().expect("a context is a table"),
                    out,
                );
            }
        } else {
            collect(&format!("{path}."), inner, out);
        }
    }
}

fn example_keys() -> BTreeSet<String> {
    let text = std::fs::read_to_string(example_path()).expect("read example");
    let table: toml::Table = toml::from_str(&text).expect("example is TOML");
    let mut keys = BTreeSet::new();
    collect("", &table, &mut keys);
    keys
}

#[test]
fn the_example_parses_with_every_check() {
    let text = std::fs::read_to_string(example_path()).expect("read example");
    let file = load::parse(&example_path(), &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        file.default_context.as_ref().map(|d| d.get_ref().as_str()),
        Some("local")
    );
}

#[test]
fn every_key_in_the_example_is_read_and_every_key_read_is_in_the_example() {
    let schema = schema_keys();
    let example = example_keys();
    let undocumented: Vec<_> = schema.difference(&example).collect();
    let unread: Vec<_> = example.difference(&schema).collect();
    assert!(
        undocumented.is_empty(),
        "keys the code reads but the example lacks: {undocumented:?}"
    );
    assert!(
        unread.is_empty(),
        "keys in the example the code does not read: {unread:?}"
    );
}

#[test]
fn production_contexts_in_the_example_are_read_only() {
    let text = std::fs::read_to_string(example_path()).expect("read example");
    let file = load::parse(&example_path(), &text).expect("parses");
    for (name, context) in &file.contexts {
        let production = name.contains("prod") || context.theme.is_some();
        if production || name == "cloud" {
            assert!(
                context.read_only,
                "context '{name}' in the example must be read-only"
            );
        }
    }
}

#[test]
fn example_contexts_resolve_to_connection_settings() {
    let loaded = load::load(Some(&example_path())).expect("loads");
    let local = resolve::resolve(&loaded, &Selection::default()).expect("default context");
    assert_eq!(local.name, "local");
    assert_eq!(local.bootstrap_servers, ["127.0.0.1:9092"]);
    assert!(!local.read_only && local.connection.tls.is_none() && local.connection.sasl.is_none());
    assert_eq!(
        local.keys.get("page_up").map(String::as_str),
        Some("ctrl+b")
    );

    // Staging's secrets come from the environment: its mappings are checked
    // as loaded (each a valid regex and one source, or loading failed).
    let staging = &loaded.file.contexts["staging"].topic_schemas;
    assert_eq!(staging.len(), 3);
    assert_eq!(staging[2].message.as_deref(), Some("web.Click"));

    let cloud = Selection {
        context: Some("cloud".into()),
        ..Selection::default()
    };
    let cloud = resolve::resolve(&loaded, &cloud).expect("cloud");
    assert!(cloud.read_only && cloud.connection.read_only);
    assert!(cloud.connection.tls.is_some());
    let sasl = cloud.connection.sasl.expect("sasl");
    assert!(
        sasl.token_command
            .is_some_and(|c| c.expose().starts_with("oauth2l"))
    );
}
