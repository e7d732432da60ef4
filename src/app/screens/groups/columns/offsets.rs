//! A group's offsets per partition (and `kscope describe group`'s offsets).

use std::time::Duration;

use crate::groups::{LagHistory, PartitionLag};

use crate::columns::Column;
use crate::columns::format::{age, sparkline};
use crate::columns::group_format::{SPARK_WIDTH, lag_values};

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
    /// Its consumer is stuck (see [`LagHistory::stuck`]; the group has
    /// members).
    pub stuck: bool,
    /// The time until retention may delete records the group has not read
    /// (see [`data_loss_in`]).
    pub loss_in: Option<Duration>,
}

/// Reads of a partition that make it stuck: committed offset still, end
/// offset moving, lag left.
pub const STUCK_READS: usize = 3;

/// How long until retention may delete records the group has not read, by
/// time: `retention.ms` minus the age of the oldest unconsumed record.
/// `None` without lag, with unlimited (-1) or unknown retention. LOSS IN
/// is the earlier of this and [`bytes_loss_in`] ([`earliest`]).
///
/// A lower bound: the broker deletes a whole segment once its newest
/// record is older than `retention.ms` (checked every
/// `log.retention.check.interval.ms`, 5 minutes by default), so the record
/// may live up to a segment's span (`segment.ms`, 7 days by default, or
/// until `segment.bytes` fill) longer.
pub fn data_loss_in(retention_ms: Option<i64>, oldest_age: Option<Duration>) -> Option<Duration> {
    let retention = Duration::from_millis(u64::try_from(retention_ms?).ok()?);
    Some(retention.saturating_sub(oldest_age?))
}

/// What the size-based LOSS IN needs of one partition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizeTrend {
    /// The topic's `retention.bytes` (-1: no size limit).
    pub retention_bytes: i64,
    /// The partition's bytes on disk (its largest replica: the leader's).
    pub size: i64,
    /// Records the log holds: end offset minus log start offset.
    pub records: i64,
    /// Records past the group's committed offset: end minus committed.
    pub unread: i64,
    /// Records appended per second (the end offset's trend over the reads).
    pub records_per_sec: f64,
}

/// How long until `retention.bytes` may delete records the group has not
/// read, from the partition's size and growth. `None` without a size limit
/// (-1), lag, a known size or growth (a log that does not grow is never
/// cut by size).
///
/// The broker deletes the oldest segment while the log without it stays at
/// `retention.bytes` or more, so the group's next record goes once the log
/// has grown by `retention.bytes` minus the bytes it has not read:
///
/// ```text
/// per_record = size / (end - log_start)            bytes a record, on average
/// unread     = (end - committed) * per_record      bytes the group has not read
/// loss_in    = (retention.bytes - unread) / (records_per_sec * per_record)
/// ```
///
/// `now` (zero) when the unread bytes already reach `retention.bytes`.
/// Error bars: a lower bound by up to the rest of the committed record's
/// segment (`segment.bytes`, 1 GiB by default, over the byte rate), plus
/// the retention check interval (5 minutes); records of uneven size move
/// it either way (the average is over the whole log, the rate over the
/// reads of lag, 40 at most); a rate that changes moves it in proportion.
#[allow(clippy::cast_precision_loss)] // byte counts far below 2^52
pub fn bytes_loss_in(trend: &SizeTrend) -> Option<Duration> {
    let SizeTrend {
        retention_bytes,
        size,
        records,
        unread,
        records_per_sec,
    } = *trend;
    if retention_bytes < 0 || size <= 0 || records <= 0 || unread <= 0 {
        return None;
    }
    let per_record = size as f64 / records as f64;
    let room = retention_bytes as f64 - unread.min(records) as f64 * per_record;
    if room <= 0.0 {
        return Some(Duration::ZERO);
    }
    let secs = room / (records_per_sec * per_record);
    (records_per_sec > 0.0 && secs.is_finite()).then(|| Duration::from_secs_f64(secs))
}

/// LOSS IN: the earlier of the estimate by time and the one by size,
/// either alone when only it is known.
pub fn earliest(by_time: Option<Duration>, by_size: Option<Duration>) -> Option<Duration> {
    match (by_time, by_size) {
        (Some(t), Some(s)) => Some(t.min(s)),
        (t, s) => t.or(s),
    }
}

fn loss_in(row: &Row) -> String {
    match row.loss_in {
        None => "-".to_owned(),
        Some(d) if d.is_zero() => "now".to_owned(),
        Some(d) => age(d),
    }
}

