//! The prompt line: typing a `/` filter (applied as you type) or a `:` command.

use crate::meta::MetadataSnapshot;

use super::action::Effect;
use super::command::{self, Parsed};
use super::filter::Filter;
use super::key::{Code, Key};
use super::navigate::push;
use super::screen::Screen;
use super::screens::messages::{self, export, find, isolation, key};
use super::state::{AppState, Mode};

/// A key while the prompt is open.
pub fn key(state: &mut AppState, key: Key, snap: &MetadataSnapshot, fx: &mut Vec<Effect>) {
    let (mut text, filtering) = match &state.mode {
        Mode::Filter(text) => (text.clone(), true),
        Mode::Command(text) => (text.clone(), false),
        Mode::Normal => return,
    };
    match key.code {
        Code::Esc => {
            if filtering {
                state.view_mut().filter = None;
                if state.view().screen.is_records() {
                    messages::set_filter(state, "");
                }
            }
            state.mode = Mode::Normal;
            return;
        }
        Code::Enter => {
            state.mode = Mode::Normal;
            if !filtering {
                execute(state, &text, snap, fx);
            }
            return;
        }
        Code::Backspace => {
            text.pop();
        }
        Code::Tab if !filtering => {
            let topics: Vec<&str> = snap.topics().iter().map(|t| t.name.as_str()).collect();
            // Every group listed this session (the list itself is dropped
            // when no screen shows it; its histories stay).
            let groups: Vec<&str> = state
                .screens
                .groups
                .histories
                .keys()
                .map(String::as_str)
                .collect();
            let candidates = command::Candidates {
                contexts: &state.contexts,
                topics: &topics,
                groups: &groups,
            };
            text = command::complete(&text, candidates);
        }
        Code::Char(c) if !key.ctrl && !key.alt => text.push(c),
        _ => return,
    }
    if filtering {
        apply_filter(state, &text);
        state.mode = Mode::Filter(text);
    } else {
        state.mode = Mode::Command(text);
    }
}

fn apply_filter(state: &mut AppState, text: &str) {
    if state.view().screen.is_records() {
        messages::set_filter(state, text);
        return;
    }
    match Filter::parse(text) {
        Ok(filter) => {
            let view = state.view_mut();
            view.filter = filter;
            view.selected = 0;
            view.offset = 0;
        }
        // Keep the last good filter while a regex is half typed.
        Err(error) => state.notice = Some(error),
    }
}

/// Open the `:schemas` screen (a notice when the context has no registry).
fn open_schemas(state: &mut AppState, fx: &mut Vec<Effect>) {
    if !state.screens.messages.schemas.enabled {
        state.notice = Some(
            "no schema registry: set [contexts.NAME.schema_registry] url or pass -X schema.registry.url=URL"
                .to_owned(),
        );
        return;
    }
    let screen = super::screens::Screen::Schemas(super::screens::schemas::Shown::Subjects);
    push(state, screen, None, fx);
}

fn execute(state: &mut AppState, line: &str, snap: &MetadataSnapshot, fx: &mut Vec<Effect>) {
    let parsed = match command::parse(line) {
        Ok(parsed) => parsed,
        Err(error) => {
            state.notice = Some(error);
            return;
        }
    };
    match parsed {
        Parsed::Topics => push(state, Screen::topics(), None, fx),
        Parsed::Brokers => push(state, Screen::brokers(), None, fx),
        Parsed::Leaders => push(state, Screen::leaders(), None, fx),
        Parsed::Events => push(state, Screen::events(), None, fx),
        Parsed::Fleet => {
            if state.screens.fleet.start() {
                fx.push(Effect::StartFleet);
            }
            push(state, Screen::fleet(), None, fx);
        }
        Parsed::Clients(Some(topic)) => {
            let shown = super::screens::topic_clients::Topic { topic };
            let screen = super::screens::Screen::Clients(shown);
            push(state, screen, None, fx);
        }
        Parsed::Clients(None) => {
            super::select::inspect_selected(state, super::keymap::Command::Clients, fx);
        }
        Parsed::Groups(topic) => push(state, Screen::groups(topic), None, fx),
        Parsed::Group(group) => push(state, Screen::offsets(group), None, fx),
        Parsed::Partitions(topic) => push(state, Screen::partitions(topic), None, fx),
        Parsed::Config(of) => {
            let screen = super::screens::Screen::Configs(super::screens::configs::Config::list(of));
            push(state, screen, None, fx);
        }
        Parsed::Messages { topic, partition } => {
            messages::open(state, topic, partition, messages::DEFAULT_START, fx);
        }
        Parsed::Seek(spec) => {
            let now = state.now_ms();
            messages::seek(state, &spec, now, fx);
        }
        Parsed::Format(format) => messages::set_format(state, format),
        Parsed::Find(pattern) => find::start(state, pattern, fx),
        Parsed::Key(key) => key::open(state, &key, snap, fx),
        Parsed::Isolation(isolation) => isolation::set(state, isolation, fx),
        Parsed::Save { path, all, force } => {
            export::save(state, path, all, force, fx);
        }
        Parsed::Cluster => push(state, Screen::cluster(), None, fx),
        Parsed::Schemas => open_schemas(state, fx),
        Parsed::Security(of) => {
            let screen = super::screens::Screen::Security(of);
            push(state, screen, None, fx);
        }
        Parsed::Help => state.show_help = true,
        Parsed::Quit => {
            state.quit = true;
            fx.push(Effect::Quit);
        }
        Parsed::At(time) => super::replay::jump(state, &time, fx),
        Parsed::Context(_) if state.replay.is_some() => {
            state.notice =
                Some("a replay shows its recording only: no context to switch to".to_owned());
        }
        Parsed::Context(name) => {
            state.notice = Some(format!("switching to context '{name}'"));
            fx.push(Effect::SwitchContext(name));
        }
    }
}
