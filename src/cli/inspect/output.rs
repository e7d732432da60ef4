//! Rows out as JSON (one array) or an aligned table.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::table;

/// Write `rows` as `format` says: JSON from their fields, or a table of
/// `headers` with `cells` of each row.
pub fn emit<R: Serialize>(
    out: &mut impl Write,
    format: OutputFormat,
    rows: &[R],
    headers: &[&str],
    cells: impl Fn(&R) -> Vec<String>,
) -> Result<(), Error> {
    match format {
        OutputFormat::Json => {
            serde_json::to_writer(&mut *out, rows)?;
            writeln!(out)?;
        }
        OutputFormat::Table => {
            let cells: Vec<Vec<String>> = rows.iter().map(cells).collect();
            table::write(out, headers, &cells)?;
        }
    }
    out.flush()?;
    Ok(())
}

/// An optional value as a table cell: `-` when absent.
pub fn opt<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}
