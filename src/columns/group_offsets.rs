//! A group's offsets per partition (and `kscope describe group`'s offsets).

use std::time::Duration;

use crate::groups::{LagHistory, PartitionLag};

use super::Column;
use super::format::{age, sparkline};
use super::group_format::{SPARK_WIDTH, lag_values};

/// What one partition of a group shows.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// Committed offset and end of the partition.
    pub lag: &'a PartitionLag,
    /// Age of the oldest record the group has not consumed.
    pub oldest_age: Option<Duration>,
    /// Client id of the member holding the partition.
    pub owner: Option<&'a str>,
    /// The partition's lag over the session.
    pub history: Option<&'a LagHistory>,
}

fn dash(value: Option<i64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// The columns: topic, partition, committed, end, lag, age of the oldest
/// unconsumed record, owner, lag over time.
pub fn table<'a>() -> [Column<Row<'a>>; 8] {
    [
        Column::text(
            "TOPIC",
            (12, 60),
            |r| r.lag.topic.to_string(),
            // The partitions come sorted by topic, then partition.
            None,
        ),
        Column::number(
            "PARTITION",
            |r| r.lag.partition.to_string(),
            |a, b| a.lag.partition.cmp(&b.lag.partition),
        ),
        Column::number(
            "COMMITTED",
            |r| dash(r.lag.committed),
            |a, b| a.lag.committed.cmp(&b.lag.committed),
        ),
        Column::number("END", |r| dash(r.lag.end), |a, b| a.lag.end.cmp(&b.lag.end)),
        Column::number(
            "LAG",
            |r| r.lag.lag().to_string(),
            |a, b| a.lag.records().cmp(&b.lag.records()),
        ),
        Column::number(
            "OLDEST",
            |r| r.oldest_age.map_or_else(|| "-".to_owned(), age),
            |a, b| a.oldest_age.cmp(&b.oldest_age),
        ),
        Column::text(
            "OWNER",
            (5, 40),
            |r| r.owner.unwrap_or("-").to_owned(),
            Some(|a, b| a.owner.cmp(&b.owner)),
        ),
        Column::text(
            "LAG OVER TIME",
            (13, SPARK_WIDTH),
            |r| {
                r.history
                    .map_or_else(String::new, |h| sparkline(&lag_values(h), SPARK_WIDTH))
            },
            Some(|a, b| a.lag.records().cmp(&b.lag.records())),
        ),
    ]
}

/// The columns a one-shot command prints: the offsets and the oldest
/// record's age (owners are in its members table; no session history).
pub fn headless<'a>() -> Vec<Column<Row<'a>>> {
    table()
        .into_iter()
        .filter(|c| !matches!(c.header, "OWNER" | "LAG OVER TIME"))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::columns::cells;
    use crate::columns::fixtures::part;
    use crate::groups::LagSample;

    #[test]
    fn offset_rows_say_no_commit_rather_than_zero() {
        let table = [
            (part(Some(5), Some(9)), "4"),
            (part(None, Some(9)), "no commit"),
            (part(Some(5), None), "unknown"),
            (part(Some(9), Some(5)), "past end +4"),
        ];
        for (p, lag) in table {
            let row = Row {
                lag: &p,
                oldest_age: None,
                owner: None,
                history: None,
            };
            assert_eq!(cells(&super::table(), &row)[4], lag, "{p:?}");
        }
        let start = Instant::now();
        let mut history = LagHistory::new(10);
        for (secs, end) in [(0, 4), (5, 8)] {
            history.push(LagSample {
                at: start + Duration::from_secs(secs),
                lag: end,
                committed: 0,
                end,
            });
        }
        let p = part(Some(5), Some(9));
        let row = Row {
            lag: &p,
            oldest_age: Some(Duration::from_secs(75)),
            owner: Some("billing-1"),
            history: Some(&history),
        };
        assert_eq!(
            cells(&super::table(), &row),
            ["orders", "2", "5", "9", "4", "1m15s", "billing-1", "▄█"]
        );
    }
}
