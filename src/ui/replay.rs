//! What a replay adds to the frame: the cursor in the header, and in
//! place of a screen whose data a recording does not hold, a plain "not in
//! this recording".

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::AppState;
use crate::app::replay::holds;
use crate::app::stores::replay::rfc3339;
use crate::untrusted::escaped;

use crate::paint::theme::Theme;

/// The replay's keys, for the status line.
pub const KEYS: &str =
    "replay: space play/pause  [ ] frame  { } 10s  n N event  < > start/end  :at TIME";

/// The replay's keys for the help popup (before the screen's own).
pub(super) fn help(state: &AppState) -> Vec<Line<'static>> {
    if state.replay.is_none() {
        return Vec::new();
    }
    [
        ("space", "play or pause (1x real time)"),
        ("[ ]", "back / forward one frame"),
        ("{ }", "back / forward 10 s"),
        ("n N", "next / previous event"),
        ("< >", "first snapshot / end"),
        (":at TIME", "jump (RFC 3339, +90s, -1m, start, end)"),
        ("", ""),
    ]
    .into_iter()
    .map(|(keys, what)| Line::raw(format!("{keys:>18}  {what}")))
    .collect()
}

/// `   REPLAY 2026-12-05T12:00:15.000Z (paused) 15s/30s`, and where the file
/// is damaged; nothing when not replaying.
pub(super) fn header(state: &AppState, theme: &Theme) -> Vec<Span<'static>> {
    let Some(replay) = &state.replay else {
        return Vec::new();
    };
    let mut spans = vec![Span::styled(format!("   {}", replay.header()), theme.moved)];
    if let Some(damage) = &replay.damage {
        spans.push(Span::styled(escaped(format!("   {damage}")), theme.problem));
    }
    spans
}

/// Draw what stands in for the screen on show in `body` while replaying,
/// if something does: true when it did.
pub(super) fn draw_instead(frame: &mut Frame, body: Rect, state: &AppState, theme: &Theme) -> bool {
    let Some(replay) = &state.replay else {
        return false;
    };
    let text = if !state.has_cluster() {
        format!(
            "Nothing is in this recording at or before {}: its first snapshot is at {} (<).",
            rfc3339(replay.at),
            rfc3339(replay.first)
        )
    } else if holds(&state.view().screen) {
        return false;
    } else {
        format!(
            "{}: not in this recording. A recording holds the metadata, kscope's liveness view, \
             the events and the group list; this screen is read from a cluster. Esc goes back.",
            state.view().screen.title()
        )
    };
    let paragraph = Paragraph::new(Line::styled(text, theme.warning)).wrap(Wrap { trim: true });
    frame.render_widget(paragraph, body);
    true
}
