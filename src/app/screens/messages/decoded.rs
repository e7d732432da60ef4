//! The decoded key and value cells of the Messages rows on screen, kept by
//! record sequence (`super::cells` makes them in `update`; the
//! view only reads them).

use std::collections::HashMap;

use crate::browse::Format;

/// What the cells were made under.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(in crate::app) struct Stamp {
    pub(in crate::app) session: u64,
    pub(in crate::app) format: Option<Format>,
    pub(in crate::app) answers: u64,
}

/// One row's cells: `None` where the key or value shows as bytes, as usual.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cells {
    /// The key's cell.
    pub key: Option<String>,
    /// The value's cell.
    pub value: Option<String>,
}

/// The cells of the rows on screen.
#[derive(Debug, Default)]
pub struct DecodedCells {
    pub(in crate::app) stamp: Stamp,
    pub(in crate::app) cells: HashMap<usize, Cells>,
    /// Cells made since the session started (each row is decoded once while
    /// it stays on screen, not once per frame).
    pub made: u64,
}

impl DecodedCells {
    /// The cells of the record with sequence `seq`, if it was on screen at
    /// the last update; `None` shows its bytes as usual.
    pub fn get(&self, seq: usize) -> Option<&Cells> {
        self.cells.get(&seq)
    }

    /// How many rows have cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether no row has cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}
