//! Rows out as JSON (one array), CSV or an aligned table: what every `get` command prints.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::table;
use crate::columns::Column;

/// Write `rows` as `format` says: JSON from their fields, or `table`.
pub fn emit<R: Serialize>(
    out: &mut impl Write,
    format: OutputFormat,
    rows: &[R],
    table: &[Column<R>],
) -> Result<(), Error> {
    match format {
        OutputFormat::Json => {
            serde_json::to_writer(&mut *out, rows)?;
            writeln!(out)?;
        }
        OutputFormat::Csv => table::write_csv(out, table, rows)?,
        OutputFormat::Table | OutputFormat::Raw => table::write_columns(out, table, rows)?,
    }
    out.flush()?;
    Ok(())
}
