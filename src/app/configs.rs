//! The few configs the Topics, Partitions and Group screens show of their
//! visible topics (cleanup policy, retention, min ISR): which topics, and
//! asking for their summaries through the config screens' store
//! (`screens::configs`, which also holds the answers) while no config
//! screen shows.

use crate::inspect::ConfigResource;

use super::action::Effect;
use super::screens;
use super::state::{AppState, Link};

/// The topics whose summary the screen shows: the visible rows of Topics,
/// the topic of Partitions.
fn visible_topics(state: &AppState) -> Vec<String> {
    let view = state.view();
    match &view.screen {
        screens::Screen::Topics(_) => view
            .rows
            .iter()
            .skip(view.offset)
            .take(state.page())
            .filter_map(|&i| state.screens.topics.topic(i))
            .map(|t| t.name.clone())
            .collect(),
        screens::Screen::Partitions(shown) => vec![shown.topic.clone()],
        // Their retention, for the time until unread records may go.
        screens::Screen::Groups(screens::groups::Shown::Offsets(group)) => {
            let Some(detail) = state.screens.groups.detail(group) else {
                return Vec::new();
            };
            let mut topics: Vec<String> = view
                .rows
                .iter()
                .skip(view.offset)
                .take(state.page())
                .filter_map(|&i| detail.lag.partitions.get(i))
                .map(|p| p.topic.to_string())
                .collect();
            topics.sort_unstable();
            topics.dedup();
            topics
        }
        _ => Vec::new(),
    }
}

/// Ask for the summaries of the visible topics that are due (a config
/// screen asks for its resource itself, as a screen module).
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    if matches!(state.view().screen, screens::Screen::Configs(_)) {
        return;
    }
    let now = state.now;
    let store = &state.screens.configs;
    let resources: Vec<ConfigResource> = visible_topics(state)
        .into_iter()
        .filter(|t| store.summary_due(t, now))
        .map(ConfigResource::Topic)
        .collect();
    let store = &mut state.screens.configs;
    // No config screen shows: only summaries are kept of what is answered.
    store.shown = None;
    if let Some(query) = store.ask(&mut state.requests, resources, now) {
        effects.push(Effect::Query(screens::Query::Configs(query)));
    }
}
