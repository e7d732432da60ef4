//! One column table per screen: each column carries its header, width rule,
//! alignment, sort order and cell formatter together, in the screen's own
//! file, so adding a column is one edit in one place. The TUI (`app` sorts
//! by these columns, `ui` draws them) and the headless tables (`cli`) use
//! the same formatters. Nothing here uses a terminal crate.
//!
//! Every cell goes to the terminal through [`cell`], which escapes untrusted
//! text and fits it by display width ([`crate::untrusted`]).

pub mod fleet;
pub mod format;
pub mod group_format;
pub mod messages;
pub mod streams_tasks;

#[cfg(test)]
pub(crate) mod fixtures;

use std::cmp::Ordering;

pub use crate::untrusted::Align;
use crate::untrusted::{fit, width};

/// How wide a column is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// As wide as the widest of its header and its visible values, within
    /// `min..=max`.
    Fit {
        /// Never narrower (room for the header and typical values).
        min: usize,
        /// Never wider (a long name is cut with `…`).
        max: usize,
    },
    /// A number: as wide as the widest of its header and its visible values
    /// (at most `max`), never cut (a cut number misleads); when the row
    /// does not fit, dropped with the columns right of it instead.
    Number {
        /// Never wider.
        max: usize,
    },
    /// Shares the width the other columns leave, by weight (free text at
    /// the end of a row): the only columns that grow with the terminal.
    Fill {
        /// Its share of the spare width.
        weight: usize,
        /// Never narrower.
        min: usize,
    },
    /// Text that only some clusters have (eligible leader replicas, a
    /// tiered topic's local log start): drawn, as wide as its values (at
    /// most `max`), only while some visible row has one; otherwise not
    /// drawn at all, header included, rather than a column of dashes.
    Present {
        /// Never wider.
        max: usize,
    },
}

/// Compare two rows for sorting by a column (ascending; ties keep the
/// source order).
pub type Compare<R> = fn(&R, &R) -> Ordering;

/// One column of a screen's table.
pub struct Column<R> {
    /// Header text.
    pub header: &'static str,
    /// Width rule.
    pub width: Width,
    /// Numbers right, text left.
    pub align: Align,
    /// The cell's text (raw: [`cell`] escapes it when drawn).
    pub cell: fn(&R) -> String,
    /// How rows sort by this column; `None` when the source already comes
    /// in this column's order (names, times), so sorting is skipped.
    pub sort: Option<Compare<R>>,
}

impl<R> Column<R> {
    /// A text column as wide as its values, within `min..=max`.
    pub fn text(
        header: &'static str,
        (min, max): (usize, usize),
        cell: fn(&R) -> String,
        sort: Option<Compare<R>>,
    ) -> Self {
        Column {
            header,
            width: Width::Fit { min, max },
            align: Align::Left,
            cell,
            sort,
        }
    }

    /// A right-aligned number column as wide as its values.
    pub fn number(header: &'static str, cell: fn(&R) -> String, sort: Compare<R>) -> Self {
        Column {
            header,
            width: Width::Number { max: 24 },
            align: Align::Right,
            cell,
            sort: Some(sort),
        }
    }

    /// A text column drawn only while some visible row has a value for it
    /// (an empty cell is "nothing to say", not "none").
    pub fn present(header: &'static str, max: usize, cell: fn(&R) -> String) -> Self {
        Column {
            header,
            width: Width::Present { max },
            align: Align::Left,
            cell,
            sort: None,
        }
    }

    /// A column that takes its share of the spare width, at least `min`.
    pub fn fill(
        header: &'static str,
        (weight, min): (usize, usize),
        cell: fn(&R) -> String,
        sort: Option<Compare<R>>,
    ) -> Self {
        Column {
            header,
            width: Width::Fill { weight, min },
            align: Align::Left,
            cell,
            sort,
        }
    }
}

/// The headers of `table`.
pub fn headers<R>(table: &[Column<R>]) -> Vec<&'static str> {
    table.iter().map(|c| c.header).collect()
}