fn dash(value: Option<i64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// The columns: topic, partition, committed, end, lag, age of the oldest
/// unconsumed record, the time until retention may delete unread records,
/// STUCK (drawn only while a visible partition is), owner, lag over time.
pub fn table<'a>() -> [Column<Row<'a>>; 10] {
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
        Column::number("LOSS IN", loss_in, |a, b| {
            // Unknown or none last when ascending: the nearest loss first.
            match (a.loss_in, b.loss_in) {
                (Some(x), Some(y)) => x.cmp(&y),
                (x, y) => y.is_some().cmp(&x.is_some()),
            }
        }),
        Column::present("STUCK", 5, |r| {
            if r.stuck {
                "STUCK".to_owned()
            } else {
                String::new()
            }
        }),
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
        .filter(|c| !matches!(c.header, "OWNER" | "LAG OVER TIME" | "STUCK"))
        .collect()
}

/// The columns `describe group --stuck-over` prints: the one-shot ones
/// plus STUCK and the member owning each partition (its client id).
pub fn judged<'a>() -> Vec<Column<Row<'a>>> {
    table()
        .into_iter()
        .filter(|c| c.header != "LAG OVER TIME")
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
                stuck: false,
                loss_in: None,
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
            stuck: false,
            loss_in: data_loss_in(Some(3_600_000), Some(Duration::from_secs(75))),
        };
        assert_eq!(
            cells(&super::table(), &row),
            [
                "orders",
                "2",
                "5",
                "9",
                "4",
                "1m15s",
                "58m45s",
                "",
                "billing-1",
                "▄█"
            ]
        );
    }

    #[test]
    fn loss_in_is_retention_minus_the_oldest_unread_records_age() {
        let hour = Some(3_600_000);
        let (old, young) = (Duration::from_secs(4_000), Duration::from_mins(10));
        assert_eq!(
            data_loss_in(hour, Some(old)),
            Some(Duration::ZERO),
            "already due"
        );
        assert_eq!(
            data_loss_in(hour, Some(young)),
            Some(Duration::from_mins(50))
        );
        assert_eq!(data_loss_in(Some(-1), Some(old)), None, "kept forever");
        assert_eq!(
            data_loss_in(None, Some(old)),
            None,
            "retention not read yet"
        );
        assert_eq!(data_loss_in(hour, None), None, "nothing unread");
    }

    #[test]
    fn loss_in_by_size_is_the_room_left_over_the_byte_rate_and_the_earlier_wins() {
        // 1000 records of 1 KB; the group has 200 unread (200 KB); the
        // limit 500 KB leaves 300 KB of growth; 10 records (10 KB) a second.
        let trend = SizeTrend {
            retention_bytes: 500_000,
            size: 1_000_000,
            records: 1_000,
            unread: 200,
            records_per_sec: 10.0,
        };
        assert_eq!(bytes_loss_in(&trend), Some(Duration::from_secs(30)));
        let deep = SizeTrend {
            unread: 600,
            ..trend
        };
        assert_eq!(bytes_loss_in(&deep), Some(Duration::ZERO), "due now");
        let unlimited = SizeTrend {
            retention_bytes: -1,
            ..trend
        };
        assert_eq!(bytes_loss_in(&unlimited), None);
        let idle = SizeTrend {
            records_per_sec: 0.0,
            ..trend
        };
        assert_eq!(bytes_loss_in(&idle), None, "a log that does not grow");
        let read_all = SizeTrend { unread: 0, ..trend };
        assert_eq!(bytes_loss_in(&read_all), None);
        let (hour, half) = (Duration::from_hours(1), Duration::from_secs(30));
        assert_eq!(earliest(Some(hour), Some(half)), Some(half));
        assert_eq!(earliest(Some(hour), None), Some(hour));
        assert_eq!(earliest(None, Some(half)), Some(half));
        assert_eq!(earliest(None, None), None);
    }

    #[test]
    fn stuck_needs_the_commit_still_the_end_moving_and_lag_left() {
        let start = Instant::now();
        let history = |points: &[(i64, i64)]| {
            let mut h = LagHistory::new(10);
            for (i, &(committed, end)) in points.iter().enumerate() {
                h.push(LagSample {
                    at: start + Duration::from_secs(5 * i as u64),
                    lag: end - committed,
                    committed,
                    end,
                });
            }
            h
        };
        assert!(history(&[(20, 100), (20, 105), (20, 110)]).stuck(STUCK_READS));
        assert!(
            !history(&[(20, 100), (20, 100), (20, 100)]).stuck(STUCK_READS),
            "a quiet topic"
        );
        assert!(
            !history(&[(20, 100), (21, 105), (21, 110)]).stuck(STUCK_READS),
            "it moved"
        );
        assert!(
            !history(&[(20, 100), (20, 105)]).stuck(STUCK_READS),
            "too few reads"
        );
        assert!(!history(&[(100, 100), (100, 105), (105, 105)]).stuck(STUCK_READS));
    }
}
