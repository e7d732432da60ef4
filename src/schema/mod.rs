//! Schema-registry decoding: Confluent-framed Avro, Protobuf and JSON Schema
//! keys and values, decoded with the writer's schema from a registry that
//! speaks the Confluent REST API.
//!
//! No terminal code here. [`Decoder`] is the one entry point: `decode(bytes)`
//! gives [`Decoding::NotFramed`], a [`Decoded`] JSON value with its schema id,
//! subject and version, or [`Decoding::Failed`] with a marker to show beside
//! the bytes. Crates: `ureq` (HTTP), `apache-avro`, `prost-reflect` with
//! `protox` (a pure-Rust `.proto` compiler).

pub mod avro;
pub(crate) mod avro_amplify;
pub mod avro_json;
pub mod client;
pub mod decoder;
pub mod error;
pub mod fetch;
pub mod mapping;
pub mod protobuf;
pub mod record_decoding;
pub mod subjects;
pub mod wire;

pub use client::{RegistryClient, RegistryConfig};
pub use decoder::{Decoded, Decoder, Decoding};
pub use error::Error;
pub use fetch::{Format, SchemaInfo};
