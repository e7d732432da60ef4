//! The connection layer: one pipelined, version-negotiated, optionally TLS and
//! SASL protected connection per broker, and the errors of talking to Kafka.
//!
//! - [`Connection`] pipelines requests over one stream; responses are matched
//!   by correlation id; a per-request timeout applies; any framing or decoding
//!   failure poisons the connection (see `pipeline.rs`).
//! - Versions are negotiated with `ApiVersions` first (`versions.rs`): the highest
//!   version in both the request type's range and the broker's.
//! - TLS is rustls (`tls.rs`); SASL is PLAIN, SCRAM-SHA-256/512 via `rsasl`,
//!   and OAUTHBEARER from a token command (`sasl.rs`).
//! - Hostile input never aborts the process: frames are capped before any
//!   allocation ([`frame`]), the vendored kafka-protocol bounds every
//!   length-driven allocation by the bytes actually present, and every decode
//!   runs under a memory budget of 8× its input, at most 1 GiB ([`budget`],
//!   `vendor/kafka-protocol/KSCOPE-PATCH.md`).
//! - A read-only context refuses every API not on an explicit allow-list
//!   before anything is written ([`rpc::is_read_only_api`]), and a request of
//!   an allowed API that would still write: a Metadata request that may
//!   auto-create topics ([`Rpc::writes_at`]).

pub mod budget;
mod config;
mod connection;
mod dial;
mod error;
mod error_code;
pub mod frame;
mod heard;
mod peer;
mod pipeline;
pub mod protocol;
mod round_trip;
pub mod rpc;
mod sasl;
mod secret;
mod tls;
mod versions;

#[cfg(test)]
mod fake_peer_tests;

pub use config::{ConnectionConfig, SaslConfig, SaslMechanism, TlsConfig, UnknownSaslMechanism};
pub use connection::Connection;
pub use dial::Unauthenticated;
pub use error::{Error, Result};
pub use error_code::{ALL_ERROR_CODES, ErrorCode};
pub use frame::{DecodeError, decode_response, encode_request};

pub use kafka_protocol::messages::ApiKey;
pub use rpc::{Rpc, is_read_only_api, supported_versions};
pub use secret::Secret;
