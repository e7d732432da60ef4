//! The fleet's store: the poller's latest rows, worst first, and whether
//! the poller was started.

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

    /// Whether the poller is still to be started: true once, the first
    /// time the screen opens.
    pub fn start(&mut self) -> bool {
        !std::mem::replace(&mut self.started, true)
    }
}
