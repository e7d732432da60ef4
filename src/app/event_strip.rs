//! The recent-events strip under a subject's table: the Partitions screen
//! shows its topic's latest events, the Brokers screen the brokers' and the
//! cluster's (controller, quorum, metadata liveness), a group's screens the
//! group's. Picked from the timeline ([`super::screens::events`]) in
//! `update`, only when the timeline or the screen changed; the view draws
//! the picked rows.

use crate::meta::MovementEvent;

use super::screen::Screen;
use super::screens::Screen as Module;
use super::screens::groups::Shown as GroupScreen;
use super::state::AppState;
use super::stores::event_strip::{STRIP_EVENTS, Strip};

/// Whether `screen` has a strip.
fn has_strip(screen: &Screen) -> bool {
    matches!(
        screen,
        Module::Partitions(_)
            | Module::Brokers(_)
            | Module::Groups(GroupScreen::Offsets(_) | GroupScreen::Members(_))
    )
}

/// Whether `event` belongs on `screen`'s strip.
fn belongs(screen: &Screen, event: &MovementEvent) -> bool {
    match screen {
        Module::Partitions(shown) => {
            event.group().is_none() && event.topic.as_deref() == Some(shown.topic.as_str())
        }
        Module::Brokers(_) => event.topic.is_none() && event.group().is_none(),
        Module::Groups(GroupScreen::Offsets(group) | GroupScreen::Members(group)) => {
            event.group() == Some(group.as_str())
        }
        _ => false,
    }
}

/// Pick the strip's events for the screen on show, if the timeline or the
/// screen changed since the last pick.
pub fn refresh(state: &mut AppState) {
    let screen = &state.view().screen;
    let seen = state.screens.events.seen;
    if state
        .cluster
        .strip
        .built_for
        .as_ref()
        .is_some_and(|(s, n)| s == screen && *n == seen)
    {
        return;
    }
    let key = (screen.clone(), seen);
    let rows = if has_strip(screen) {
        state
            .screens
            .events
            .ring
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, e)| belongs(screen, e))
            .map(|(i, _)| i)
            .take(STRIP_EVENTS)
            .collect()
    } else {
        Vec::new()
    };
    state.cluster.strip = Strip {
        built_for: Some(key),
        rows,
    };
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::app::{Keymap, View};
    use crate::meta::MovementKind;

    fn event(topic: Option<&str>, partition: Option<i32>, kind: MovementKind) -> MovementEvent {
        MovementEvent {
            time: SystemTime::UNIX_EPOCH,
            topic: topic.map(str::to_owned),
            partition,
            kind,
        }
    }

    fn moved(partition: i32) -> MovementKind {
        MovementKind::LeaderChanged {
            from: 1,
            to: 2,
            epoch: partition,
        }
    }

    #[test]
    fn each_screen_gets_its_subjects_newest_events() {
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        let mut events: Vec<MovementEvent> = (0..5)
            .map(|p| event(Some("orders"), Some(p), moved(p)))
            .collect();
        events.push(event(Some("other"), Some(0), moved(9)));
        events.push(event(None, None, MovementKind::BrokerLeft { broker: 3 }));
        state.screens.events.push(&events);

        state.stack.push(View::new(Screen::partitions("orders")));
        refresh(&mut state);
        assert_eq!(
            state.cluster.strip.rows,
            [4, 3, 2],
            "the newest three, newest first"
        );
        assert_eq!(state.cluster.strip.height(), 4);

        state.stack.push(View::new(Screen::brokers()));
        refresh(&mut state);
        assert_eq!(state.cluster.strip.rows, [6]);

        state.stack.push(View::new(Screen::offsets("billing")));
        refresh(&mut state);
        assert!(state.cluster.strip.rows.is_empty(), "no event of the group");
        assert_eq!(state.cluster.strip.height(), 0);

        state.stack.push(View::new(Screen::topics()));
        refresh(&mut state);
        assert!(
            state.cluster.strip.rows.is_empty(),
            "the Topics screen has no strip"
        );
    }
}
