//! `update`: the one place the model changes. Pure: no I/O, no awaiting;
//! anything that needs the outside world is returned as an [`Effect`].

use std::sync::Arc;

use crate::meta::MetadataSnapshot;

use super::action::{Action, Effect};
use super::configs;
use super::forward::{Shared, answered_topics, forward, movements, shared, snapshot};
use super::groups;
use super::input;
use super::keymap::Command;
use super::layout;
use super::navigate::{self, push};
use super::rows;
use super::screen::Screen;
use super::screens;
use super::screens::brokers;
use super::screens::messages::{self, cells, export, find, isolation, schema_asks};
use super::select::{config_target, current_topic, inspect_selected, select, selected_partition};
use super::state::{AppState, Link, Mode};
use super::watermarks;

/// Apply `action` to `state`; `snap` is the snapshot the next frame draws.
pub fn update(state: &mut AppState, action: Action, snap: &MetadataSnapshot) -> Vec<Effect> {
    let mut effects = Vec::new();
    match action {
        Action::Key(key) => match state.mode {
            Mode::Normal => {
                let replayed = super::replay::key(state, key, &mut effects);
                if !replayed && let Some(command) = state.keymap.lookup(key, &state.view().screen) {
                    run(state, command, &mut effects);
                }
            }
            Mode::Filter(_) | Mode::Command(_) => input::key(state, key, snap, &mut effects),
        },
        Action::ScrollUp => move_by(state, -3),
        Action::ScrollDown => move_by(state, 3),
        Action::Click { row } => click(state, row, &mut effects),
        Action::Resize { width, height } => {
            state.width = width;
            state.height = height;
        }
        Action::Tick { now, wall } => {
            state.now = now;
            state.wall = wall;
            super::replay::tick(state, now, &mut effects);
            // Events age out of the header's count.
            forward(state, screens::Msg::Events(screens::events::Msg::Aged));
        }
        Action::Snapshot { generation } => snapshot(state, generation, snap),
        Action::Movements(events) => movements(state, events),
        Action::ConfigSweep(sweep) => super::event_sources::configs(state, sweep),
        Action::Watermarks { request, result } => {
            if let Some(marks) = watermarks::receive(state, snap, request, result) {
                shared(state, Shared::Marks(Arc::new(marks)));
            }
        }
        Action::Sizes { request, sizes } => {
            if let Some(seen) = super::sizes::receive(state, request, sizes) {
                shared(state, Shared::Sizes(Arc::new(seen)));
            }
            let latest = state.cluster.sizes.latest.clone();
            let copy = screens::groups::Msg::Sizes(latest.clone());
            forward(state, screens::Msg::Groups(copy));
            forward(state, screens::Msg::Brokers(brokers::Msg::Sizes(latest)));
        }
        Action::Screen(screens::Msg::Groups(msg)) => groups::receive(state, msg),
        Action::Screen(msg) => {
            let summaries = answered_topics(&msg);
            forward(state, msg);
            shared(state, Shared::Summaries(&summaries));
        }
        Action::Degraded(degraded) => {
            if degraded.is_some() {
                state.refreshing = false;
            }
            state.degraded = degraded;
        }
        Action::Health(health) => {
            state.health.clone_from(&health);
            forward(state, screens::Msg::Brokers(brokers::Msg::Health(health)));
        }
        Action::ConnectFailed { attempt, error } => {
            state.link = Link::Connecting {
                attempt,
                retrying: error.is_transient(),
                error: Some(error.message),
            };
        }
        Action::Connected { context } => (state.context, state.link) = (context, Link::Connected),
        Action::Notice(notice) => state.notice = Some(notice),
        Action::ContextResolved { name, result } => match result {
            Ok(context) => switch_context(state, &context),
            Err(error) => state.notice = Some(format!("context '{name}': {error}")),
        },
        Action::Finding { id, read, end } => {
            find::receive(state, id, read, end, &mut effects);
        }
        Action::ReplayClock { at } => state.wall = crate::recording::frame::time(at),
        Action::Schema { id, result } => schema_asks::receive(state, id, result),
        Action::MappingPrepared { topic } => schema_asks::mapping_prepared(state, &topic),
    }
    after(state, snap, &mut effects);
    effects
}

