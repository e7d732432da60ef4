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

impl Grid {
    /// Under `--anonymize`, the names in the columns that hold them (by
    /// header, [`crate::anonymize::column_cells`], as the headless tables
    /// do) replaced by pseudonyms; nothing otherwise. Done to the visible
    /// rows before layout, so widths fit the pseudonyms.
    pub fn anonymize(&mut self) {
        if let Some(anonymizer) = crate::anonymize::active() {
            self.anonymize_with(anonymizer);
        }
    }

    /// [`Grid::anonymize`] with `anonymizer`.
    fn anonymize_with(&mut self, anonymizer: &crate::anonymize::Anonymizer) {
        for (i, header) in self.headers.iter().enumerate() {
            let Some(names) = crate::anonymize::column_cells(header, &self.headers) else {
                continue;
            };
            for cell in self.rows.iter_mut().filter_map(|(row, _)| row.get_mut(i)) {
                *cell = anonymizer.cell(names, cell);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anonymize::{Anonymizer, Kind};

    fn grid_of(headers: &[&'static str], rows: &[&[&str]]) -> Grid {
        Grid {
            headers: headers.to_vec(),
            widths: vec![Width::Fit { min: 1, max: 60 }; headers.len()],
            aligns: vec![Align::Left; headers.len()],
            rows: rows
                .iter()
                .map(|row| (row.iter().map(|c| (*c).to_owned()).collect(), Style::new()))
                .collect(),
            spans: Vec::new(),
        }
    }

    fn cells(grid: &Grid) -> Vec<Vec<&str>> {
        grid.rows
            .iter()
            .map(|(row, _)| row.iter().map(String::as_str).collect())
            .collect()
    }

    #[test]
    fn names_are_replaced_by_header_and_other_columns_kept() {
        let a = Anonymizer::new(b"a grid test key");
        let mut grid = grid_of(
            &["MEMBER", "INSTANCE", "CLIENT", "HOST", "EPOCH", "ASSIGNED"],
            &[&["app-1-uuid", "-", "app-1", "/10.0.0.7", "3", "orders:0,1"]],
        );
        grid.anonymize_with(&a);
        let topic = a.name(Kind::Topic, "orders");
        assert_eq!(
            cells(&grid),
            [[
                a.name(Kind::Member, "app-1-uuid").as_str(),
                "-",
                &a.name(Kind::Client, "app-1"),
                &a.name(Kind::Host, "/10.0.0.7"),
                "3",
                &format!("{topic}:0,1"),
            ]]
        );
    }

    #[test]
    fn topics_groups_and_broker_addresses_are_replaced() {
        let a = Anonymizer::new(b"a grid test key");
        let mut groups = grid_of(
            &["GROUP", "TYPE", "TOPICS", "LAG"],
            &[&["billing", "classic", "orders,__consumer_offsets", "7"]],
        );
        groups.anonymize_with(&a);
        let shown = cells(&groups);
        assert_eq!(shown[0][0], a.name(Kind::Group, "billing"));
        assert_eq!(shown[0][1], "classic");
        assert_eq!(
            shown[0][2],
            format!("{},__consumer_offsets", a.name(Kind::Topic, "orders"))
        );
        assert_eq!(shown[0][3], "7");
        let mut brokers = grid_of(
            &["ID", "ADDRESS", "RACK"],
            &[
                &["1", "kafka-1.internal:9092", "-"],
                &["2", "[::1]:9093", "-"],
            ],
        );
        brokers.anonymize_with(&a);
        let shown = cells(&brokers);
        assert_eq!(
            shown[0][1],
            format!("{}:9092", a.name(Kind::Host, "kafka-1.internal"))
        );
        assert_eq!(shown[1][1], format!("{}:9093", a.name(Kind::Host, "[::1]")));
        assert_eq!(shown[0][0], "1");
    }

    #[test]
    fn counts_and_unknown_headers_stay() {
        let a = Anonymizer::new(b"a grid test key");
        let rows: &[&[&str]] = &[&["prod", "12", "orders"]];
        let mut fleet = grid_of(&["CONTEXT", "TOPICS", "SUBJECT"], rows);
        fleet.anonymize_with(&a);
        assert_eq!(cells(&fleet), [["prod", "12", "orders"]]);
    }

    #[test]
    fn without_anonymize_nothing_changes() {
        // No test in this binary turns the process-wide switch on.
        let mut grid = grid_of(&["TOPIC"], &[&["orders"]]);
        grid.anonymize();
        assert_eq!(cells(&grid), [["orders"]]);
    }
}
