//! Output that is partial: rows or fields that could not be answered (a
//! broker that did not list its groups, sizes no broker gave, a partition
//! that failed while consuming). Each is one stderr line saying what is
//! missing and why, and the process exits with [`PARTIAL_EXIT`] instead of 0,
//! so a script can tell "everything answered" from "printed, but not all".
//!
//! One headless command runs per process, so the mark is process-wide.

use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status of a command whose output is partial (0: everything
/// answered, 1: an error, 2: a usage error).
pub const PARTIAL_EXIT: u8 = 3;

static PARTIAL: AtomicBool = AtomicBool::new(false);

/// Say on stderr what the output lacks (`kscope: LINE`), and mark it partial.
pub fn missing(line: impl Display) {
    eprintln!("kscope: {line}");
    PARTIAL.store(true, Ordering::Relaxed);
}

/// Whether anything printed so far was partial.
pub fn happened() -> bool {
    PARTIAL.load(Ordering::Relaxed)
}
