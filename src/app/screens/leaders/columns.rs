//! The leader-movement log's column table (shared with `watch leaders`'
//! formatters in `columns::format`).

use crate::columns::Column;
use crate::columns::format::{clock, movement_detail};
use crate::meta::MovementEvent;

/// The columns: time, topic, partition, kind of event, what it says.
pub fn table<'a>() -> [Column<&'a MovementEvent>; 5] {
    [
        Column::text(
            "TIME",
            (8, 8),
            |e| clock(e.time),
            // The log is kept in arrival order.
            None,
        ),
        Column::text(
            "TOPIC",
            (12, 60),
            |e| e.topic.clone().unwrap_or_else(|| "-".to_owned()),
            Some(|a, b| a.topic.cmp(&b.topic)),
        ),
        Column::number(
            "PARTITION",
            |e| {
                e.partition
                    .map_or_else(|| "-".to_owned(), |p| p.to_string())
            },
            |a, b| a.partition.cmp(&b.partition),
        ),
        Column::text(
            "EVENT",
            (16, 18),
            |e| e.kind.name().to_owned(),
            Some(|a, b| a.kind.name().cmp(b.kind.name())),
        ),
        Column::fill("DETAIL", (1, 20), |e| movement_detail(&e.kind), None),
    ]
}
