//! Records out of the Messages screen: `:save` / `:save-all` (JSON lines to
//! a file, written by the worker) and the copy key (the value, to the
//! clipboard through the terminal). Here only what to hand out is chosen.
//! Under `--anonymize` the saved records' topic is its pseudonym (keys and
//! values are `--mask`'s business, as on the screen); the copy key copies a
//! value, which holds no name kscope knows to replace.

use super::effect::Effect as MessagesEffect;
use crate::app::action::Effect;
use crate::app::screens::messages::{self, Shown};
use crate::app::state::AppState;

/// The record the user means: the one open on the detail screen, or the
/// one selected on the Messages screen.
fn current(state: &AppState) -> Option<crate::browse::Record> {
    match state.view().screen.messages()? {
        Shown::Record { .. } => state.screens.messages.detail.as_ref().map(|d| d.record.clone()),
        Shown::Records { .. } => messages::selected(state).cloned(),
    }
}

/// Every record the Messages view shows (after its filter), oldest first.
fn shown(state: &AppState) -> Vec<crate::browse::Record> {
    state
        .stack
        .iter()
        .rev()
        .find(|v| v.screen.is_records())
        .map(|view| {
            view.rows
                .iter()
                .filter_map(|&seq| state.screens.messages.record(seq).cloned())
                .collect()
        })
        .unwrap_or_default()
}

/// `:save[-all][!] PATH`: ask the worker to write the record(s).
pub fn save(state: &mut AppState, path: String, all: bool, force: bool, fx: &mut Vec<Effect>) {
    if state.view().screen.messages().is_none() {
        state.notice = Some(":save works on the Messages screen and a record".to_owned());
        return;
    }
    let records = if all {
        shown(state)
    } else {
        current(state).into_iter().collect()
    };
    if records.is_empty() {
        state.notice = Some("nothing to save: no record is shown".to_owned());
        return;
    }
    fx.push(Effect::Messages(MessagesEffect::Save {
        path,
        // As `kscope consume --anonymize` writes it.
        topic: crate::anonymize::name(crate::anonymize::Kind::Topic, &state.screens.messages.topic),
        records,
        force,
    }));
}

/// The copy key: the value of the record meant, to the clipboard.
pub fn copy(state: &mut AppState, fx: &mut Vec<Effect>) {
    match current(state) {
        None => state.notice = Some("nothing to copy: no record is selected".to_owned()),
        Some(record) => match record.value {
            None => state.notice = Some("nothing to copy: the value is null".to_owned()),
            Some(value) => fx.push(Effect::Messages(MessagesEffect::Copy(value))),
        },
    }
}
