//! Aligned text columns with a header: the one table writer of headless
//! output. Cells go through [`columns::cell`], so text from the cluster is
//! escaped and columns line up by display width.

use std::io::{self, Write};

use crate::columns::{self, Align, Column};

/// Write `rows` under the headers of `table`.
pub fn write_columns<R>(out: &mut impl Write, table: &[Column<R>], rows: &[R]) -> io::Result<()> {
    let headers = columns::headers(table);
    let aligns: Vec<Align> = table.iter().map(|c| c.align).collect();
    let cells: Vec<Vec<String>> = rows.iter().map(|r| columns::cells(table, r)).collect();
    write(out, &headers, &aligns, &cells)
}

/// Write `rows` as CSV (RFC 4180) under the headers of `table`: the raw
/// cells, quoted where needed (a CSV reader gets the text exact).
pub fn write_csv<R>(out: &mut impl Write, table: &[Column<R>], rows: &[R]) -> io::Result<()> {
    let headers = columns::headers(table);
    let mut buffer = Vec::new();
    crate::browse::csv::row(&mut buffer, &headers);
    for row in rows {
        let mut cells = columns::cells(table, row);
        anonymize(&headers, std::slice::from_mut(&mut cells));
        crate::browse::csv::row(&mut buffer, &cells);
    }
    out.write_all(&buffer)
}

/// Write `rows` under `headers`, each column as wide as its widest cell,
/// two spaces apart, aligned as `aligns` says (left where it says nothing),
/// no trailing spaces.
pub fn write(
    out: &mut impl Write,
    headers: &[&str],
    aligns: &[Align],
    rows: &[Vec<String>],
) -> io::Result<()> {
    let anonymized: Vec<Vec<String>>;
    let rows = if crate::anonymize::active().is_some() {
        let mut copy = rows.to_vec();
        anonymize(headers, &mut copy);
        anonymized = copy;
        &anonymized
    } else {
        rows
    };
    let header: Vec<String> = headers.iter().map(|h| (*h).to_owned()).collect();
    let widths = columns::content_widths(headers, rows.iter().map(Vec::as_slice));
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, (text, &width)) in row.iter().zip(&widths).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let align = aligns.get(i).copied().unwrap_or(Align::Left);
            line.push_str(&columns::cell(text, width, align));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// With `--anonymize`, the names in the columns that hold them (by
/// header, [`crate::anonymize::column_cells`]) replaced by pseudonyms.
fn anonymize(headers: &[&str], rows: &mut [Vec<String>]) {
    let Some(anonymizer) = crate::anonymize::active() else {
        return;
    };
    for (i, header) in headers.iter().enumerate() {
        let Some(names) = crate::anonymize::column_cells(header, headers) else {
            continue;
        };
        for cell in rows.iter_mut().filter_map(|row| row.get_mut(i)) {
            *cell = anonymizer.cell(names, cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(headers: &[&str], aligns: &[Align], rows: &[Vec<String>]) -> String {
        let mut out = Vec::new();
        write(&mut out, headers, aligns, rows).expect("writes to a vec");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn columns_line_up() {
        let rows = vec![
            vec!["1".to_owned(), "broker-one".to_owned(), "x".to_owned()],
            vec!["22".to_owned(), "b".to_owned(), "y".to_owned()],
        ];
        assert_eq!(
            written(&["ID", "HOST", "RACK"], &[Align::Right], &rows),
            "ID  HOST        RACK\n 1  broker-one  x\n22  b           y\n"
        );
    }

    #[test]
    fn hostile_and_wide_names_are_escaped_and_stay_aligned() {
        let rows = vec![
            vec!["clear\x1b[2J\x1b[Hgrp".to_owned(), "1".to_owned()],
            vec!["nl\nline2-grp".to_owned(), "2".to_owned()],
            vec!["注文グループ".to_owned(), "3".to_owned()],
        ];
        let text = written(&["GROUP", "N"], &[Align::Left, Align::Right], &rows);
        assert!(!text.contains('\x1b'), "{text:?}");
        assert_eq!(text.lines().count(), 4, "{text:?}");
        assert_eq!(
            text,
            "GROUP                  N\n\
             clear\\x1b[2J\\x1b[Hgrp  1\n\
             nl\\nline2-grp          2\n\
             注文グループ           3\n"
        );
    }
}
