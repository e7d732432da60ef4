//! The Topics screen's table.

use std::cmp::Ordering;

use crate::meta::TopicStats;

use super::Column;

/// What one topic row shows.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The topic's name.
    pub name: &'a str,
    /// Whether Kafka marks it internal.
    pub internal: bool,
    /// Its numbers, once the snapshot has them.
    pub stats: Option<&'a TopicStats>,
    /// Records across its partitions, once the watermarks are in.
    pub messages: Option<i64>,
}

fn count(row: &Row, f: fn(&TopicStats) -> usize) -> String {
    row.stats
        .map_or_else(|| "-".to_owned(), |s| f(s).to_string())
}

fn by(a: &Row, b: &Row, f: fn(&TopicStats) -> usize) -> Ordering {
    a.stats.map(f).cmp(&b.stats.map(f))
}

/// The columns: name, partitions, replication factor, under-replicated and
/// offline partitions, share of preferred leaders, records.
pub fn table<'a>() -> [Column<Row<'a>>; 7] {
    [
        Column::text(
            "TOPIC",
            (12, 60),
            |r| {
                if r.internal {
                    format!("{} (internal)", r.name)
                } else {
                    r.name.to_owned()
                }
            },
            // The snapshot keeps topics sorted by name.
            None,
        ),
        Column::number(
            "PARTS",
            |r| count(r, |s| s.partitions),
            |a, b| by(a, b, |s| s.partitions),
        ),
        Column::number(
            "RF",
            |r| count(r, |s| s.replication_factor),
            |a, b| by(a, b, |s| s.replication_factor),
        ),
        Column::number(
            "UNDER-REPL",
            |r| count(r, |s| s.under_replicated),
            |a, b| by(a, b, |s| s.under_replicated),
        ),
        Column::number(
            "OFFLINE",
            |r| count(r, |s| s.offline),
            |a, b| by(a, b, |s| s.offline),
        ),
        Column::number(
            "PREF-LEADER",
            |r| {
                r.stats.map_or_else(
                    || "-".to_owned(),
                    |s| format!("{:.0}%", s.preferred_leader_pct()),
                )
            },
            |a, b| {
                let pct = |r: &Row| r.stats.map(TopicStats::preferred_leader_pct);
                pct(a).partial_cmp(&pct(b)).unwrap_or(Ordering::Equal)
            },
        ),
        Column::number(
            "MESSAGES",
            |r| r.messages.map_or_else(|| "-".to_owned(), |m| m.to_string()),
            |a, b| a.messages.cmp(&b.messages),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;

    #[test]
    fn a_topic_row_and_one_without_numbers_yet() {
        let stats = TopicStats {
            replication_factor: 3,
            under_replicated: 1,
            offline: 0,
            preferred_leaders: 1,
            partitions: 2,
        };
        let row = Row {
            name: "orders",
            internal: false,
            stats: Some(&stats),
            messages: Some(300),
        };
        assert_eq!(
            cells(&table(), &row),
            ["orders", "2", "3", "1", "0", "50%", "300"]
        );
        let bare = Row {
            name: "__consumer_offsets",
            internal: true,
            stats: None,
            messages: None,
        };
        assert_eq!(
            cells(&table(), &bare),
            [
                "__consumer_offsets (internal)",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-"
            ]
        );
    }
}
