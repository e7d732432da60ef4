//! The Cluster screen's column table: the `KRaft` quorum's replicas.

use std::time::Duration;

use crate::columns::Column;
use crate::columns::format::age;
use crate::inspect::quorum::QuorumReplica;

/// One replica of the metadata log.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The replica.
    pub replica: &'a QuorumReplica,
    /// Now, ms since the epoch (for "ago").
    pub now_ms: i64,
}

fn ago(now_ms: i64, at: Option<i64>) -> String {
    at.map_or_else(
        || "-".to_owned(),
        |at| {
            let ms = u64::try_from(now_ms.saturating_sub(at)).unwrap_or(0);
            format!("{} ago", age(Duration::from_millis(ms)))
        },
    )
}

/// The columns: node, role, log end offset, lag behind the leader, and
/// how long ago it last fetched and was last caught up.
pub fn table<'a>() -> [Column<Row<'a>>; 6] {
    [
        Column {
            // The quorum comes leader first, then voters, then observers.
            sort: None,
            ..Column::number(
                "NODE",
                |r| r.replica.node_id.to_string(),
                |a, b| a.replica.node_id.cmp(&b.replica.node_id),
            )
        },
        Column::text(
            "ROLE",
            (8, 8),
            |r| r.replica.role.to_owned(),
            Some(|a, b| a.replica.role.cmp(b.replica.role)),
        ),
        Column::number(
            "LOG END",
            |r| r.replica.log_end_offset.to_string(),
            |a, b| a.replica.log_end_offset.cmp(&b.replica.log_end_offset),
        ),
        Column::number(
            "LAG",
            |r| r.replica.lag.to_string(),
            |a, b| a.replica.lag.cmp(&b.replica.lag),
        ),
        Column::text(
            "LAST FETCH",
            (10, 16),
            |r| ago(r.now_ms, r.replica.last_fetch_ms),
            Some(|a, b| a.replica.last_fetch_ms.cmp(&b.replica.last_fetch_ms)),
        ),
        Column::fill(
            "LAST CAUGHT UP",
            (1, 14),
            |r| ago(r.now_ms, r.replica.last_caught_up_ms),
            Some(|a, b| {
                a.replica
                    .last_caught_up_ms
                    .cmp(&b.replica.last_caught_up_ms)
            }),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;

    #[test]
    fn a_replica_row() {
        let replica = QuorumReplica {
            node_id: 2,
            role: "voter",
            log_end_offset: 90,
            lag: 10,
            last_fetch_ms: Some(1_000),
            last_caught_up_ms: None,
        };
        let row = Row {
            replica: &replica,
            now_ms: 4_000,
        };
        assert_eq!(
            cells(&table(), &row),
            ["2", "voter", "90", "10", "3s ago", "-"]
        );
    }
}