/// `:ctx` resolved: everything about the old cluster is forgotten, and the
/// new context's settings taken (the run loop connects to it).
fn switch_context(state: &mut AppState, context: &crate::config::ResolvedContext) {
    state.reset_cluster();
    state.context.clone_from(&context.name);
    state.bootstrap.clone_from(&context.bootstrap_servers);
    state.read_only = context.read_only;
    state.screens.messages.schemas.enabled = context.schema_registry.is_some();
    state.screens.messages.schemas.mappings =
        crate::schema::mapping::Mappings::new(context.topic_schemas.clone());
}

/// What follows every action: the rows rebuilt, the cells decoded, and each
/// store's requests planned for what is now on screen.
fn after(state: &mut AppState, snap: &MetadataSnapshot, effects: &mut Vec<Effect>) {
    super::event_sources::min_isr(state, snap);
    // Before the rows: the strip's height is part of the page.
    super::event_strip::refresh(state);
    rows::refresh(state);
    watermarks::plan(state, effects);
    configs::plan(state, effects);
    super::sizes::plan(state, effects);
    schema_asks::plan(state, effects);
    cells::refresh(state);
    plan_screen(state, effects);
}

/// Ask for what the screen modules need, if it is due: the one on top for
/// what it shows, the others for while they are hidden.
fn plan_screen(state: &mut AppState, effects: &mut Vec<Effect>) {
    let page = state.page();
    // The view on screen (not `state.view()`: the stores are borrowed too).
    let view = &state.stack[state.stack.len() - 1];
    let from = view.offset.min(view.rows.len());
    let to = (from + page).min(view.rows.len());
    let headers = view.screen.headers();
    let below: Vec<std::any::TypeId> = state.stack[..state.stack.len() - 1]
        .iter()
        .map(|v| v.screen.module_id())
        .collect();
    let seen = screens::Seen {
        now: state.now,
        window: &view.rows[from..to],
        sorted_by: headers.get(view.sort.column).copied(),
        top: Some(view.screen.module_id()),
        below: &below,
        follow_lag: state.follow_lag,
    };
    let connected = state.link == Link::Connected;
    let due = state
        .screens
        .plan(Some(&view.screen), &seen, &mut state.requests, connected);
    effects.extend(due.into_iter().map(Effect::Query));
}

