//! The fleet screen's latest rows (`super::super::fleet` opens and feeds it).

use crate::fleet::{FleetRow, FleetRows};

/// The fleet's latest rows.
#[derive(Debug, Default)]
pub struct FleetStore {
    /// Worst first, as the poller publishes them.
    pub rows: Option<FleetRows>,
    /// Publications received: rows are rebuilt when it moves.
    pub answers: u64,
    /// The poller was asked for (it runs until kscope exits).
    pub started: bool,
}

impl FleetStore {
    /// Row `index` of the latest publication.
    pub fn row(&self, index: usize) -> Option<&FleetRow> {
        self.rows.as_ref()?.get(index)
    }
}
