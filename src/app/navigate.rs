//! Moving on the navigation stack: a screen pushed, and what every move
//! tells the worker (the topics on screen) and stops (a browse session or
//! a `:find` scan whose records left the screen). Below everything that
//! opens a screen, so none of them imports `update`.

use super::action::Effect;
use super::filter::Filter;
use super::screen::{Screen, View};
use super::screens::messages::Shown;
use super::screens::messages::effect::Effect as MessagesEffect;
use super::state::AppState;

/// Put `screen` on the stack (optionally filtered) and watch what it shows.
pub fn push(state: &mut AppState, screen: Screen, filter: Option<&str>, fx: &mut Vec<Effect>) {
    if state.view().screen == screen && filter.is_none() {
        return;
    }
    let mut view = View::new(screen);
    view.filter = filter.and_then(|f| Filter::parse(f).ok().flatten());
    state.stack.push(view);
    watch(state, fx);
}

/// Tell the worker which topics are on screen (topic-scoped refreshes),
/// and stop browsing when the records left the screen.
pub fn watch(state: &mut AppState, fx: &mut Vec<Effect>) {
    let topics = match state.view().screen.messages() {
        Some(Shown::Records { topic, .. }) => vec![topic.clone()],
        _ => state
            .view()
            .screen
            .partitions_topic()
            .map_or_else(Vec::new, |topic| vec![topic.to_owned()]),
    };
    fx.push(Effect::WatchTopics(topics));
    leave(state, fx);
}

/// Stop the session when neither its screen nor a record of it is on top.
fn leave(state: &mut AppState, fx: &mut Vec<Effect>) {
    let on = state.view().screen.messages().is_some();
    if !on && state.screens.messages.find.take().is_some() {
        fx.push(Effect::Messages(MessagesEffect::StopFind));
    }
    if !on && state.screens.messages.live {
        state.screens.messages.live = false;
        fx.push(Effect::Messages(MessagesEffect::StopBrowse));
    }
}