/// Carry out a normal-mode command.
pub fn run(state: &mut AppState, command: Command, fx: &mut Vec<Effect>) {
    if state.show_help && !matches!(command, Command::Quit) {
        state.show_help = false;
        return;
    }
    let page = isize::try_from(state.page()).unwrap_or(1);
    match command {
        Command::Quit => {
            state.quit = true;
            fx.push(Effect::Quit);
        }
        Command::Help => state.show_help = true,
        Command::CommandLine => state.mode = Mode::Command(String::new()),
        Command::Filter => {
            let text = state.view().filter.as_ref().map(|f| f.text().to_owned());
            state.mode = Mode::Filter(text.unwrap_or_default());
        }
        Command::Back => back(state, fx),
        Command::Select => select(state, fx),
        Command::Up => move_by(state, -1),
        Command::Down => move_by(state, 1),
        Command::PageUp => move_by(state, -page),
        Command::PageDown => move_by(state, page),
        Command::Top => state.view_mut().selected = 0,
        Command::Bottom => state.view_mut().selected = usize::MAX,
        Command::Refresh => {
            if let Link::Connecting { retrying, .. } = &mut state.link {
                // Not connected: `r` is "try again now" (the session
                // restarts the connect loop, also after it gave up).
                *retrying = true;
            }
            state.refreshing = true;
            state.screens.expire();
            fx.push(Effect::Refresh);
        }
        Command::SortNext => {
            let columns = state.view().screen.headers().len();
            let sort = &mut state.view_mut().sort;
            sort.column = (sort.column + 1) % columns;
        }
        Command::SortReverse => {
            let sort = &mut state.view_mut().sort;
            sort.descending = !sort.descending;
        }
        Command::ToggleInternal => {
            state.show_internal = !state.show_internal;
            let toggles = state.topics_toggles();
            forward(state, toggles);
        }
        Command::ToggleInactive => {
            let groups = &mut state.screens.groups;
            groups.hide_inactive = !groups.hide_inactive;
            let hidden = if groups.hide_inactive {
                "hidden"
            } else {
                "shown"
            };
            state.notice = Some(format!("Empty and Dead groups {hidden}"));
        }
        Command::CycleGroupType => state.notice = Some(state.screens.groups.cycle_type()),
        Command::Consumers => {
            if let Some(topic) = current_topic(state) {
                push(state, Screen::groups(Some(topic)), None, fx);
            }
        }
        Command::Members | Command::CommitHistory => from_group(state, command, fx),
        Command::Configs => {
            if let Some(of) = config_target(state) {
                let screen =
                    super::screens::Screen::Configs(super::screens::configs::Config::list(of));
                push(state, screen, None, fx);
            }
        }
        Command::Messages => {
            let shown = state.view().screen.partitions_topic().map(str::to_owned);
            let partition = shown.and_then(|topic| selected_partition(state, &topic));
            if let Some(topic) = current_topic(state) {
                messages::open(state, topic, partition, messages::DEFAULT_START, fx);
            }
        }
        Command::Pause => messages::toggle_pause(state),
        Command::CommittedMessages => messages::open_committed(state, fx),
        Command::ToggleLag => toggle_lag(state),
        Command::CopyValue => export::copy(state, fx),
        Command::Producers | Command::TopicAcls | Command::Clients => {
            inspect_selected(state, command, fx);
        }
        Command::ToggleIsolation => isolation::set(state, None, fx),
        Command::Leaders => {
            if let Some(topic) = current_topic(state) {
                let filter = format!("~^{} ", regex::escape(&topic));
                push(state, Screen::leaders(), Some(&filter), fx);
            }
        }
    }
}

/// From a group's offsets: its members (`m`) or its commit history (`H`).
fn from_group(state: &mut AppState, command: Command, fx: &mut Vec<Effect>) {
    let Some(group) = state.view().screen.offsets_group() else {
        return;
    };
    let group = group.to_owned();
    let screen = if command == Command::Members {
        Screen::members(group)
    } else {
        super::screens::Screen::Commits(super::screens::commits::Group { group })
    };
    push(state, screen, None, fx);
}

fn move_by(state: &mut AppState, delta: isize) {
    let view = state.view_mut();
    view.selected = view.selected.saturating_add_signed(delta);
    if delta < 0 && view.selected >= view.rows.len() {
        view.selected = view.rows.len().saturating_sub(1);
    }
}

fn click(state: &mut AppState, row: u16, fx: &mut Vec<Effect>) {
    let Some(within) = row.checked_sub(layout::table_first_row(&state.view().screen)) else {
        return;
    };
    if usize::from(within) >= state.page() || state.mode != Mode::Normal {
        return;
    }
    let view = state.view_mut();
    let target = view.offset + usize::from(within);
    if target >= view.rows.len() {
        return;
    }
    if view.selected == target {
        select(state, fx);
    } else {
        view.selected = target;
    }
}

fn back(state: &mut AppState, fx: &mut Vec<Effect>) {
    if find::cancel(state, fx) {
        return;
    }
    if state.view().filter.is_some() {
        state.view_mut().filter = None;
        return;
    }
    if state.view().screen.is_records() && state.screens.messages.filter.is_some() {
        messages::set_filter(state, "");
        return;
    }
    if state.stack.len() > 1 {
        state.stack.pop();
        navigate::watch(state, fx);
        messages::resume(state, fx);
    }
}

/// `L`: keep the group list loading on the Topics screen, or stop.
fn toggle_lag(state: &mut AppState) {
    state.follow_lag = !state.follow_lag;
    state.notice = Some(if state.follow_lag {
        "LAG: loading every group's lag while Topics shows (L stops)".to_owned()
    } else {
        "LAG: no longer loading the groups; the column keeps its last values".to_owned()
    });
    let toggles = state.topics_toggles();
    forward(state, toggles);
}