/// The raw cells of `row`.
pub fn cells<R>(table: &[Column<R>], row: &R) -> Vec<String> {
    table.iter().map(|c| (c.cell)(row)).collect()
}

/// Sort `rows` (indices into a source) by `column`, where `row` builds the
/// row at an index. Ties and rows that cannot be built keep source order.
pub fn sort_indices<R>(
    rows: &mut Vec<usize>,
    column: Option<&Column<R>>,
    row: impl Fn(usize) -> Option<R>,
) {
    let Some(compare) = column.and_then(|c| c.sort) else {
        return;
    };
    let mut keyed: Vec<(usize, Option<R>)> = rows.iter().map(|&i| (i, row(i))).collect();
    keyed.sort_by(|(ia, a), (ib, b)| {
        let by_column = match (a, b) {
            (Some(a), Some(b)) => compare(a, b),
            _ => Ordering::Equal,
        };
        by_column.then(ia.cmp(ib))
    });
    *rows = keyed.into_iter().map(|(i, _)| i).collect();
}

/// One cell as it reaches the terminal: escaped, in exactly `width` columns.
/// The only way table text is drawn, in the TUI and in headless tables.
pub fn cell(text: &str, width: usize, align: Align) -> String {
    fit(text, width, align)
}

/// How many terminal columns each column needs to show `headers` and
/// `rows` (escaped) in full.
pub fn content_widths<'a, S: AsRef<str>>(
    headers: &[S],
    rows: impl IntoIterator<Item = &'a [String]>,
) -> Vec<usize> {
    let mut widths: Vec<usize> = headers.iter().map(|h| width(h.as_ref())).collect();
    for row in rows {
        for (w, text) in widths.iter_mut().zip(row) {
            *w = (*w).max(width(text));
        }
    }
    widths
}

/// [`content_widths`] where only fitted columns are measured: a fill
/// column's width is what the others leave, so its text (a record's value
/// preview) is not read here.
pub fn fitted_content_widths<'a, S: AsRef<str>>(
    rules: &[Width],
    headers: &[S],
    rows: impl IntoIterator<Item = &'a [String]>,
) -> Vec<usize> {
    let fitted = |i: usize| {
        matches!(
            rules.get(i),
            Some(Width::Fit { .. } | Width::Number { .. } | Width::Present { .. })
        )
    };
    let present = |i: usize| matches!(rules.get(i), Some(Width::Present { .. }));
    let mut widths: Vec<usize> = headers
        .iter()
        .enumerate()
        .map(|(i, h)| {
            if fitted(i) && !present(i) {
                width(h.as_ref())
            } else {
                0
            }
        })
        .collect();
    for row in rows {
        for (i, (w, text)) in widths.iter_mut().zip(row).enumerate() {
            if fitted(i) {
                *w = (*w).max(width(text));
            }
        }
    }
    for (i, (w, header)) in widths.iter_mut().zip(headers).enumerate() {
        if present(i) && *w > 0 {
            *w = (*w).max(width(header.as_ref()));
        }
    }
    widths
}

