//! The `:schemas` screen (every subject version in the registry) and one
//! version's schema text, scrolled like the record detail (its lines were
//! laid out when it was opened; here they only get colours).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::app::AppState;
use crate::columns::format::age;
use crate::columns::schemas;
use crate::untrusted::escaped;

use super::screens::{Grid, grid};
use super::theme::Theme;

/// The visible rows of the `:schemas` screen (the latest versions bold).
pub fn visible(state: &AppState, theme: &Theme, page: usize) -> Grid {
    let view = state.view();
    let rows = state.registry.rows();
    grid(
        &schemas::table(),
        view.rows
            .iter()
            .skip(view.offset)
            .take(page)
            .filter_map(|&i| rows.get(i))
            .map(|r| (r, if r.latest { Style::new() } else { theme.dim })),
    )
}

/// What the title adds: asking, the answer's age, or why there is none.
pub fn status(state: &AppState) -> String {
    let store = &state.registry;
    match (&store.list, store.in_flight, store.at) {
        (None, _, _) => " · asking the registry…".to_owned(),
        (Some(Err(error)), _, _) => format!(" · {error}"),
        (Some(Ok(_)), Some(_), _) => " · refreshing…".to_owned(),
        (Some(Ok(_)), None, Some(at)) => format!(
            " · read {} ago (r to read again)",
            age(state.now.saturating_duration_since(at))
        ),
        (Some(Ok(_)), None, None) => String::new(),
    }
}

/// One version's schema text, scrolled to the view's position.
pub fn draw_version(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let view = state.view();
    let page = usize::from(area.height.saturating_sub(2));
    let open = &state.registry.open;
    let lines: Vec<Line> = open
        .iter()
        .skip(view.offset)
        .take(page)
        .map(|line| super::messages::highlighted(line, theme))
        .collect();
    let title = format!(
        " {} [line {}/{}] ",
        view.screen.title(),
        (view.offset + 1).min(open.len()),
        open.len()
    );
    let block = Block::default()
        .borders(Borders::TOP | Borders::BOTTOM)
        .border_style(theme.border)
        .title(Span::styled(escaped(title), theme.title));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
