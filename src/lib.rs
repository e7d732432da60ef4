//! kscope: a terminal UI and headless CLI for browsing Apache Kafka clusters.
//!
//! The layers, as DESIGN.md maps them (plus `fleet` and `recording`, which
//! its map does not name yet), depend one way: no layer imports one that
//! imports it (`scripts/import-cycles` counts layer cycles).
//!
//! - `term`: the terminal's lifecycle and the run loop (the only terminal I/O).
//! - `ui`: drawing the model into a ratatui frame; never changes it.
//! - `app`: the pure model: state, screens, actions, `update` returning effects.
//! - `paint`: what drawing is done with, by `ui` and by the screen modules in
//!   `app`: a table's visible part as a grid of cells, and the theme's colours.
//! - `cli`: the headless commands (`get`, `describe`, `watch`, `consume`, `record`).
//! - `columns`: one column table per screen, printed by both the TUI and the CLI.
//! - `fleet`: every context of the config polled at once, one row each.
//! - `recording`: what `kscope record` writes and `--from-file` reads back.
//! - `groups`: groups of every type, committed offsets, lag and its history.
//! - `inspect`: configs, log dirs, ACLs, quotas, users, the quorum, transactions.
//! - `schema`: registry schemas, and decoding Avro, Protobuf and JSON Schema.
//! - `browse`: fetching and decoding records.
//! - `meta`: metadata snapshots, routing, retries, leader movement.
//! - `conn`: the wire: framing, version negotiation, TLS, SASL.
//! - `config`: the settings file, contexts and credentials, for the binary.
//!
//! Beside the layers:
//!
//! - `logging`: the log file (and where it is).
//! - `memory`: giving freed memory back to the OS.
//! - `untrusted`: cluster text made safe to show.

pub mod anonymize;
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
pub mod paint;
pub mod recording;
pub mod schema;
pub mod term;
pub mod ui;
pub mod untrusted;
