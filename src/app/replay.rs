//! `kscope replay FILE`: the time cursor over a recording, in the model.
//!
//! Its keys and `:at` go through `update` like any other. Moving the
//! cursor returns [`Effect::Replay`]; the replay session answers with the
//! live session's own actions built from the recording at the new time (a
//! snapshot, kscope's liveness view, the movement events, group lists), so
//! the screens take it through their usual paths. Going forward sends what
//! happened in between; going back forgets what the screens kept from the
//! recording and has it rebuilt from the start (nothing is undone).
//! Screens over data a recording does not hold say so (`holds`) and ask
//! for nothing: the replay session has no cluster.

use std::time::Instant;

use super::action::Effect;
use super::key::{Code, Key};
use super::screen::Screen;
use super::state::AppState;
use super::stores::replay::Replay;

/// How far `{`/`}` move the cursor.
pub const LONG_STEP_MS: i64 = 10_000;

/// Put `state` on `replay`, its LAG column on Topics following the
/// recorded group lists if it holds any (a recording costs nothing to
/// read; live, `L` asks for it).
pub fn install(state: &mut AppState, replay: Replay) {
    let follow = replay.has_groups;
    state.replay = Some(replay);
    if follow {
        state.follow_lag = true;
        let toggles = state.topics_toggles();
        super::forward::forward(state, toggles);
    }
}

/// Whether a recording holds what `screen` shows (metadata, liveness,
/// events, the group list); the others say "not in this recording".
pub fn holds(screen: &Screen) -> bool {
    use super::screens::Screen as Module;
    matches!(
        screen,
        Module::Groups(super::screens::groups::Shown::List { .. })
            | Module::Topics(_)
            | Module::Partitions(_)
            | Module::Brokers(_)
            | Module::Leaders(_)
            | Module::Events(_)
    )
}

/// A replay key in normal mode, if `key` is one and a recording is
/// replayed: space plays or pauses, `[`/`]` step a frame, `{`/`}` ten
/// seconds, `n`/`N` to the next or previous event, `<`/`>` to the first
/// snapshot or the end. True when it was taken.
pub fn key(state: &mut AppState, key: Key, fx: &mut Vec<Effect>) -> bool {
    let Some(replay) = state.replay.as_mut() else {
        return false;
    };
    if state.show_help || key.ctrl || key.alt {
        return false;
    }
    let Code::Char(c) = key.code else {
        return false;
    };
    let at = replay.at;
    let to = match c {
        ' ' => {
            replay.playing = !replay.playing && replay.at < replay.end;
            replay.played_at = replay.playing.then_some(state.now);
            return true;
        }
        '[' => before(&replay.frames, at).unwrap_or(replay.first),
        ']' => after(&replay.frames, at).unwrap_or(replay.end),
        // Not before the first snapshot: nothing is shown before it.
        '{' => at.saturating_sub(LONG_STEP_MS).max(replay.first.min(at)),
        '}' => at.saturating_add(LONG_STEP_MS),
        'n' | 'N' => {
            let next = if c == 'n' {
                after(&replay.events, at)
            } else {
                before(&replay.events, at)
            };
            let Some(t) = next else {
                let which = if c == 'n' { "after" } else { "before" };
                state.notice = Some(format!("no event {which} the cursor"));
                return true;
            };
            t
        }
        '<' => replay.first,
        '>' => replay.end,
        _ => return false,
    };
    seek(state, to, fx);
    true
}

/// The last time in `times` before `at`.
fn before(times: &[i64], at: i64) -> Option<i64> {
    times.iter().rev().find(|&&t| t < at).copied()
}

/// The first time in `times` after `at`.
fn after(times: &[i64], at: i64) -> Option<i64> {
    times.iter().find(|&&t| t > at).copied()
}

/// `:at TIME`: the cursor to `TIME` (the grammar of `get --at`).
pub fn jump(state: &mut AppState, text: &str, fx: &mut Vec<Effect>) {
    let Some(replay) = &state.replay else {
        state.notice = Some(":at moves the cursor of a replay (kscope replay FILE)".to_owned());
        return;
    };
    match crate::recording::cursor::parse_time(replay.start, replay.end, text) {
        Ok(to) => seek(state, to, fx),
        Err(error) => state.notice = Some(error.replacen("--at", ":at", 1)),
    }
}

/// A tick while replaying: a playing cursor moves on by the time passed
/// (stopping at the end), and the clock the screens age things by reads
/// the cursor, not the wall clock.
pub fn tick(state: &mut AppState, now: Instant, fx: &mut Vec<Effect>) {
    let Some(replay) = state.replay.as_mut() else {
        return;
    };
    if let (true, Some(since)) = (replay.playing, replay.played_at) {
        let passed = now.saturating_duration_since(since).as_millis();
        let to = replay
            .at
            .saturating_add(i64::try_from(passed).unwrap_or(i64::MAX));
        replay.played_at = Some(now);
        seek(state, to, fx);
    }
    if let Some(replay) = &state.replay {
        state.wall = crate::recording::frame::time(replay.at);
    }
}

