//! The Producers screen's column table: the partition's active producers.

use std::time::Duration;

use crate::columns::Column;
use crate::columns::format::age;
use crate::inspect::transactions::Producer;

/// One producer, with now for "ago".
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    pub producer: &'a Producer,
    /// Now, ms since the epoch.
    pub now_ms: i64,
}

/// The columns: producer id and epoch, last sequence, how long ago it last
/// wrote, and the first offset of its open transaction here.
pub fn table<'a>() -> [Column<Row<'a>>; 5] {
    [
        Column::number(
            "PRODUCER",
            |r| r.producer.producer_id.to_string(),
            |a, b| a.producer.producer_id.cmp(&b.producer.producer_id),
        ),
        Column::number(
            "EPOCH",
            |r| r.producer.producer_epoch.to_string(),
            |a, b| a.producer.producer_epoch.cmp(&b.producer.producer_epoch),
        ),
        Column::number(
            "LAST SEQ",
            |r| r.producer.last_sequence.to_string(),
            |a, b| a.producer.last_sequence.cmp(&b.producer.last_sequence),
        ),
        Column::number(
            "LAST WRITE",
            |r| {
                let ms = u64::try_from(r.now_ms.saturating_sub(r.producer.last_timestamp_ms))
                    .unwrap_or(0);
                format!("{} ago", age(Duration::from_millis(ms)))
            },
            |a, b| {
                b.producer
                    .last_timestamp_ms
                    .cmp(&a.producer.last_timestamp_ms)
            },
        ),
        Column::fill(
            "OPEN TXN FROM OFFSET",
            (1, 20),
            |r| {
                r.producer
                    .txn_start_offset
                    .map_or_else(|| "-".to_owned(), |o| o.to_string())
            },
            Some(|a, b| {
                a.producer
                    .txn_start_offset
                    .cmp(&b.producer.txn_start_offset)
            }),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;

    #[test]
    fn a_producer_in_a_transaction() {
        let producer = Producer {
            producer_id: 2001,
            producer_epoch: 3,
            last_sequence: 19,
            last_timestamp_ms: 1_000,
            coordinator_epoch: -1,
            txn_start_offset: Some(40),
        };
        let row = Row {
            producer: &producer,
            now_ms: 6_000,
        };
        assert_eq!(cells(&table(), &row), ["2001", "3", "19", "5s ago", "40"]);
    }
}
