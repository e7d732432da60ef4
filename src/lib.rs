//! kscope: a terminal UI and headless CLI for browsing Apache Kafka clusters.
//!
//! The layers follow DESIGN.md and depend one way, downwards:
//! `conn` (the wire: framing, versions, TLS, SASL) is used by `meta` (metadata
//! snapshots, routing, retries, leader movement), which everything above builds on.
//! Layers land here as they are built; none of them imports a terminal crate.

pub mod cli;
pub mod conn;
pub mod groups;
pub mod meta;
