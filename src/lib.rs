//! kscope: a terminal UI and headless CLI for browsing Apache Kafka clusters.
//!
//! The layers follow DESIGN.md and depend one way, downwards:
//! `conn` (the wire: framing, versions, TLS, SASL) is used by `meta` (metadata
//! snapshots, routing, retries, leader movement), which everything above builds on;
//! `groups` (consumer groups, committed offsets, lag and its history) sits on `meta`.
//! `config` resolves contexts and credentials for the binary; `cli` is the
//! headless output. None of these imports a terminal crate.

pub mod cli;
pub mod config;
pub mod conn;
pub mod groups;
pub mod logging;
pub mod meta;
