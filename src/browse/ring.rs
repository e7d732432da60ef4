//! The bounded ring a live view keeps: at most N records and M bytes; when
//! full the oldest go, and how many went is counted.

use std::collections::VecDeque;

use bytes::Bytes;

use super::record::Record;

/// Records kept by default.
pub const DEFAULT_RECORDS: usize = 10_000;
/// Bytes kept by default (64 MiB).
pub const DEFAULT_BYTES: usize = 64 * 1024 * 1024;
/// Values longer than this are kept truncated (their true size is in
/// [`Record::size`]).
pub const DEFAULT_VALUE_CAP: usize = 1024 * 1024;

/// A bounded ring of records.
#[derive(Debug)]
pub struct Ring {
    records: VecDeque<Record>,
    bytes: usize,
    max_records: usize,
    max_bytes: usize,
    value_cap: usize,
    dropped: u64,
}

impl Default for Ring {
    fn default() -> Self {
        Ring::new(DEFAULT_RECORDS, DEFAULT_BYTES, DEFAULT_VALUE_CAP)
    }
}

impl Ring {
    /// A ring of at most `max_records` and `max_bytes`, keeping at most
    /// `value_cap` bytes of a value.
    pub fn new(max_records: usize, max_bytes: usize, value_cap: usize) -> Ring {
        Ring {
            records: VecDeque::new(),
            bytes: 0,
            max_records: max_records.max(1),
            max_bytes,
            value_cap,
            dropped: 0,
        }
    }

    /// Add a record (copied, so it pins no fetch response; its value cut at
    /// the cap), dropping the oldest to stay within bounds.
    pub fn push(&mut self, record: &Record) {
        let mut record = record.detached();
        if let Some(value) = &record.value
            && value.len() > self.value_cap
        {
            record.value = Some(Bytes::copy_from_slice(&value[..self.value_cap]));
        }
        self.bytes += record.weight();
        self.records.push_back(record);
        while self.records.len() > self.max_records
            || (self.bytes > self.max_bytes && self.records.len() > 1)
        {
            if let Some(old) = self.records.pop_front() {
                self.bytes -= old.weight();
                self.dropped += 1;
            }
        }
    }

    /// The records, oldest first.
    pub fn records(&self) -> &VecDeque<Record> {
        &self.records
    }

    /// How many records were dropped to stay within bounds.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Take every record out (the drop count stays).
    pub fn drain(&mut self) -> Vec<Record> {
        self.bytes = 0;
        self.records.drain(..).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(offset: i64, value_len: usize) -> Record {
        Record::sample(offset, value_len)
    }

    #[test]
    fn the_oldest_go_first_and_are_counted() {
        let mut ring = Ring::new(3, usize::MAX, usize::MAX);
        for offset in 0..5 {
            ring.push(&record(offset, 1));
        }
        let kept: Vec<i64> = ring.records().iter().map(|r| r.offset).collect();
        assert_eq!(kept, [2, 3, 4]);
        assert_eq!(ring.dropped(), 2);
    }

    #[test]
    fn bytes_bound_the_ring_and_long_values_are_cut() {
        let one = record(0, 1000).weight();
        let mut ring = Ring::new(100, one * 2, 1000);
        for offset in 0..10 {
            ring.push(&record(offset, 5000));
        }
        assert!(ring.bytes() <= one * 2, "{} bytes", ring.bytes());
        assert_eq!(ring.records().len(), 2);
        assert_eq!(ring.dropped(), 8);
        let kept = &ring.records()[0];
        assert_eq!(kept.value.as_ref().map(Bytes::len), Some(1000));
        assert_eq!(kept.size, 5000, "the true size stays");
    }
}
