//! `read_committed` filtering: a fetch answer lists the aborted transactions
//! (producer id, first offset) in its range; a transactional batch of such
//! a producer is hidden until that producer's abort marker. Control batches
//! (commit and abort markers) are never records to show.

use std::collections::{HashSet, VecDeque};

use super::batch::{BatchHeader, control_is_abort};
use super::record::Record;

/// The aborted transactions of one fetch answer, consumed in offset order.
#[derive(Debug, Default, Clone)]
pub struct Aborted {
    pending: VecDeque<(i64, i64)>,
    active: HashSet<i64>,
}

impl Aborted {
    /// From the answer's `(producer_id, first_offset)` list.
    pub fn new(mut list: Vec<(i64, i64)>) -> Aborted {
        list.sort_by_key(|(_, first)| *first);
        Aborted {
            pending: list.into(),
            active: HashSet::new(),
        }
    }

    /// Whether a batch's records are hidden (batches must come in offset order).
    pub fn hides(&mut self, header: &BatchHeader, records: &[Record]) -> bool {
        let last = header.next_offset() - 1;
        while let Some(&(producer, first)) = self.pending.front() {
            if first > last {
                break;
            }
            self.active.insert(producer);
            self.pending.pop_front();
        }
        if header.control() {
            if control_is_abort(records) {
                self.active.remove(&header.producer_id);
            }
            return true;
        }
        header.transactional() && self.active.contains(&header.producer_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;

    fn header(base: i64, producer: i64, attributes: i16) -> BatchHeader {
        BatchHeader {
            base_offset: base,
            length: 0,
            leader_epoch: 0,
            attributes,
            last_offset_delta: 0,
            base_timestamp: 0,
            max_timestamp: 0,
            producer_id: producer,
            record_count: 1,
        }
    }

    fn marker(abort: bool) -> Vec<Record> {
        vec![Record {
            partition: 0,
            offset: 0,
            leader_epoch: 0,
            timestamp: 0,
            timestamp_type: super::super::record::TimestampType::Create,
            key: Some(Bytes::from(vec![0, 0, 0, u8::from(!abort)])),
            value: None,
            headers: vec![],
            codec: super::super::codec::Codec::None,
            size: 0,
        }]
    }

    #[test]
    fn an_aborted_producers_batches_are_hidden_until_its_marker() {
        const TXN: i16 = 0x10;
        const CONTROL: i16 = 0x30;
        let mut aborted = Aborted::new(vec![(7, 1)]);
        assert!(
            !aborted.hides(&header(0, 7, TXN), &[]),
            "before the aborted range"
        );
        assert!(aborted.hides(&header(1, 7, TXN), &[]));
        assert!(!aborted.hides(&header(2, 8, TXN), &[]), "another producer");
        assert!(!aborted.hides(&header(3, 7, 0), &[]), "not transactional");
        assert!(
            aborted.hides(&header(4, 7, CONTROL), &marker(true)),
            "markers never show"
        );
        assert!(
            !aborted.hides(&header(5, 7, TXN), &[]),
            "after its abort marker"
        );
        assert!(aborted.hides(&header(6, 8, CONTROL), &marker(false)));
    }
}
