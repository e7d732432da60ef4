//! `kscope get quorum`: one row per replica of the metadata log.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::rows::{number, opt, text};
use crate::columns::Column;
use crate::inspect::quorum;
use crate::meta::Cluster;

use crate::cli::output::emit;

/// One replica of the metadata log (`get quorum`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuorumRow {
    pub node_id: i32,
    /// `leader`, `voter` or `observer`.
    pub role: &'static str,
    /// Its log end offset.
    pub log_end_offset: i64,
    /// Behind the leader's log end offset by this much.
    pub lag: i64,
    /// Last fetch, ms since the epoch; null when unknown.
    pub last_fetch_ms: Option<i64>,
    /// Last caught up, ms since the epoch; null when unknown.
    pub last_caught_up_ms: Option<i64>,
    /// The quorum's leader (the active controller).
    pub leader_id: i32,
    /// The leader's epoch.
    pub leader_epoch: i32,
    /// The metadata log's high watermark.
    pub high_watermark: i64,
}

impl QuorumRow {
    /// The table `get quorum` prints.
    pub fn table() -> [Column<QuorumRow>; 6] {
        [
            number("NODE", |r| r.node_id.to_string()),
            text("ROLE", |r| r.role.to_owned()),
            number("LOG-END", |r| r.log_end_offset.to_string()),
            number("LAG", |r| r.lag.to_string()),
            number("EPOCH", |r| r.leader_epoch.to_string()),
            number("LAST-FETCH-MS", |r| opt(r.last_fetch_ms)),
        ]
    }
}

/// Print the quorum.
pub async fn run(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let quorum = match quorum::describe(cluster).await {
        Err(crate::inspect::Error::NoKraftQuorum) => {
            // Not a failure: a ZooKeeper-mode cluster has no quorum to list.
            eprintln!("kscope: {}", crate::inspect::Error::NoKraftQuorum);
            return emit(out, format, &[], &QuorumRow::table());
        }
        answer => answer?,
    };
    let rows: Vec<QuorumRow> = quorum
        .replicas
        .iter()
        .map(|r| QuorumRow {
            node_id: r.node_id,
            role: r.role,
            log_end_offset: r.log_end_offset,
            lag: r.lag,
            last_fetch_ms: r.last_fetch_ms,
            last_caught_up_ms: r.last_caught_up_ms,
            leader_id: quorum.leader_id,
            leader_epoch: quorum.leader_epoch,
            high_watermark: quorum.high_watermark,
        })
        .collect();
    emit(out, format, &rows, &QuorumRow::table())
}
