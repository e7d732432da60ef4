//! The config screens: the visible rows of a resource's configs (values
//! that are not Kafka's defaults highlighted), one config's synonym chain,
//! the panel above it (value, type, documentation), and the data's age.

use std::fmt::Write as _;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::configs::on_screen;
use crate::app::{AppState, Screen, table_rows};
use crate::columns::configs::{self, shown_value, source_label};
use crate::columns::format::age;
use crate::inspect::ConfigResource;
use crate::untrusted::escaped;

use super::screens::{Grid, grid};
use super::theme::Theme;

/// The visible rows of a config screen.
pub fn visible(state: &AppState, theme: &Theme, page: usize) -> Grid {
    let view = state.view();
    let window = view.rows.iter().skip(view.offset).take(page).copied();
    match &view.screen {
        Screen::ConfigEntry { of, name } => grid(
            &configs::synonym_table(),
            window
                .filter_map(|i| table_rows::synonym(state, of, name, i))
                .map(|row| (row, Style::new())),
        ),
        Screen::Config { of } => grid(
            &configs::table(),
            window
                .filter_map(|i| table_rows::config(state, of, i))
                .map(|row| {
                    let style = if row.entry.is_default() {
                        Style::new()
                    } else {
                        theme.moved
                    };
                    (row, style)
                }),
        ),
        _ => grid(&configs::table(), std::iter::empty()),
    }
}

/// What the title of a config screen adds: the data's age, or why there
/// is none.
pub fn status(state: &AppState) -> String {
    let Some(of) = on_screen(&state.view().screen) else {
        return String::new();
    };
    let held = state.configs.held.get(of);
    let mut out = match held.and_then(|h| h.at) {
        Some(at) => format!(
            " · updated {} ago",
            age(state.now.saturating_duration_since(at))
        ),
        None => " · loading configs…".to_owned(),
    };
    if let Some(error) = held.and_then(|h| h.error.as_ref()) {
        let _ = write!(out, " · failed: {error}");
    }
    if matches!(state.view().screen, Screen::Config { .. }) {
        out.push_str(" · highlighted: not the default");
    }
    escaped(out)
}

/// The panel above a config's synonym chain: its value and where it comes
/// from, its type and whether it is read-only, and Kafka's documentation.
pub fn draw_panel(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    (of, name): (&ConfigResource, &str),
    theme: &Theme,
) {
    let Some(entry) = state.configs.entry(of, name) else {
        let line = Line::styled(escaped(format!("config '{name}': loading…")), theme.dim);
        frame.render_widget(Paragraph::new(line), area);
        return;
    };
    let mut lines = vec![
        Line::raw(escaped(format!(
            "{} = {}",
            entry.name,
            shown_value(entry.sensitive, entry.value.as_deref())
        ))),
        Line::styled(
            format!(
                "source: {} · type: {} · {}{}",
                source_label(entry.source),
                entry.kind.name(),
                if entry.read_only {
                    "read-only"
                } else {
                    "can be changed dynamically"
                },
                if entry.sensitive { " · sensitive" } else { "" }
            ),
            theme.dim,
        ),
    ];
    lines.push(Line::raw(escaped(
        entry
            .documentation
            .as_deref()
            .unwrap_or("(no documentation: the broker did not send any)")
            .to_owned(),
    )));
    let text = Paragraph::new(lines).wrap(Wrap { trim: true });
    frame.render_widget(text, area);
}
