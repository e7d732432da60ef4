//! One decoded record, as the layers above show it.

use bytes::Bytes;

use super::codec::Codec;

/// What a record's timestamp means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimestampType {
    /// Set by the producer when it created the record.
    Create,
    /// Set by the broker when it appended the record's batch.
    LogAppend,
}

impl TimestampType {
    /// `create` or `log_append`.
    pub fn name(self) -> &'static str {
        match self {
            TimestampType::Create => "create",
            TimestampType::LogAppend => "log_append",
        }
    }
}

/// A record header. Kafka allows the same key more than once; all are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The key (meant to be UTF-8, but untrusted bytes).
    pub key: Bytes,
    /// The value; `None` is a null value.
    pub value: Option<Bytes>,
}

/// A record of one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The partition it was read from.
    pub partition: i32,
    pub offset: i64,
    /// The leader epoch its batch was written in (-1 if unknown).
    pub leader_epoch: i32,
    /// Milliseconds since the epoch.
    pub timestamp: i64,
    /// What the timestamp means.
    pub timestamp_type: TimestampType,
    /// The key; `None` is a null key.
    pub key: Option<Bytes>,
    /// The value; `None` is a tombstone.
    pub value: Option<Bytes>,
    /// The headers, in order, duplicates kept.
    pub headers: Vec<Header>,
    /// The codec of its batch.
    pub codec: Codec,
    /// Its encoded size in the (uncompressed) batch, in bytes.
    pub size: usize,
}

#[cfg(test)]
impl Record {
    /// A record of partition 0 at `offset` whose value is `value_len` bytes
    /// of `x` (for unit tests).
    pub(crate) fn sample(offset: i64, value_len: usize) -> Record {
        Record {
            partition: 0,
            offset,
            leader_epoch: 0,
            timestamp: 0,
            timestamp_type: TimestampType::Create,
            key: None,
            value: Some(Bytes::from(vec![b'x'; value_len])),
            headers: vec![],
            codec: Codec::None,
            size: value_len,
        }
    }
}

impl Record {
    /// The bytes it holds in memory: key, value and headers.
    pub fn weight(&self) -> usize {
        let len = |b: &Option<Bytes>| b.as_ref().map_or(0, Bytes::len);
        len(&self.key)
            + len(&self.value)
            + self
                .headers
                .iter()
                .map(|h| h.key.len() + len(&h.value))
                .sum::<usize>()
            + std::mem::size_of::<Record>()
    }

    /// The same record holding copies of its bytes, so it no longer pins the
    /// fetch response it was sliced from.
    #[must_use]
    pub fn detached(&self) -> Record {
        let copy = |b: &Bytes| Bytes::copy_from_slice(b);
        Record {
            key: self.key.as_ref().map(copy),
            value: self.value.as_ref().map(copy),
            headers: self
                .headers
                .iter()
                .map(|h| Header {
                    key: copy(&h.key),
                    value: h.value.as_ref().map(copy),
                })
                .collect(),
            ..self.clone()
        }
    }
}
