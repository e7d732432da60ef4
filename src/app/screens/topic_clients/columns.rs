//! The "who touches a topic" table: one row per producer writing it, group
//! reading it and member of such a group, and ACL binding allowing or
//! denying it, each with when its part was read.

use std::time::{Duration, UNIX_EPOCH};

use crate::columns::Column;
use crate::columns::format::clock;

/// One line of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRow {
    /// `writes`, `reads`, `member`, `may`, `may not`, or `?` for what
    /// could not be read.
    pub role: &'static str,
    /// The producer, group, member or principal.
    pub who: String,
    /// Partitions, state, operation, or why it could not be read.
    pub detail: String,
    /// When its section was read, in ms since the epoch.
    pub read_at_ms: i64,
    /// Drawn as a problem (a section or partition that did not answer, a
    /// DENY binding).
    pub problem: bool,
    /// The group a `reads` or `member` row is about (Enter opens it).
    pub group: Option<String>,
}

/// The columns: role, who, what, and when it was read.
pub fn table() -> [Column<ClientRow>; 4] {
    [
        Column::text("ROLE", (4, 7), |r| r.role.to_owned(), None),
        Column::text("WHO", (8, 60), |r| r.who.clone(), None),
        Column::fill("DETAIL", (1, 20), |r| r.detail.clone(), None),
        Column::text(
            "READ",
            (8, 8),
            |r| {
                let ms = u64::try_from(r.read_at_ms).unwrap_or(0);
                clock(UNIX_EPOCH + Duration::from_millis(ms))
            },
            None,
        ),
    ]
}
