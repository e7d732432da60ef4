//! The Clients screen's drawing: the visible rows, problems marked (a
//! section or partition that did not answer, a DENY binding).

use ratatui::style::Style;

use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;

use super::columns::{ClientRow, table};

/// The visible rows, in the order read.
pub fn visible<'a>(rows: impl Iterator<Item = &'a ClientRow>, theme: &Theme) -> Grid {
    grid(
        &table(),
        rows.map(|row| {
            let style = if row.problem {
                theme.problem
            } else {
                Style::new()
            };
            (row.clone(), style)
        }),
    )
}
