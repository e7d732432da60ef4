//! The Brokers screen's column table (live brokers, then those that went
//! down).

use crate::columns::Column;
use crate::columns::format::{bytes, sparkline};
use crate::inspect::BrokerDisk;

/// How many samples the leaders sparkline shows.
pub const HISTORY_WIDTH: usize = 30;

/// What one broker row shows.
#[derive(Debug, Clone)]
pub struct Row<'a> {
    /// Node id.
    pub id: i32,
    /// `host:port`.
    pub address: String,
    /// Rack, if configured.
    pub rack: Option<&'a str>,
    /// `controller`, `voter`, `broker`, or `DOWN 3m04s`.
    pub role: String,
    /// Partitions it leads (none while down).
    pub leaders: Option<usize>,
    /// Its leader count over the session.
    pub history: Vec<u64>,
    /// Its disk: `None` before the first read, `Some(None)` when it did not
    /// answer the last one.
    pub disk: Option<Option<BrokerDisk>>,
}

/// A disk cell: `-` before the first read or where the broker does not
/// report it, `unknown` when it did not answer the last read.
fn disk_cell(row: &Row, f: fn(&BrokerDisk) -> Option<i64>) -> String {
    match row.disk {
        None => "-".to_owned(),
        Some(None) => "unknown".to_owned(),
        Some(Some(disk)) => f(&disk).map_or_else(|| "-".to_owned(), bytes),
    }
}

/// What a disk column sorts by (nothing known sorts first).
fn disk_key(row: &Row, f: fn(&BrokerDisk) -> Option<i64>) -> Option<i64> {
    row.disk.flatten().as_ref().and_then(f)
}

/// The columns: id, address, rack, role, leaders, disk used by its
/// replicas and free on its volumes (where it reports it), leaders over time.
pub fn table<'a>() -> [Column<Row<'a>>; 8] {
    [
        Column {
            // Live brokers come sorted by id, the down ones after them.
            sort: None,
            ..Column::number("ID", |r| r.id.to_string(), |a, b| a.id.cmp(&b.id))
        },
        Column::text(
            "ADDRESS",
            (12, 60),
            |r| r.address.clone(),
            Some(|a, b| a.address.cmp(&b.address)),
        ),
        Column::text(
            "RACK",
            (4, 30),
            |r| r.rack.unwrap_or("-").to_owned(),
            Some(|a, b| a.rack.cmp(&b.rack)),
        ),
        Column::text(
            "ROLE",
            (10, 14),
            |r| r.role.clone(),
            Some(|a, b| a.role.cmp(&b.role)),
        ),
        Column::number(
            "LEADERS",
            |r| r.leaders.map_or_else(|| "-".to_owned(), |l| l.to_string()),
            |a, b| a.leaders.cmp(&b.leaders),
        ),
        Column::number(
            "DISK USED",
            |r| disk_cell(r, |d| Some(d.used_bytes)),
            |a, b| disk_key(a, |d| Some(d.used_bytes)).cmp(&disk_key(b, |d| Some(d.used_bytes))),
        ),
        Column::number(
            "FREE",
            |r| disk_cell(r, |d| d.usable_bytes),
            |a, b| disk_key(a, |d| d.usable_bytes).cmp(&disk_key(b, |d| d.usable_bytes)),
        ),
        Column::text(
            "LEADERS OVER TIME",
            (17, HISTORY_WIDTH),
            |r| sparkline(&r.history, HISTORY_WIDTH),
            None,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;

    #[test]
    fn live_and_down_rows() {
        let live = Row {
            id: 2,
            address: "b2:9092".to_owned(),
            rack: Some("r1"),
            role: "controller".to_owned(),
            leaders: Some(7),
            history: vec![0, 7],
            disk: Some(Some(BrokerDisk {
                used_bytes: 2048,
                total_bytes: Some(4096),
                usable_bytes: None,
            })),
        };
        assert_eq!(
            cells(&table(), &live),
            ["2", "b2:9092", "r1", "controller", "7", "2.0KiB", "-", "▁█"]
        );
        let down = Row {
            rack: None,
            role: "DOWN 5s".to_owned(),
            leaders: None,
            history: Vec::new(),
            disk: Some(None),
            ..live
        };
        assert_eq!(
            cells(&table(), &down),
            [
                "2", "b2:9092", "-", "DOWN 5s", "-", "unknown", "unknown", ""
            ]
        );
    }
}
