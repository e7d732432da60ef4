//! What the Messages rows on screen and the record open ask of the schema
//! registry (the ids they need, a topic's mapping to compile), and the
//! answers put into the session's [`SchemaCache`].

use std::sync::Arc;

use crate::browse::format::schema_id;
use crate::schema::SchemaInfo;

use super::schema_cache::Slot;
use crate::app::action::Effect;
use crate::app::failure::Failure;
use super::Shown;
use crate::app::state::AppState;

/// Ask for the schemas of the framed keys and values on screen (the
/// visible rows of the Messages screen, or the record open) that are not
/// held yet, each id once.
pub fn plan(state: &mut AppState, fx: &mut Vec<Effect>) {
    if !state.screens.messages.format.decodes() {
        return;
    }
    let topic = &state.screens.messages.topic;
    if state.view().screen.messages().is_some() && state.screens.messages.schemas.mappings.unprepared(topic)
        && state.screens.messages.schemas.preparing.insert(topic.clone())
    {
        fx.push(Effect::PrepareMapping {
            topic: topic.clone(),
        });
    }
    if !state.screens.messages.schemas.enabled {
        return;
    }
    let mut ids: Vec<u32> = Vec::new();
    let mut note = |bytes: Option<&[u8]>| {
        if let Some(id) = bytes.and_then(schema_id)
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    };
    let view = state.view();
    match view.screen.messages() {
        Some(Shown::Records { .. }) => {
            let page = state.page();
            for record in view
                .rows
                .iter()
                .skip(view.offset)
                .take(page)
                .filter_map(|&seq| state.screens.messages.record(seq))
            {
                note(record.key.as_deref());
                note(record.value.as_deref());
            }
        }
        Some(Shown::Record { .. }) => {
            if let Some(detail) = &state.screens.messages.detail {
                note(detail.record.key.as_deref());
                note(detail.record.value.as_deref());
            }
        }
        None => return,
    }
    let now = state.now;
    for id in ids {
        if state.screens.messages.schemas.due(id, now) {
            state.screens.messages.schemas.slots.insert(id, Slot::Pending(now));
            fx.push(Effect::FetchSchema { id });
        }
    }
}

/// Take the worker's answer for schema `id`; the record open is laid out
/// again with it.
pub fn receive(state: &mut AppState, id: u32, result: Result<Arc<SchemaInfo>, Failure>) {
    if !matches!(state.screens.messages.schemas.slots.get(&id), Some(Slot::Pending(_))) {
        return;
    }
    let slot = match result {
        Ok(info) => Slot::Ready(info),
        Err(failure) => Slot::Failed(failure, state.now),
    };
    state.screens.messages.schemas.slots.insert(id, slot);
    state.screens.messages.schemas.answers += 1;
    super::relayout(state);
}

/// The worker compiled `topic`'s mapping: the record open is laid out again.
pub fn mapping_prepared(state: &mut AppState, topic: &str) {
    if state.screens.messages.schemas.preparing.contains(topic) {
        state.screens.messages.schemas.answers += 1;
        super::relayout(state);
    }
}
