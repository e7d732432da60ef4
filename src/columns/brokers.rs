//! The Brokers screen's table (live brokers, then those that went down).

use super::Column;
use super::format::sparkline;

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
}

/// The columns: id, address, rack, role, leaders and leaders over time.
pub fn table<'a>() -> [Column<Row<'a>>; 6] {
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
        };
        assert_eq!(
            cells(&table(), &live),
            ["2", "b2:9092", "r1", "controller", "7", "▁█"]
        );
        let down = Row {
            rack: None,
            role: "DOWN 5s".to_owned(),
            leaders: None,
            history: Vec::new(),
            ..live
        };
        assert_eq!(
            cells(&table(), &down),
            ["2", "b2:9092", "-", "DOWN 5s", "-", ""]
        );
    }
}
