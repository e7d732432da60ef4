//! Aligned text columns with a header.

use std::io::{self, Write};

/// Write `rows` under `headers`, each column as wide as its widest cell,
/// two spaces apart, no trailing spaces.
pub fn write(out: &mut impl Write, headers: &[&str], rows: &[Vec<String>]) -> io::Result<()> {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let header: Vec<String> = headers.iter().map(|h| (*h).to_owned()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, (cell, width)) in row.iter().zip(&widths).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            if i + 1 < row.len() {
                line.extend(std::iter::repeat_n(' ', width - cell.chars().count()));
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up() {
        let mut out = Vec::new();
        let rows = vec![
            vec!["1".to_owned(), "broker-one".to_owned(), "x".to_owned()],
            vec!["22".to_owned(), "b".to_owned(), "y".to_owned()],
        ];
        write(&mut out, &["ID", "HOST", "RACK"], &rows).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "ID  HOST        RACK\n1   broker-one  x\n22  b           y\n"
        );
    }
}