/// Move the cursor to `to` (kept within the recording). Forward, the
/// session sends what happened since; back, what the screens kept of the
/// recording is forgotten and sent again up to `to`.
pub fn seek(state: &mut AppState, to: i64, fx: &mut Vec<Effect>) {
    let Some(replay) = state.replay.as_mut() else {
        return;
    };
    let to = to.clamp(replay.start, replay.end.max(replay.start));
    let from = replay.at;
    replay.at = to;
    if to >= replay.end {
        replay.playing = false;
        replay.played_at = None;
    }
    state.wall = crate::recording::frame::time(to);
    // The group list is read again at the new time.
    state.screens.groups.expire();
    if to >= from {
        fx.push(Effect::Replay {
            at: to,
            from: Some(from),
        });
    } else {
        forget(state);
        fx.push(Effect::Replay { at: to, from: None });
    }
}

/// Drop what the screens kept of the recording up to the cursor (the
/// timeline, the leader log, the brokers seen and their history, the
/// groups, the highlights) before it is sent again from the start.
fn forget(state: &mut AppState) {
    state.screens.events = super::screens::events::EventsStore::default();
    state.screens.leaders = super::screens::leaders::Store::default();
    state.screens.brokers = super::screens::brokers::Store::default();
    state.cluster.strip = super::stores::event_strip::Strip::default();
    state.cluster.sources = super::stores::event_sources::EventSources::default();
    state.cluster.moved_at.clear();
    state.cluster.last_moved = None;
    state.screens.groups.reset();
    state.health = None;
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::app::Keymap;

    fn replaying() -> AppState {
        let mut state = AppState::new("rec", Vec::new(), Keymap::default());
        state.replay = Some(Replay {
            start: 1_000,
            first: 1_000,
            end: 31_000,
            at: 1_000,
            frames: vec![1_000, 11_000, 31_000],
            events: vec![11_000, 31_000],
            ..Replay::default()
        });
        state
    }

    fn at(state: &AppState) -> i64 {
        state.replay.as_ref().map_or(0, |r| r.at)
    }

    #[test]
    fn keys_step_frames_events_and_ends_and_going_back_rebuilds() {
        let mut state = replaying();
        let mut fx = Vec::new();
        assert!(key(&mut state, Key::char(']'), &mut fx));
        assert_eq!(at(&state), 11_000);
        assert_eq!(
            fx.pop(),
            Some(Effect::Replay {
                at: 11_000,
                from: Some(1_000)
            })
        );
        assert!(key(&mut state, Key::char('n'), &mut fx));
        assert_eq!(at(&state), 31_000);
        assert!(key(&mut state, Key::char('n'), &mut fx));
        assert_eq!(at(&state), 31_000, "no event after the last");
        assert!(
            state
                .notice
                .as_deref()
                .unwrap_or("")
                .contains("no event after")
        );
        assert!(key(&mut state, Key::char('{'), &mut fx));
        assert_eq!(at(&state), 21_000);
        assert_eq!(
            fx.last(),
            Some(&Effect::Replay {
                at: 21_000,
                from: None
            })
        );
        assert!(key(&mut state, Key::char('N'), &mut fx));
        assert_eq!(at(&state), 11_000);
        assert!(key(&mut state, Key::char('<'), &mut fx));
        assert_eq!(at(&state), 1_000);
        assert!(key(&mut state, Key::char('>'), &mut fx));
        assert_eq!(at(&state), 31_000);
        assert!(!key(&mut state, Key::char('j'), &mut fx), "j moves the row");
        jump(&mut state, "+5s", &mut fx);
        assert_eq!(at(&state), 6_000);
        jump(&mut state, "soon", &mut fx);
        assert!(
            state
                .notice
                .as_deref()
                .unwrap_or("")
                .starts_with(":at 'soon'")
        );
        assert_eq!(at(&state), 6_000);
    }

    #[test]
    fn playing_moves_with_the_clock_and_stops_at_the_end() {
        let mut state = replaying();
        let mut fx = Vec::new();
        let now = state.now;
        assert!(key(&mut state, Key::char(' '), &mut fx));
        tick(&mut state, now + Duration::from_secs(3), &mut fx);
        assert_eq!(at(&state), 4_000);
        assert_eq!(state.wall, crate::recording::frame::time(4_000));
        assert!(
            state
                .replay
                .as_ref()
                .is_some_and(|r| r.header().contains("(playing) 3s/30s"))
        );
        tick(&mut state, now + Duration::from_mins(1), &mut fx);
        assert_eq!(at(&state), 31_000);
        assert!(
            state.replay.as_ref().is_some_and(|r| !r.playing),
            "stopped at the end"
        );
        assert!(key(&mut state, Key::char(' '), &mut fx));
        assert!(
            state.replay.as_ref().is_some_and(|r| !r.playing),
            "nothing left to play"
        );
    }
}
