//! The Messages screen's rows and the record detail: only the visible
//! window is formatted (schema-decoded cells were made in `update`, the
//! detail's lines when the record was opened; here they only get colours).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::MessagesStore;
use crate::browse::Format;
use crate::columns::messages;
use crate::untrusted::escaped;

use crate::paint::grid::{Grid, grid};
use crate::paint::highlight::highlighted;
use crate::paint::theme::Theme;

/// The records of `window` (sequences), styled: a tombstone dim.
pub fn visible(m: &MessagesStore, theme: &Theme, window: impl Iterator<Item = usize>) -> Grid {
    let rows = window
        .filter_map(|seq| Some((seq, m.record(seq)?)))
        .map(|(seq, record)| {
            let style = if record.value.is_none() {
                theme.dim
            } else {
                Style::new()
            };
            // Decoded in `update` (`cells.rs` in this folder): nothing is decoded
            // or locked while drawing.
            let cells = m.decoded.get(seq);
            let row = messages::Row {
                record,
                format: m.format,
                utc_offset: m.utc_offset,
                key: cells.and_then(|c| c.key.clone()),
                value: cells.and_then(|c| c.value.clone()),
            };
            (row, style)
        });
    grid(&messages::table(), rows)
}

/// The record open, from line `offset` (the scroll position), under
/// `title` (the screen's, escaped) with the line it shows of how many.
pub fn record(
    frame: &mut Frame,
    area: Rect,
    m: &MessagesStore,
    (offset, title): (usize, &str),
    theme: &Theme,
) {
    let page = usize::from(area.height.saturating_sub(2));
    let (lines, total) = match &m.detail {
        Some(detail) => (
            detail
                .lines
                .iter()
                .skip(offset)
                .take(page)
                .map(|line| highlighted(line, theme))
                .collect(),
            detail.lines.len(),
        ),
        None => (vec![Line::raw("no record open")], 1),
    };
    let title = format!(" {title} [line {}/{}] ", (offset + 1).min(total), total);
    let block = Block::default()
        .borders(Borders::TOP | Borders::BOTTOM)
        .border_style(theme.border)
        .title(Span::styled(escaped(title), theme.title));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// What the title says after the counts: where it started, following or
/// paused with arrivals, drops, the filter.
pub fn status(m: &MessagesStore) -> String {
    let mut parts = Vec::new();
    if let Some(said) = &m.hold_at_anchor {
        parts.push(if m.anchor.is_some() {
            format!("{said} (waiting for it)")
        } else {
            said.clone()
        });
    }
    if let Some(finding) = &m.find {
        parts.push(finding.progress());
    }
    if let Some(error) = &m.failed {
        parts.push(format!("stopped: {error}"));
    } else if m.paused {
        parts.push(format!("PAUSED, {} new", m.arrived + m.held.dropped()));
    } else {
        parts.push("following".to_owned());
    }
    let dropped = m.ring.dropped() + m.upstream_dropped;
    if dropped > 0 {
        parts.push(format!("{dropped} dropped (ring full)"));
    }
    if m.isolation != crate::browse::Isolation::ReadCommitted {
        parts.push(super::names::name(m.isolation).to_owned());
    }
    if m.format != Format::Auto {
        parts.push(format!("format {}", m.format.name()));
    }
    if let Some(filter) = &m.filter {
        parts.push(format!("filter: {}", filter.text()));
    }
    if let Some(key) = &m.key {
        parts.push(format!("key {}", super::names::key(key)));
    }
    parts.join(" · ")
}
