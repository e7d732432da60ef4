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
            json(out, rows, false)?;
            writeln!(out)?;
        }
        OutputFormat::Csv => table::write_csv(out, table, rows)?,
        OutputFormat::Table | OutputFormat::Raw => table::write_columns(out, table, rows)?,
    }
    out.flush()?;
    Ok(())
}

/// Write `value` as JSON (indented when `pretty`), its names replaced by
/// pseudonyms under `--anonymize` ([`crate::anonymize::Anonymizer::json`]):
/// the one JSON writer of the headless commands' documents.
pub fn json<T: Serialize + ?Sized>(
    out: &mut impl Write,
    value: &T,
    pretty: bool,
) -> Result<(), serde_json::Error> {
    match crate::anonymize::active() {
        Some(anonymizer) => {
            let mut value = serde_json::to_value(value)?;
            anonymizer.json(&mut value);
            write_json(out, &value, pretty)
        }
        None => write_json(out, value, pretty),
    }
}

fn write_json<T: Serialize + ?Sized>(
    out: &mut impl Write,
    value: &T,
    pretty: bool,
) -> Result<(), serde_json::Error> {
    if pretty {
        serde_json::to_writer_pretty(out, value)
    } else {
        serde_json::to_writer(out, value)
    }
}
