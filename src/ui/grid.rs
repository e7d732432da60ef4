//! A table's visible part ready to lay out: headers, widths, alignments
//! and the formatted cells of the visible rows. Built from a column table,
//! by the screens here and by the screen modules' drawing.

use ratatui::style::Style;

use crate::columns::{self, Align, Column, Width};

/// The visible part of a screen's table, ready to lay out.
pub struct Grid {
    /// Column headers.
    pub headers: Vec<&'static str>,
    /// Width rule per column.
    pub widths: Vec<Width>,
    /// Alignment per column.
    pub aligns: Vec<Align>,
    /// The raw cells and style of each visible row.
    pub rows: Vec<(Vec<String>, Style)>,
    /// Rows whose last cell is drawn across the columns from a given one to
    /// the end of the line, over whatever those columns hold: `(row, from)`.
    /// The fleet's unreachable row says why there, where it has no numbers.
    pub spans: Vec<(usize, usize)>,
}

/// A grid of `rows` under `table`.
pub fn grid<R>(table: &[Column<R>], rows: impl Iterator<Item = (R, Style)>) -> Grid {
    Grid {
        headers: columns::headers(table),
        widths: table.iter().map(|c| c.width).collect(),
        aligns: table.iter().map(|c| c.align).collect(),
        rows: rows
            .map(|(row, style)| (columns::cells(table, &row), style))
            .collect(),
        spans: Vec::new(),
    }
}
