//! The event strip under a screen: the newest events about what it shows
//! (`super::super::event_strip` picks them).

use crate::app::screen::Screen;

/// How many events the strip shows (the newest).
pub const STRIP_EVENTS: usize = 3;

/// The strip of the screen on show.
#[derive(Debug, Default)]
pub struct Strip {
    /// What it was picked for: the screen and the timeline's count.
    pub(in crate::app) built_for: Option<(Screen, u64)>,
    /// Indices into the timeline's ring, newest first.
    pub rows: Vec<usize>,
}

impl Strip {
    /// Rows it takes on screen: a title line and its events, or nothing
    /// when the subject has no event.
    pub fn height(&self) -> u16 {
        if self.rows.is_empty() {
            0
        } else {
            u16::try_from(self.rows.len() + 1).unwrap_or(u16::MAX)
        }
    }
}
