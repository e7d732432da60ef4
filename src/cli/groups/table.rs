//! A plain, left-aligned text table for headless output.

use std::io::{self, Write};

/// Write `header` and `rows` with columns padded to their widest cell,
/// separated by two spaces, no trailing spaces.
pub fn write_table(out: &mut impl Write, header: &[&str], rows: &[Vec<String>]) -> io::Result<()> {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if let Some(width) = widths.get_mut(i) {
                *width = (*width).max(cell.chars().count());
            }
        }
    }
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            let pad = widths
                .get(i)
                .copied()
                .unwrap_or(0)
                .saturating_sub(cell.chars().count());
            line.extend(std::iter::repeat_n(' ', pad));
        }
        writeln!(out, "{}", line.trim_end())?;
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
            vec!["a".to_owned(), "1".to_owned()],
            vec!["long".to_owned(), "22".to_owned()],
        ];
        write_table(&mut out, &["NAME", "N"], &rows).expect("writes");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "NAME  N\na     1\nlong  22\n"
        );
    }
}
