//! The config screens' drawing: the visible rows of a resource's configs
//! (values that are not Kafka's defaults highlighted), one config's synonym
//! chain, the panel above it (value, type, documentation), and the data's
//! age.

use std::fmt::Write as _;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::columns::format::age;
use crate::inspect::ConfigEntry;
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

use super::Held;
use super::columns::{self, Row, SynonymRow, shown_value, source_label};

/// Rows of the panel above a config's synonym chain: its value, type and
/// documentation.
pub const PANEL_ROWS: u16 = 7;

/// The visible rows of a resource's configs.
pub fn visible<'a>(rows: impl Iterator<Item = Row<'a>>, theme: &Theme) -> Grid {
    grid(
        &columns::table(),
        rows.map(|row| {
            let style = if row.entry.is_default() {
                Style::new()
            } else {
                theme.moved
            };
            (row, style)
        }),
    )
}

/// The visible rows of a config's synonym chain.
pub fn synonyms<'a>(rows: impl Iterator<Item = SynonymRow<'a>>) -> Grid {
    grid(
        &columns::synonym_table(),
        rows.map(|row| (row, Style::new())),
    )
}

/// What the title of a config screen adds: the data's age (`held`: what
/// is held of the resource), or why there is none; on the `list`, what is
/// highlighted.
pub fn status(held: Option<&Held>, list: bool, now: Instant) -> String {
    let mut out = match held.and_then(|h| h.at) {
        Some(at) => format!(" · updated {} ago", age(now.saturating_duration_since(at))),
        None => " · loading configs…".to_owned(),
    };
    if let Some(error) = held.and_then(|h| h.error.as_ref()) {
        let _ = write!(out, " · failed: {error}");
    }
    if list {
        out.push_str(" · highlighted: not the default");
    }
    escaped(out)
}

/// The panel above config `name`'s synonym chain (`entry`, when it has
/// arrived): its value and where it comes from, its type and whether it is
/// read-only, and Kafka's documentation.
pub fn panel(
    frame: &mut Frame,
    area: Rect,
    entry: Option<&ConfigEntry>,
    name: &str,
    theme: &Theme,
) {
    let Some(entry) = entry else {
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
