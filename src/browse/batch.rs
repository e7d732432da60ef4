//! Record batches (message format v2), decoded batch by batch from a fetch
//! response's bytes: a response may end in a partial batch, a batch may be
//! corrupt, compressed with any codec, or in an old format (magic 0/1), and
//! each of these is an item of its own rather than a failure of the whole.
//!
//! Keys, values and headers of an uncompressed batch are slices of the
//! response (no copy). Duplicate header keys are kept.

use bytes::Bytes;

use super::codec::{self, Codec};
use super::record::{Header, Record, TimestampType};

pub use error::BatchError;
use fields::Cursor;

/// The fixed header of a v2 batch: offset(8) length(4) epoch(4) magic(1)
/// crc(4) attributes(2) `last_offset_delta`(4) timestamps(16) producer(14)
/// count(4).
pub const HEADER_LEN: usize = 61;
/// Offset and length, before the length counts.
const LOG_OVERHEAD: usize = 12;
/// Where the magic byte (the format version) is in every format.
const MAGIC_AT: usize = 16;

/// A v2 batch's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchHeader {
    /// The first offset.
    pub base_offset: i64,
    /// The length after the length field.
    pub length: usize,
    /// The leader epoch it was written in.
    pub leader_epoch: i32,
    /// The attributes (codec, timestamp type, transactional, control).
    pub attributes: i16,
    /// The last offset minus the first.
    pub last_offset_delta: i32,
    /// The first record's timestamp.
    pub base_timestamp: i64,
    /// The largest timestamp (the append time for log-append-time topics).
    pub max_timestamp: i64,
    /// The producer id (-1 when none).
    pub producer_id: i64,
    /// The number of records.
    pub record_count: i32,
}

impl BatchHeader {
    /// Whether it belongs to a transaction.
    pub fn transactional(&self) -> bool {
        self.attributes & 0x10 != 0
    }

    /// Whether it holds a control record (a transaction marker).
    pub fn control(&self) -> bool {
        self.attributes & 0x20 != 0
    }

    /// The timestamp type of its records.
    pub fn timestamp_type(&self) -> TimestampType {
        if self.attributes & 0x08 != 0 {
            TimestampType::LogAppend
        } else {
            TimestampType::Create
        }
    }

    /// The offset after its last record: where the next fetch starts.
    pub fn next_offset(&self) -> i64 {
        self.base_offset
            .saturating_add(i64::from(self.last_offset_delta.max(0)))
            .saturating_add(1)
    }
}

/// One item of a fetch response's records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A decoded batch.
    Batch {
        header: BatchHeader,
        /// Its records (a control batch's too: see [`control_is_abort`]).
        records: Vec<Record>,
    },
    /// A batch that could not be decoded; reading goes on at `next_offset`.
    Bad {
        /// Its first offset.
        base_offset: i64,
        /// Where reading goes on.
        next_offset: i64,
        /// What was wrong.
        error: BatchError,
    },
    /// The bytes end inside a batch of `needed` bytes (0: not even its length
    /// is there). Nothing follows.
    Partial {
        /// The batch's first offset, if its header is there.
        base_offset: Option<i64>,
        /// Its whole size, offset and length fields included.
        needed: usize,
    },
}

/// The items of `bytes` (a partition's records from a fetch response).
pub fn items(bytes: &Bytes, partition: i32, inflate_cap: usize) -> Items {
    Items {
        bytes: bytes.clone(),
        at: 0,
        partition,
        inflate_cap,
    }
}

/// Iterator over a response's batches; see [`items`].
#[derive(Debug, Clone)]
pub struct Items {
    bytes: Bytes,
    at: usize,
    partition: i32,
    inflate_cap: usize,
}

impl Items {
    /// The bytes not iterated yet.
    pub fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    /// Whether every item was iterated.
    pub fn at_end(&self) -> bool {
        self.left() == 0
    }

    /// Skip what is left: nothing more is iterated.
    pub fn end(&mut self) {
        self.at = self.bytes.len();
    }
}

impl Iterator for Items {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        let rest = self.bytes.get(self.at..)?;
        if rest.is_empty() {
            return None;
        }
        let base_offset = read_i64(rest, 0);
        let Some(length) = read_i32(rest, 8) else {
            self.at = self.bytes.len();
            return Some(Item::Partial {
                base_offset,
                needed: 0,
            });
        };
        let base = base_offset.unwrap_or(0);
        // Every format's magic byte sits at offset 16, so a batch must reach
        // it; a shorter (or negative) length means the framing is lost, and
        // nothing after it can be trusted.
        let Some(length) = usize::try_from(length)
            .ok()
            .filter(|l| *l >= MAGIC_AT + 1 - LOG_OVERHEAD)
        else {
            self.at = self.bytes.len();
            return Some(Item::Bad {
                base_offset: base,
                next_offset: base.saturating_add(1),
                error: BatchError::Malformed("batch length shorter than any record batch"),
            });
        };
        let needed = LOG_OVERHEAD.saturating_add(length);
        if rest.len() < needed {
            self.at = self.bytes.len();
            return Some(Item::Partial {
                base_offset,
                needed,
            });
        }
        let batch = self.bytes.slice(self.at..self.at + needed);
        self.at += needed;
        Some(decode(&batch, base, self.partition, self.inflate_cap))
    }
}

