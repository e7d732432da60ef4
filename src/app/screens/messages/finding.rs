//! A `:find` scan as the Messages store keeps it while it runs, and how it
//! ended (`super::find` starts it and takes its answers).

use std::time::Duration;

use crate::browse::Record;

/// A scan in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Its id (answers of an older scan are dropped).
    pub id: u64,
    /// The pattern, as typed.
    pub pattern: String,
    /// Records read so far.
    pub records: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Since the scan started.
    pub elapsed: Duration,
}

impl Finding {
    /// What the title says: counts, rate, and how to cancel.
    pub fn progress(&self) -> String {
        let secs = self.elapsed.as_secs_f64().max(0.001);
        #[allow(clippy::cast_precision_loss)]
        let (rate, mib) = (
            self.records as f64 / secs,
            self.bytes as f64 / (1024.0 * 1024.0),
        );
        format!(
            "finding /{}/: {} records, {mib:.1} MiB, {rate:.0} records/s (Esc cancels)",
            self.pattern, self.records
        )
    }
}

/// How a scan ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FindEnd {
    /// This record matched.
    Found(Record),
    /// Nothing matched: the end was reached, the budget spent, or an error.
    NotFound(String),
}
