//! The Brokers screen's visible rows: a broker down or not answering
//! kscope in the problem colour.

use ratatui::style::Style;

use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;

use super::columns::{Row, table};

/// The rows of the visible window, each with whether it is down or not
/// answering.
pub fn visible<'a>(rows: impl Iterator<Item = (Row<'a>, bool)>, theme: &Theme) -> Grid {
    grid(
        &table(),
        rows.map(|(row, down)| {
            let style = if down { theme.problem } else { Style::new() };
            (row, style)
        }),
    )
}
