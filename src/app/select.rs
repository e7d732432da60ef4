//! What the selection means: the topic, partition or broker a key acts on,
//! and what Enter opens from each screen.

use crate::inspect::ConfigResource;

use super::action::Effect;
use super::keymap::Command;
use super::screen::Screen;
use super::screens::messages;
use super::screens::{self, Goto, producers::Partition, security::Listing, topic_clients::Topic};
use super::state::AppState;

/// The selected partition's producers, or the selected topic's ACLs.
pub(super) fn inspect_selected(state: &mut AppState, command: Command, fx: &mut Vec<Effect>) {
    if command == Command::Producers {
        if let Some(topic) = state.view().screen.partitions_topic() {
            let topic = topic.to_owned();
            if let Some(partition) = selected_partition(state, &topic) {
                let shown = Partition { topic, partition };
                let screen = screens::Screen::Producers(shown);
                super::navigate::push(state, screen, None, fx);
            }
        }
    } else if let Some(topic) = current_topic(state) {
        let screen = if command == Command::Clients {
            screens::Screen::Clients(Topic { topic })
        } else {
            screens::Screen::Security(Listing::TopicAcls(topic))
        };
        super::navigate::push(state, screen, None, fx);
    }
}

/// The topic on screen (Partitions) or selected (Topics).
pub(super) fn current_topic(state: &AppState) -> Option<String> {
    let screen = &state.view().screen;
    if let Some(topic) = screen.partitions_topic() {
        return Some(topic.to_owned());
    }
    screen.is_topics().then(|| selected_topic(state)).flatten()
}

/// Whose configs the configs key opens: the topic on screen or selected,
/// or the selected broker.
pub(super) fn config_target(state: &AppState) -> Option<ConfigResource> {
    // A group's own configs (session timeouts, share and streams settings).
    if let Some(shown) = state.view().screen.groups_screen() {
        let group = if let Some(group) = shown.group() {
            Some(group.to_owned())
        } else {
            let view = state.view();
            let index = *view.rows.get(view.selected)?;
            state.screens.groups.group_name(index)
        };
        return group.map(ConfigResource::Group);
    }
    if let Some(topic) = current_topic(state) {
        return Some(ConfigResource::Topic(topic));
    }
    let view = state.view();
    if !matches!(view.screen, screens::Screen::Brokers(_)) {
        return None;
    }
    let index = *view.rows.get(view.selected)?;
    let broker = state.screens.brokers.broker(index)?.info().node_id;
    Some(ConfigResource::Broker(broker))
}

/// The topic selected on the Topics screen.
pub(super) fn selected_topic(state: &AppState) -> Option<String> {
    let view = state.view();
    let index = *view.rows.get(view.selected)?;
    state.screens.topics.topic(index).map(|t| t.name.clone())
}

/// The partition selected on the Partitions screen of `topic`.
pub(super) fn selected_partition(state: &AppState, topic: &str) -> Option<i32> {
    let view = state.view();
    let index = *view.rows.get(view.selected)?;
    state.screens.partitions.partition(topic, index)
}

pub(super) fn select(state: &mut AppState, fx: &mut Vec<Effect>) {
    let view = state.view();
    let screen = view.screen.clone();
    let goto = view
        .rows
        .get(view.selected)
        .copied()
        .and_then(|i| state.screens.enter(&screen, i));
    match goto {
        Some(Goto::Group(group)) => {
            super::navigate::push(state, Screen::offsets(group), None, fx);
        }
        Some(Goto::Partition { topic, partition }) => {
            open_partition(state, topic, partition, fx);
        }
        Some(Goto::Messages { topic, partition }) => {
            messages::open(state, topic, partition, messages::DEFAULT_START, fx);
        }
        Some(Goto::Broker(broker)) => {
            super::navigate::push(state, Screen::brokers(), None, fx);
            super::rows::refresh(state);
            let index = state.screens.brokers.position(broker);
            select_source_row(state, index);
        }
        Some(Goto::Own(screen)) => {
            super::navigate::push(state, screen, None, fx);
        }
        Some(Goto::Movements(filter)) => {
            super::navigate::push(state, Screen::leaders(), Some(&filter), fx);
        }
        Some(Goto::Context(name)) => switch_context(state, name, fx),
        None => {}
    }
}

/// Open `topic`'s Partitions screen on `partition`'s row (Enter on an
/// event about it), or say that the topic is gone.
fn open_partition(
    state: &mut AppState,
    topic: String,
    partition: Option<i32>,
    fx: &mut Vec<Effect>,
) {
    let Some(info) = state.screens.partitions.snap.topic(&topic) else {
        state.notice = Some(format!(
            "topic '{}' is not in the cluster now",
            crate::anonymize::name(crate::anonymize::Kind::Topic, &topic)
        ));
        return;
    };
    let index = partition.and_then(|p| info.partitions.iter().position(|q| q.partition == p));
    super::navigate::push(state, Screen::partitions(topic), None, fx);
    if partition.is_some() {
        super::rows::refresh(state);
        select_source_row(state, index);
    }
}

/// Select the row showing source index `index` on the view on top.
fn select_source_row(state: &mut AppState, index: Option<usize>) {
    let view = state.view_mut();
    if let Some(row) = index.and_then(|i| view.rows.iter().position(|&r| r == i)) {
        view.selected = row;
    }
}

/// Enter on a fleet row: the session's own context opens its Topics
/// screen; another is switched to (its Topics screen opens once it
/// resolves, over the fleet).
fn switch_context(state: &mut AppState, name: String, fx: &mut Vec<Effect>) {
    if name == state.context {
        super::navigate::push(state, Screen::topics(), None, fx);
    } else if name == crate::config::resolve::ONE_OFF {
        state.notice =
            Some("the command line's -b cluster is opened by starting kscope with -b".to_owned());
    } else {
        state.notice = Some(format!("switching to context '{name}'"));
        fx.push(Effect::SwitchContext(name));
    }
}
