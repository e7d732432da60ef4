//! kscope: a terminal UI and headless CLI for browsing Apache Kafka clusters.
//!
//! The layers follow DESIGN.md and depend one way, downwards:
//! `conn` (the wire: framing, versions, TLS, SASL) is used by `meta` (metadata
//! snapshots, routing, retries, leader movement), which everything above builds on;
//! `groups` (groups of every type: classic, consumer, share, streams; committed
//! offsets, lag and its history), `inspect` (configs, log dirs, ACLs, quotas,
//! users, the quorum, eligible leader replicas), `browse` (fetching and decoding
//! records) and `schema` (registry schemas and decoding with them) sit on `meta`.
//! `config` resolves contexts and credentials for the binary; `cli` is the
//! headless output. Only `term` imports a terminal crate for I/O; `ui` draws
//! with ratatui into a frame; `app` is the pure model; `columns` holds the
//! tables both the TUI and the CLI print. Beside the layers: `logging` (the
//! log file), `memory` (giving freed memory back to the OS) and `untrusted`
//! (cluster text made safe to show).

pub mod app;
pub mod browse;
pub mod cli;
pub mod columns;
pub mod config;
pub mod conn;
pub mod fleet;
pub mod groups;
pub mod inspect;
pub mod logging;
pub mod memory;
pub mod meta;
pub mod recording;
pub mod schema;
pub mod term;
pub mod ui;
pub mod untrusted;