/// The width of each column in `total` terminal columns, `spacing` apart:
/// fitted and number columns get what their content needs (within their
/// limits), fill columns share what is left. When that does not fit, the
/// widest text column gives way first, down to its minimum or its header's
/// width (`headers`), whichever is wider, so no header is cut; then the
/// rightmost columns are dropped (width 0; [`hidden`] counts them) until
/// the rest fits, and what dropping freed goes back to the text columns
/// that gave way (leftmost first): a narrow terminal shows fewer columns
/// whole rather than every column cut to `…`. The first column is never
/// dropped: it is cut instead.
pub fn layout(
    rules: &[Width],
    content: &[usize],
    headers: &[usize],
    total: usize,
    spacing: usize,
) -> Vec<usize> {
    let floor = |i: usize, min: usize| min.max(headers.get(i).copied().unwrap_or(0));
    let mut widths: Vec<usize> = rules
        .iter()
        .zip(content.iter().chain(std::iter::repeat(&0)))
        .map(|(rule, &need)| match *rule {
            Width::Fit { min, max } => need.clamp(min, max.max(min)),
            Width::Number { max } | Width::Present { max } => need.min(max),
            Width::Fill { min, .. } => min,
        })
        .collect();
    let wanted = widths.clone();
    let mut shown = rules.len();
    // A present-only column with nothing to show is not drawn: no spacing.
    let absent = |i: usize| {
        matches!(rules[i], Width::Present { .. }) && content.get(i).is_none_or(|&c| c == 0)
    };
    let drawn = |shown: usize| (0..shown).filter(|&i| !absent(i)).count();
    let room = |shown: usize| total.saturating_sub(spacing * drawn(shown).saturating_sub(1));
    let mut used: usize = widths.iter().sum();
    while used > room(shown) {
        let widest = rules
            .iter()
            .zip(&widths)
            .enumerate()
            .filter(
                |(i, (rule, w))| matches!(rule, Width::Fit { min, .. } if **w > floor(*i, *min)),
            )
            .max_by_key(|(i, (_, w))| (**w, std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        let Some(widest) = widest else { break };
        widths[widest] -= 1;
        used -= 1;
    }
    while used > room(shown) && shown > 1 {
        shown -= 1;
        used -= std::mem::take(&mut widths[shown]);
    }
    if used > room(shown) {
        widths[0] = room(shown);
        used = widths[0];
    }
    for (w, want) in widths[..shown].iter_mut().zip(&wanted) {
        let back = want
            .saturating_sub(*w)
            .min(room(shown).saturating_sub(used));
        *w += back;
        used += back;
    }
    let weights: usize = rules[..shown]
        .iter()
        .map(|r| match r {
            Width::Fill { weight, .. } => *weight,
            Width::Fit { .. } | Width::Number { .. } | Width::Present { .. } => 0,
        })
        .sum();
    let spare = room(shown).saturating_sub(used);
    let mut given = 0;
    let mut seen = 0;
    for (rule, w) in rules[..shown].iter().zip(widths.iter_mut()) {
        if let Width::Fill { weight, .. } = rule {
            seen += weight;
            let upto = (spare * seen).checked_div(weights).unwrap_or(0);
            *w += upto - given;
            given = upto;
        }
    }
    widths
}

/// How many columns [`layout`] dropped for want of room: fill columns left
/// without width and present-only columns with nothing to show (`content`
/// 0, from [`fitted_content_widths`]) do not count.
pub fn hidden(rules: &[Width], content: &[usize], widths: &[usize]) -> usize {
    rules
        .iter()
        .zip(widths)
        .enumerate()
        .filter(|(i, (rule, w))| {
            **w == 0
                && match rule {
                    Width::Fill { .. } => false,
                    Width::Present { .. } => content.get(*i).is_some_and(|&c| c > 0),
                    Width::Fit { .. } | Width::Number { .. } => true,
                }
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIT: Width = Width::Fit { min: 4, max: 10 };

    #[test]
    fn fitted_columns_take_what_they_need_and_fill_takes_the_rest() {
        assert_eq!(layout(&[FIT, FIT], &[6, 2], &[], 80, 1), [6, 4]);
        assert_eq!(layout(&[FIT, FIT], &[30, 2], &[], 80, 1), [10, 4]);
        assert_eq!(
            layout(
                &[
                    FIT,
                    Width::Fill { weight: 1, min: 0 },
                    Width::Fill { weight: 2, min: 3 }
                ],
                &[6, 0, 0],
                &[],
                40,
                1
            ),
            [6, 9, 23]
        );
        // Too narrow: the widest gives way first, never below its minimum;
        // then the rightmost column is dropped; the first is cut last.
        assert_eq!(layout(&[FIT, FIT], &[10, 8], &[], 15, 1), [7, 7]);
        assert_eq!(layout(&[FIT, FIT], &[10, 8], &[], 6, 1), [6, 0]);
        assert_eq!(layout(&[FIT, FIT], &[10, 8], &[], 3, 1), [3, 0]);
    }

    #[test]
    fn numbers_are_never_cut_the_rightmost_columns_go_instead() {
        const NUMBER: Width = Width::Number { max: 24 };
        let fill = Width::Fill { weight: 1, min: 0 };
        let rules = [FIT, NUMBER, NUMBER, NUMBER, fill];
        // Room for all: the fill column takes the rest.
        assert_eq!(
            layout(&rules, &[10, 9, 9, 9, 0], &[], 45, 1),
            [10, 9, 9, 9, 4]
        );
        // 30 columns: the name gives way (to its minimum, 4), then the last
        // number and the fill column go, and the name gets its room back;
        // the numbers shown stay whole.
        let widths = layout(&rules, &[10, 9, 9, 9, 0], &[], 30, 1);
        assert_eq!(widths, [10, 9, 9, 0, 0]);
        assert_eq!(
            hidden(&rules, &[], &widths),
            1,
            "the fill column had nothing"
        );
        let widths = layout(&rules, &[10, 9, 9, 9, 0], &[], 16, 1);
        assert_eq!(widths, [6, 9, 0, 0, 0]);
        assert_eq!(hidden(&rules, &[], &widths), 2);
        // A wide text column in the middle gives way before anything goes.
        let middle = [NUMBER, Width::Fit { min: 5, max: 40 }, NUMBER];
        assert_eq!(layout(&middle, &[4, 40, 4], &[], 30, 1), [4, 20, 4]);
        // A text column is not cut below its header: the one right of it
        // goes first.
        let short = [NUMBER, Width::Fit { min: 1, max: 10 }, NUMBER];
        assert_eq!(layout(&short, &[4, 9, 4], &[4, 9, 4], 16, 1), [4, 9, 0]);
        assert_eq!(layout(&short, &[4, 9, 4], &[], 16, 1), [4, 6, 4]);
    }

    #[test]
    fn widths_count_escapes_and_double_width() {
        let row = ["注文".to_owned(), "a\x1bb".to_owned()];
        assert_eq!(content_widths(&["N", "ID"], [&row[..]]), [4, 6]);
        let rules = [FIT, Width::Fill { weight: 1, min: 1 }];
        assert_eq!(
            fitted_content_widths(&rules, &["N", "ID"], [&row[..]]),
            [4, 0],
            "a fill column is not measured"
        );
    }

    #[test]
    fn a_present_only_column_is_drawn_only_when_a_row_has_a_value() {
        let rules = [FIT, Width::Present { max: 20 }, FIT];
        let empty = ["topic".to_owned(), String::new(), "x".to_owned()];
        let content = fitted_content_widths(&rules, &["NAME", "ELR", "N"], [&empty[..]]);
        assert_eq!(content, [5, 0, 1], "nothing to show: not even its header");
        let widths = layout(&rules, &content, &[4, 3, 1], 80, 1);
        assert_eq!(widths[1], 0);
        assert_eq!(hidden(&rules, &content, &widths), 0, "not dropped: absent");
        let some = ["topic".to_owned(), "2".to_owned(), "x".to_owned()];
        let content = fitted_content_widths(&rules, &["NAME", "ELR", "N"], [&empty[..], &some[..]]);
        assert_eq!(content, [5, 3, 1], "as wide as its header once shown");
        let widths = layout(&rules, &content, &[4, 3, 1], 9, 1);
        assert_eq!(widths, [5, 3, 0]);
        let widths = layout(&rules, &content, &[4, 3, 1], 6, 1);
        assert_eq!(
            hidden(&rules, &content, &widths),
            2,
            "dropped for room: counted"
        );
    }

    #[test]
    fn sorting_keeps_source_order_on_ties() {
        let column: Column<(i32, i32)> =
            Column::number("N", |r| r.0.to_string(), |a, b| a.0.cmp(&b.0));
        let source = [(2, 0), (1, 1), (2, 2), (1, 3)];
        let mut rows = vec![0, 1, 2, 3];
        sort_indices(&mut rows, Some(&column), |i| source.get(i).copied());
        assert_eq!(rows, [1, 3, 0, 2]);
    }
}
