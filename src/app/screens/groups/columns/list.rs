//! The consumer-groups list's table (and `kscope get groups`).

use crate::groups::{GroupSummary, LagHistory};

use crate::columns::Column;
use crate::columns::group_format::{SPARK_WIDTH, total_lag, trend_cell};

/// What one group row shows.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The group as the last overview has it.
    pub summary: &'a GroupSummary,
    /// Its lag over the session (the TUI keeps one; a headless run does not).
    pub history: Option<&'a LagHistory>,
}

fn lag(row: &Row) -> Option<i64> {
    row.summary.lag.as_ref().and_then(|l| l.totals.total())
}

/// The columns: name, type, state, members, topics, lag, lag over time,
/// coordinator.
pub fn table<'a>() -> [Column<Row<'a>>; 8] {
    [
        Column::text(
            "GROUP",
            (12, 60),
            |r| r.summary.listing.group.clone(),
            // The overview comes sorted by name.
            None,
        ),
        Column::text(
            "TYPE",
            (8, 10),
            |r| r.summary.listing.group_type.to_string(),
            Some(|a, b| {
                a.summary
                    .listing
                    .group_type
                    .cmp(&b.summary.listing.group_type)
            }),
        ),
        Column::text(
            "STATE",
            (11, 20),
            |r| r.summary.state.to_string(),
            Some(|a, b| a.summary.state.as_str().cmp(b.summary.state.as_str())),
        ),
        Column::number(
            "MEMBERS",
            |r| {
                r.summary
                    .members
                    .map_or_else(|| "?".to_owned(), |n| n.to_string())
            },
            |a, b| a.summary.members.cmp(&b.summary.members),
        ),
        Column::text(
            "TOPICS",
            (6, 50),
            |r| {
                if r.summary.topics.is_empty() {
                    "-".to_owned()
                } else {
                    r.summary.topics.join(",")
                }
            },
            Some(|a, b| a.summary.topics.len().cmp(&b.summary.topics.len())),
        ),
        Column::number("LAG", |r| total_lag(r.summary), |a, b| lag(a).cmp(&lag(b))),
        Column::text(
            "LAG OVER TIME",
            (13, SPARK_WIDTH + 2),
            |r| trend_cell(r.history),
            Some(|a, b| lag(a).cmp(&lag(b))),
        ),
        Column::number(
            "COORD",
            |r| r.summary.listing.coordinator.to_string(),
            |a, b| {
                a.summary
                    .listing
                    .coordinator
                    .cmp(&b.summary.listing.coordinator)
            },
        ),
    ]
}

/// The columns a one-shot command prints: all but the lag over time, which
/// only a running session has.
pub fn headless<'a>() -> Vec<Column<Row<'a>>> {
    table()
        .into_iter()
        .filter(|c| c.header != "LAG OVER TIME")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;
    use crate::columns::fixtures::billing;
    use crate::groups::LagSample;
    use std::time::{Duration, Instant};

    #[test]
    fn group_rows_and_trend() {
        let summary = billing();
        let start = Instant::now();
        let mut growing = LagHistory::new(10);
        for (secs, end) in [(0, 10), (10, 100)] {
            growing.push(LagSample {
                at: start + Duration::from_secs(secs),
                lag: end,
                committed: 0,
                end,
            });
        }
        let row = Row {
            summary: &summary,
            history: Some(&growing),
        };
        assert_eq!(
            cells(&table(), &row),
            [
                "billing",
                "consumer",
                "Reconciling",
                "3",
                "orders,audit",
                "10",
                "↑ ▁█",
                "2"
            ]
        );
        let headers: Vec<&str> = headless().iter().map(|c| c.header).collect();
        assert_eq!(
            headers,
            [
                "GROUP", "TYPE", "STATE", "MEMBERS", "TOPICS", "LAG", "COORD"
            ]
        );
    }
}
