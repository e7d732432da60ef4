//! Screen geometry shared by the model (paging, clicks) and the view.

/// Rows above the table's first data row: two header lines, the table's top
/// border and its column header.
pub const TABLE_FIRST_ROW: u16 = 4;
/// Rows below the table: its bottom border, the status line and the prompt line.
pub const BELOW_TABLE: u16 = 3;

/// How many data rows fit in a terminal `height` rows tall.
pub fn table_rows(height: u16) -> usize {
    usize::from(height.saturating_sub(TABLE_FIRST_ROW + BELOW_TABLE)).max(1)
}
