//! A partition's records decoded and not handed out yet, and what they
//! weigh: the browser asks for more, or decodes more of an answer it keeps,
//! only while a partition's queue is light (see `BUDGET`).

use std::collections::VecDeque;

use crate::browse::record::Record;

/// Records in offset order, with their total [`Record::weight`].
#[derive(Debug, Default)]
pub struct Queue {
    records: VecDeque<Record>,
    weight: usize,
}

impl Queue {
    /// Append records (in offset order, after those queued).
    pub fn extend(&mut self, records: Vec<Record>) {
        for record in records {
            self.weight = self.weight.saturating_add(record.weight());
            self.records.push_back(record);
        }
    }

    /// The first record, if any.
    pub fn front(&self) -> Option<&Record> {
        self.records.front()
    }

    /// Take the first record.
    pub fn pop(&mut self) -> Option<Record> {
        let record = self.records.pop_front()?;
        self.weight = self.weight.saturating_sub(record.weight());
        Some(record)
    }

    /// How many records are queued.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// What the queued records weigh, in bytes.
    pub fn weight(&self) -> usize {
        self.weight
    }
}
