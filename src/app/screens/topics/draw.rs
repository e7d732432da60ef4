//! The Topics screen's visible rows: a topic with an offline partition or
//! one under its min ISR in the problem colour, one under-replicated in the
//! warning colour.

use ratatui::style::Style;

use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;

use super::columns::{Row, table};

/// The rows of the visible window, styled by health.
pub fn visible<'a>(rows: impl Iterator<Item = Row<'a>>, theme: &Theme) -> Grid {
    grid(
        &table(),
        rows.map(|row| {
            let style = if row.stats.is_some_and(|s| s.offline > 0)
                || row.under_min_isr.is_some_and(|n| n > 0)
            {
                theme.problem
            } else if row.stats.is_some_and(|s| s.under_replicated > 0) {
                theme.warning
            } else {
                Style::new()
            };
            (row, style)
        }),
    )
}
