//! The schema screens' drawing: the subject versions (the latest ones
//! bold), the list's status, and one version's schema text, scrolled like
//! the record detail (its lines were laid out when it was opened; here
//! they only get colours).

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::columns::format::age;
use crate::schema::subjects::VersionRow;
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

use super::Store;
use super::columns::table;

/// The visible rows of the list (the latest versions bold, the others
/// dim).
pub fn visible<'a>(rows: impl Iterator<Item = &'a VersionRow>, theme: &Theme) -> Grid {
    grid(
        &table(),
        rows.map(|r| (r, if r.latest { Style::new() } else { theme.dim })),
    )
}

/// What the title adds: asking, the answer's age, or why there is none.
pub fn status(store: &Store, now: Instant) -> String {
    match (store.listed(), store.list.in_flight.is_some(), store.list.at) {
        (None, _, _) => " · asking the registry…".to_owned(),
        (Some(Err(error)), _, _) => format!(" · {error}"),
        (Some(Ok(_)), true, _) => " · refreshing…".to_owned(),
        (Some(Ok(_)), false, Some(at)) => format!(
            " · read {} ago (r to read again)",
            age(now.saturating_duration_since(at))
        ),
        (Some(Ok(_)), false, None) => String::new(),
    }
}

/// One version's schema text (`open`), from line `offset` under `title`.
pub fn version(
    frame: &mut Frame,
    area: Rect,
    open: &[crate::browse::format::Line],
    (offset, title): (usize, &str),
    theme: &Theme,
) {
    let page = usize::from(area.height.saturating_sub(2));
    let lines: Vec<Line> = open
        .iter()
        .skip(offset)
        .take(page)
        .map(|line| crate::paint::highlight::highlighted(line, theme))
        .collect();
    let title = format!(
        " {} [line {}/{}] ",
        title,
        (offset + 1).min(open.len()),
        open.len()
    );
    let block = Block::default()
        .borders(Borders::TOP | Borders::BOTTOM)
        .border_style(theme.border)
        .title(Span::styled(escaped(title), theme.title));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
