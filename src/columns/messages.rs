//! The Messages screen's table (records of one topic or partition): where a
//! record is, when, its key, a one-line preview of its value, its size.

use crate::browse::{Format, Record, format};

use super::Column;

/// What one record row shows.
#[derive(Debug, Clone)]
pub struct Row<'a> {
    pub record: &'a Record,
    /// How values are shown (`:format`).
    pub format: Format,
    /// The local time zone's offset from UTC, in seconds.
    pub utc_offset: i32,
    /// The key's cell when the schema registry decoded it (or marks it).
    pub key: Option<String>,
    /// The value's cell when the schema registry decoded it (or marks it).
    pub value: Option<String>,
}

/// Characters of a value the preview formats at most (the cell cuts it to
/// the column's width).
const PREVIEW: usize = 400;

/// `2026-12-04 07:04:35.123` at `offset_secs` from UTC (`-` when the
/// timestamp is unknown).
pub fn datetime(ms: i64, offset_secs: i32) -> String {
    format::datetime(ms, offset_secs, ' ', "").unwrap_or_else(|| "-".to_owned())
}

/// `+01:00`, `UTC`.
pub fn zone(offset_secs: i32) -> String {
    if offset_secs == 0 {
        return "UTC".to_owned();
    }
    let sign = if offset_secs < 0 { '-' } else { '+' };
    let abs = offset_secs.unsigned_abs();
    format!("{sign}{:02}:{:02}", abs / 3600, abs / 60 % 60)
}

/// The key as a cell: text, hex when binary, `-` when null.
pub fn key_text(key: Option<&[u8]>) -> String {
    match key {
        None => "-".to_owned(),
        Some(bytes) => match format::detect(bytes) {
            format::Kind::Binary => format::hex_preview(bytes, 16),
            format::Kind::Json | format::Kind::Text => {
                String::from_utf8_lossy(&bytes[..bytes.len().min(256)]).into_owned()
            }
        },
    }
}

/// The columns: partition, offset, time (local), key, value preview, size.
/// Rows keep the order they arrived in, so no column sorts.
pub fn table<'a>() -> [Column<Row<'a>>; 6] {
    [
        Column::text("PART", (4, 6), |r| r.record.partition.to_string(), None),
        Column::text("OFFSET", (6, 20), |r| r.record.offset.to_string(), None),
        Column::text(
            "TIME",
            (23, 23),
            |r| datetime(r.record.timestamp, r.utc_offset),
            None,
        ),
        Column::text(
            "KEY",
            (3, 24),
            |r| {
                r.key
                    .clone()
                    .unwrap_or_else(|| key_text(r.record.key.as_deref()))
            },
            None,
        ),
        Column::fill(
            "VALUE",
            (1, 10),
            |r| {
                r.value.clone().unwrap_or_else(|| {
                    format::preview(r.record.value.as_deref(), r.format, PREVIEW)
                })
            },
            None,
        ),
        Column::text("SIZE", (4, 9), |r| r.record.size.to_string(), None),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::{Codec, TimestampType};
    use crate::columns::cells;
    use bytes::Bytes;

    #[test]
    fn record_row() {
        let record = Record {
            partition: 2,
            offset: 41,
            leader_epoch: 5,
            timestamp: 1_800_000_000_123,
            timestamp_type: TimestampType::Create,
            key: Some(Bytes::from_static(b"order-7")),
            value: Some(Bytes::from_static(b"{ \"id\": 7 }")),
            headers: vec![],
            codec: Codec::Lz4,
            size: 31,
        };
        let row = Row {
            record: &record,
            format: Format::Auto,
            utc_offset: 3600,
            key: None,
            value: None,
        };
        assert_eq!(
            cells(&table(), &row),
            [
                "2",
                "41",
                "2027-01-15 09:00:00.123",
                "order-7",
                "{\"id\":7}",
                "31"
            ]
        );
        let tombstone = Record {
            key: None,
            value: None,
            ..record.clone()
        };
        let row = Row {
            record: &tombstone,
            ..row
        };
        assert_eq!(cells(&table(), &row)[3..5], ["-", "(tombstone)"]);
        assert_eq!(zone(3600), "+01:00");
        assert_eq!(zone(-16_200), "-04:30");
        assert_eq!(datetime(-1, 0), "-");
    }
}
