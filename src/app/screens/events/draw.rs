//! The events timeline's visible rows, coloured by severity: critical in
//! the problem colour, a warning in the moved colour.

use ratatui::style::Style;

use crate::meta::{MovementEvent, Severity};
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;

use super::columns::table;

/// The rows of `events` (the visible window), styled by severity.
pub fn visible<'a>(events: impl Iterator<Item = &'a MovementEvent>, theme: &Theme) -> Grid {
    grid(
        &table(),
        events.map(|e| {
            let style = match e.kind.severity() {
                Severity::Critical => theme.problem,
                Severity::Warn => theme.moved,
                Severity::Info => Style::new(),
            };
            (e, style)
        }),
    )
}
