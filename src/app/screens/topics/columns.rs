//! The Topics screen's table.

use std::cmp::Ordering;

use crate::columns::Column;
use crate::columns::format::{bytes, over_time, retention};
use crate::meta::TopicStats;

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
    /// `cleanup.policy`, once its configs are in.
    pub cleanup: Option<&'a str>,
    /// `retention.ms`, once its configs are in.
    pub retention_ms: Option<i64>,
    /// Partitions whose ISR is smaller than `min.insync.replicas` (producers
    /// with acks=all fail there), once its configs are in.
    pub under_min_isr: Option<usize>,
    /// Bytes on disk over all replicas, once the brokers answered.
    pub size: Option<i64>,
    /// The largest lag of any group consuming it: `None` until a group
    /// list was loaded, `Some(None)` when no group has a lag on it.
    pub lag: Option<Option<i64>>,
    /// Messages per second (high-watermark deltas), once measured.
    pub rate: Option<u64>,
    /// Bytes per second on disk (all replicas) between the last two size
    /// answers: `None` until two were read, `Some(None)` when the size
    /// shrank (retention, compaction) or a broker did not answer.
    pub bytes_rate: Option<Option<u64>>,
    /// Messages per second over the session.
    pub rates: Option<&'a std::collections::VecDeque<u64>>,
    /// Bytes per second over the session (while the topic was visible).
    pub bytes_rates: Option<&'a std::collections::VecDeque<u64>>,
}

fn dash<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

fn count(row: &Row, f: fn(&TopicStats) -> usize) -> String {
    row.stats
        .map_or_else(|| "-".to_owned(), |s| f(s).to_string())
}

/// `-` until measured, `—` when the size shrank.
fn bytes_rate(row: &Row) -> String {
    match row.bytes_rate {
        None => "-".to_owned(),
        Some(None) => "—".to_owned(),
        Some(Some(rate)) => bytes(i64::try_from(rate).unwrap_or(i64::MAX)),
    }
}

fn by(a: &Row, b: &Row, f: fn(&TopicStats) -> usize) -> Ordering {
    a.stats.map(f).cmp(&b.stats.map(f))
}

/// The columns: name, partitions, replication factor, under-replicated and
/// offline partitions, share of preferred leaders, records, then from
/// configs, log dirs and watermark deltas: under min ISR, cleanup policy,
/// retention, size, the largest group lag (`?` until the groups are
/// loaded), messages/s, bytes/s (— when the size shrank) and the
/// messages/s sparkline.
pub fn table<'a>() -> [Column<Row<'a>>; 16] {
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
        Column::number(
            "UNDER-MIN",
            |r| dash(r.under_min_isr),
            |a, b| a.under_min_isr.cmp(&b.under_min_isr),
        ),
        Column::text(
            "CLEANUP",
            (7, 14),
            |r| dash(r.cleanup),
            Some(|a, b| a.cleanup.cmp(&b.cleanup)),
        ),
        Column::number(
            "RETENTION",
            |r| dash(r.retention_ms.map(retention)),
            |a, b| {
                // Forever (-1) is the longest.
                let key = |r: &Row| r.retention_ms.map(|ms| if ms < 0 { i64::MAX } else { ms });
                key(a).cmp(&key(b))
            },
        ),
        Column::number(
            "SIZE",
            |r| dash(r.size.map(bytes)),
            |a, b| a.size.cmp(&b.size),
        ),
        Column::number(
            "LAG",
            |r| r.lag.map_or_else(|| "?".to_owned(), dash),
            |a, b| a.lag.flatten().cmp(&b.lag.flatten()),
        ),
        Column::number("MSGS/S", |r| dash(r.rate), |a, b| a.rate.cmp(&b.rate)),
        Column::number("BYTES/S", bytes_rate, |a, b| {
            a.bytes_rate.flatten().cmp(&b.bytes_rate.flatten())
        }),
        Column::fill("MSGS/S OVER TIME", (1, 0), |r| over_time(r.rates), None),
        Column::fill(
            "BYTES/S OVER TIME",
            (1, 0),
            |r| over_time(r.bytes_rates),
            None,
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
        let rates = std::collections::VecDeque::from([0, 7]);
        let row = Row {
            name: "orders",
            internal: false,
            stats: Some(&stats),
            messages: Some(300),
            cleanup: Some("compact,delete"),
            retention_ms: Some(604_800_000),
            under_min_isr: Some(1),
            size: Some(2048),
            lag: Some(Some(42)),
            rate: Some(7),
            bytes_rate: Some(Some(3072)),
            rates: Some(&rates),
            bytes_rates: Some(&rates),
        };
        assert_eq!(
            cells(&table(), &row),
            [
                "orders",
                "2",
                "3",
                "1",
                "0",
                "50%",
                "300",
                "1",
                "compact,delete",
                "7d",
                "2.0KiB",
                "42",
                "7",
                "3.0KiB",
                "▁█",
                "▁█"
            ]
        );
        let bare = Row {
            name: "__consumer_offsets",
            internal: true,
            stats: None,
            messages: None,
            cleanup: None,
            retention_ms: None,
            under_min_isr: None,
            size: None,
            lag: None,
            rate: None,
            bytes_rate: Some(None),
            rates: None,
            bytes_rates: None,
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
                "-",
                "-",
                "-",
                "-",
                "-",
                "?",
                "-",
                "—",
                "",
                ""
            ]
        );
    }
}
