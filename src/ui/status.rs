//! The status line, and what of a frame changes with the clock alone.
//!
//! The run loop ticks once a second; redrawing the whole frame for it costs
//! the most of anything an idle TUI does (building the visible rows, the
//! table layout, the diff against the last frame). So a tick redraws only
//! when [`clock_face`] changed: the status line's snapshot age (in 5-second
//! steps), a DEGRADED line's duration, the header's recent-event counts,
//! and — on screens that show durations or fading highlights — the second.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::AppState;
use crate::columns::format;
use crate::meta::MetadataSnapshot;
use crate::untrusted::escaped;

use crate::paint::theme::Theme;

/// Everything on screen that the passing of time alone changes. Two equal
/// faces mean a tick has nothing new to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockFace {
    snapshot: String,
    degraded: Option<String>,
    events: [usize; 3],
    /// The wall-clock second, on screens whose rows count time by the second.
    second: Option<u64>,
}

/// What the clock shows of `state` right now (see [`ClockFace`]).
pub fn clock_face(state: &AppState, snap: &MetadataSnapshot) -> ClockFace {
    ClockFace {
        snapshot: snapshot_text(state, snap),
        degraded: degraded_for(state),
        events: state.screens.events.recent,
        second: rows_count_seconds(state).then(|| {
            state
                .wall
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        }),
    }
}

/// Whether the screen on show has durations or highlights that change by
/// the second. Screens not listed are assumed to (a tick each second, as
/// before); the ones listed are the ones left open for hours.
fn rows_count_seconds(state: &AppState) -> bool {
    if !state.has_cluster() {
        return true;
    }
    state.highlights_fading() || state.screens.counts_seconds(&state.view().screen)
}

/// "snapshot 15s old", in 5-second steps, or "not connected".
fn snapshot_text(state: &AppState, snap: &MetadataSnapshot) -> String {
    if state.replay.is_some() {
        super::replay::KEYS.to_owned()
    } else if state.has_cluster() {
        let age = state.now.saturating_duration_since(snap.fetched_at());
        format!("snapshot {} old", format::age_coarse(age))
    } else {
        "not connected".to_owned()
    }
}

/// How long the metadata has been failing, when it is.
fn degraded_for(state: &AppState) -> Option<String> {
    let d = state.degraded.as_ref()?;
    let since = state.wall.duration_since(d.since).unwrap_or_default();
    Some(format::age(since))
}

/// The status line: snapshot age, refresh in flight, DEGRADED, a notice.
pub(super) fn draw_status(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    snap: &MetadataSnapshot,
    theme: &Theme,
) {
    let mut spans = vec![Span::styled(snapshot_text(state, snap), theme.dim)];
    if state.refreshing {
        spans.push(Span::raw("  refreshing…"));
    }
    if let (Some(d), Some(since)) = (&state.degraded, degraded_for(state)) {
        spans.push(Span::styled(
            escaped(format!(
                "  DEGRADED for {since} ({} failures): {}",
                d.failures, d.error
            )),
            theme.problem,
        ));
    }
    if let Some(notice) = &state.notice {
        spans.push(Span::styled(escaped(format!("  {notice}")), theme.warning));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::*;
    use crate::app::{Keymap, Link, Screen, View};

    fn connected_at(now: std::time::Instant) -> AppState {
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        state.link = Link::Connected;
        state.now = now;
        state.wall = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        state
    }

    fn later(state: &mut AppState, secs: u64) {
        state.now += Duration::from_secs(secs);
        state.wall += Duration::from_secs(secs);
    }

    #[test]
    fn an_idle_topics_screen_changes_only_with_the_five_second_age() {
        let snap = MetadataSnapshot::empty();
        let mut state = connected_at(snap.fetched_at());
        let first = clock_face(&state, &snap);
        later(&mut state, 4);
        assert_eq!(clock_face(&state, &snap), first, "<5s for four seconds");
        later(&mut state, 1);
        assert_ne!(clock_face(&state, &snap), first, "5s is new text");
    }

    #[test]
    fn screens_with_running_durations_change_every_second() {
        let snap = MetadataSnapshot::empty();
        let mut state = connected_at(snap.fetched_at());
        state.stack.push(View::new(Screen::offsets("g")));
        let first = clock_face(&state, &snap);
        later(&mut state, 1);
        assert_ne!(clock_face(&state, &snap), first);

        let mut state = connected_at(snap.fetched_at());
        state.stack.push(View::new(Screen::brokers()));
        let first = clock_face(&state, &snap);
        later(&mut state, 1);
        assert_eq!(clock_face(&state, &snap), first, "every broker up");
        state.screens.brokers.down.insert(2, state.wall);
        let first = clock_face(&state, &snap);
        later(&mut state, 1);
        assert_ne!(clock_face(&state, &snap), first, "DOWN counts up");
    }

    #[test]
    fn a_fading_move_highlight_ticks_until_it_has_faded() {
        let snap = MetadataSnapshot::empty();
        let mut state = connected_at(snap.fetched_at());
        state.cluster.last_moved = Some(state.now);
        let first = clock_face(&state, &snap);
        later(&mut state, 1);
        assert_ne!(clock_face(&state, &snap), first, "the highlight fades");
        later(&mut state, 60);
        let faded = clock_face(&state, &snap);
        later(&mut state, 1);
        assert_eq!(clock_face(&state, &snap), faded, "faded, still again");
    }
}