fn read_i64(bytes: &[u8], at: usize) -> Option<i64> {
    Some(i64::from_be_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

fn read_i32(bytes: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn read_i16(bytes: &[u8], at: usize) -> Option<i16> {
    Some(i16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
}

/// Decode one whole batch (`batch` holds exactly its bytes).
fn decode(batch: &Bytes, base_offset: i64, partition: i32, inflate_cap: usize) -> Item {
    #[allow(clippy::cast_possible_wrap)]
    let magic = batch.get(MAGIC_AT).map_or(-1, |m| *m as i8);
    let bad = |next_offset: i64, error: BatchError| Item::Bad {
        base_offset,
        next_offset,
        error,
    };
    match magic {
        2 => {}
        0 | 1 => return bad(base_offset.saturating_add(1), BatchError::OldFormat(magic)),
        _ => {
            return bad(
                base_offset.saturating_add(1),
                BatchError::UnknownMagic(magic),
            );
        }
    }
    let Some(header) = header(batch, base_offset) else {
        return bad(
            base_offset.saturating_add(1),
            BatchError::Malformed("short batch header"),
        );
    };
    let next = header.next_offset();
    let expected = u32::from_be_bytes([batch[17], batch[18], batch[19], batch[20]]);
    let actual = crc32c::crc32c(&batch[21..]);
    if expected != actual {
        return bad(next, BatchError::Crc { expected, actual });
    }
    let Some(codec) = Codec::from_attributes(header.attributes) else {
        return bad(next, BatchError::UnknownCodec(header.attributes & 0x7));
    };
    let body = batch.slice(HEADER_LEN..);
    let records = codec::inflate(codec, &body, inflate_cap)
        .map_err(BatchError::from)
        .and_then(|body| records(&header, codec, partition, &body));
    match records {
        Ok(records) => Item::Batch { header, records },
        Err(error) => bad(next, error),
    }
}

fn header(batch: &[u8], base_offset: i64) -> Option<BatchHeader> {
    if batch.len() < HEADER_LEN {
        return None;
    }
    Some(BatchHeader {
        base_offset,
        length: batch.len() - LOG_OVERHEAD,
        leader_epoch: read_i32(batch, 12)?,
        attributes: read_i16(batch, 21)?,
        last_offset_delta: read_i32(batch, 23)?,
        base_timestamp: read_i64(batch, 27)?,
        max_timestamp: read_i64(batch, 35)?,
        producer_id: read_i64(batch, 43)?,
        record_count: read_i32(batch, 57)?,
    })
}

fn records(
    header: &BatchHeader,
    codec: Codec,
    partition: i32,
    body: &Bytes,
) -> Result<Vec<Record>, BatchError> {
    let count = usize::try_from(header.record_count)
        .map_err(|_| BatchError::Malformed("negative record count"))?;
    // A record takes at least 7 bytes: never reserve more than the body holds.
    let mut out = Vec::with_capacity(count.min(body.len() / 7));
    let mut cursor = Cursor { body, at: 0 };
    let log_append = header.timestamp_type() == TimestampType::LogAppend;
    for _ in 0..count {
        let length = cursor.varint()?;
        let length =
            usize::try_from(length).map_err(|_| BatchError::Malformed("negative record length"))?;
        let start = cursor.at;
        let _attributes = cursor.byte()?;
        let timestamp_delta = cursor.varlong()?;
        let offset_delta = cursor.varint()?;
        let key = cursor.nullable()?;
        let value = cursor.nullable()?;
        let header_count = cursor.varint()?;
        let header_count = usize::try_from(header_count)
            .map_err(|_| BatchError::Malformed("negative header count"))?;
        let mut headers =
            Vec::with_capacity(header_count.min(body.len().saturating_sub(cursor.at) / 2));
        for _ in 0..header_count {
            let key = cursor
                .nullable()?
                .ok_or(BatchError::Malformed("null header key"))?;
            let value = cursor.nullable()?;
            headers.push(Header { key, value });
        }
        if cursor.at - start != length {
            return Err(BatchError::Malformed(
                "record length disagrees with its fields",
            ));
        }
        out.push(Record {
            partition,
            offset: header.base_offset.saturating_add(i64::from(offset_delta)),
            leader_epoch: header.leader_epoch,
            timestamp: if log_append {
                header.max_timestamp
            } else {
                header.base_timestamp.saturating_add(timestamp_delta)
            },
            timestamp_type: header.timestamp_type(),
            key,
            value,
            headers,
            codec,
            size: length,
        });
    }
    Ok(out)
}

/// Whether a control batch's record is an abort marker (control key: version
/// i16, type i16; 0 is abort, 1 commit).
pub fn control_is_abort(records: &[Record]) -> bool {
    records
        .first()
        .and_then(|r| r.key.as_ref())
        .is_some_and(|key| key.get(2..4) == Some(&[0, 0][..]))
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;

#[path = "batch_end.rs"]
mod end;

#[path = "batch_error.rs"]
mod error;

#[path = "batch_fields.rs"]
mod fields;
