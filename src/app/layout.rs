//! Screen geometry shared by the model (paging, clicks) and the view.

use super::screen::Screen;

/// Rows above the table's first data row: two header lines, the table's top
/// border and its column header.
pub const TABLE_FIRST_ROW: u16 = 4;
/// Rows below the table: its bottom border, the status line and the prompt line.
pub const BELOW_TABLE: u16 = 3;

/// Rows above the table of `screen` (a screen module's panel: a group's
/// offsets and members, a config's detail).
pub fn table_first_row(screen: &Screen) -> u16 {
    if screen.is_text() {
        // Text (the record detail, a schema) has no column header.
        TABLE_FIRST_ROW - 1
    } else {
        TABLE_FIRST_ROW + screen.panel_rows()
    }
}

/// How many data rows of `screen` fit in a terminal `height` rows tall.
pub fn table_rows(screen: &Screen, height: u16) -> usize {
    usize::from(height.saturating_sub(table_first_row(screen) + BELOW_TABLE)).max(1)
}
