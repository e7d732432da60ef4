//! The recent-events strip under a subject's table (picked in
//! `app::event_strip`): a title line, then the subject's newest events,
//! each as time, severity, kind, subject and what changed.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::AppState;
use crate::app::screens::events::columns::subject;
use crate::columns::format::{clock, movement_detail};
use crate::meta::Severity;
use crate::untrusted::escaped;

use crate::paint::theme::Theme;

/// Draw the strip into `area` (as tall as `state.cluster.strip.height()`).
pub(super) fn draw(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let mut lines = vec![Line::styled(
        "recent events (newest first; :events for the whole timeline)",
        theme.dim,
    )];
    for event in state
        .cluster
        .strip
        .rows
        .iter()
        .filter_map(|&i| state.screens.events.ring.get(i))
    {
        let severity = event.kind.severity();
        let style = match severity {
            Severity::Critical => theme.problem,
            Severity::Warn => theme.warning,
            Severity::Info => ratatui::style::Style::default(),
        };
        lines.push(Line::from(vec![
            Span::styled(
                format!("{}  {:<8} ", clock(event.time), severity.name()),
                style,
            ),
            Span::raw(escaped(format!(
                "{:<21} {}  {}",
                event.kind.name(),
                subject(event),
                movement_detail(&event.kind)
            ))),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), area);
}
