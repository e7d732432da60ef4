//! The Messages screen's model: one browse session at a time, its records
//! in a bounded ring (N records, M bytes; drops counted), follow and pause,
//! and the row list kept incrementally (a new record is checked against the
//! filter once; a keystroke that narrows the filter re-checks only the rows
//! it had).
//!
//! The folder holds everything of the Messages screen and of the record
//! opened from it: its line of the `screens!` list,
//! `Messages => messages::Shown` ([`shown`]: the records or one record
//! open, the batch message, `impl Module`); the store ([`store`]: the ring,
//! the filter and the rows kept in step with it, the record open, the
//! `:find` scan's state ([`finding`]), the decoded cells ([`decoded`],
//! made by [`cells`]) and the schema cache ([`schema_cache`])); what the
//! navigation does over the whole state (this file: the session; [`find`],
//! [`isolation`], [`key`], [`export`], [`schema_asks`]: they push screens,
//! set the status line and start the worker's [`effect`]s); the filter
//! ([`filter`]) and the record laid out ([`detail`]); and the drawing
//! ([`draw`]).

pub mod cells;
pub mod decoded;
pub mod detail;
pub mod draw;
pub mod effect;
pub mod export;
pub mod filter;
pub mod find;
pub mod finding;
pub mod isolation;
pub mod key;
pub mod names;
pub mod schema_asks;
pub mod schema_cache;
pub mod shown;
pub mod store;

use crate::browse::{Format, Record, Start};

use crate::app::action::Effect;
use crate::app::navigate::push;
use crate::app::screen::Screen;
use crate::app::state::AppState;
use effect::Effect as MessagesEffect;
use filter::RecordFilter;

pub use shown::{Msg, Shown};
pub use store::{DEFAULT_START, MessagesStore};

/// Open the Messages screen of `topic` (one partition or all) at `start`.
/// Under `--anonymize`, Kafka's own topics are refused (their records hold
/// group, topic and transactional ids, which no pseudonym replaces), as
/// `kscope consume` refuses them.
pub fn open(
    state: &mut AppState,
    topic: String,
    partition: Option<i32>,
    start: Start,
    fx: &mut Vec<Effect>,
) {
    if crate::anonymize::active().is_some() && topic.starts_with("__") {
        state.notice = Some(format!(
            "--anonymize: the messages of {topic} are not shown: its records hold group, \
             topic and transactional ids"
        ));
        return;
    }
    let screen = Screen::records(topic.clone(), partition);
    if state.view().screen != screen {
        push(state, screen, None, fx);
    }
    state.screens.messages.key = None;
    restart(state, topic, partition, start, fx);
}

/// Start a new session for the Messages view on top: an empty ring, rows
/// rebuilt as records arrive.
pub(super) fn restart(
    state: &mut AppState,
    topic: String,
    partition: Option<i32>,
    start: Start,
    fx: &mut Vec<Effect>,
) {
    let m = &mut state.screens.messages;
    m.session += 1;
    m.topic.clone_from(&topic);
    m.partition = partition;
    m.start = start.clone();
    m.ring = m.new_ring();
    m.held = m.new_ring();
    m.paused = false;
    m.arrived = 0;
    m.upstream_dropped = 0;
    m.built_upto = 0;
    m.failed = None;
    m.live = true;
    m.anchor = None;
    m.hold_at_anchor = None;
    let view = state.view_mut();
    view.rows.clear();
    view.selected = 0;
    view.offset = 0;
    fx.push(Effect::Messages(MessagesEffect::Browse {
        session: state.screens.messages.session,
        topic,
        partition,
        start,
        isolation: state.screens.messages.isolation,
        key: state.screens.messages.key.clone(),
    }));
}

/// The Messages view on top again (back from elsewhere): start its session
/// anew when another one replaced it.
pub fn resume(state: &mut AppState, fx: &mut Vec<Effect>) {
    if let Some(shown @ Shown::Records { topic, partition }) = state.view().screen.messages()
        && !state.screens.messages.shows(shown)
    {
        let (topic, partition) = (topic.clone(), *partition);
        restart(state, topic, partition, DEFAULT_START, fx);
    }
}

/// Seek the session on screen to `spec` (an offset, `-N`, a time …).
pub fn seek(state: &mut AppState, spec: &str, now_ms: i64, fx: &mut Vec<Effect>) {
    if !state.view().screen.is_records() {
        state.notice = Some(":seek works on the Messages screen".to_owned());
        return;
    }
    match Start::parse(spec, now_ms) {
        Ok(Start::Group(_)) => {
            state.notice = Some(":seek takes an offset, -N, a time, beginning or end".to_owned());
        }
        Ok(start) => {
            let (topic, partition) = (state.screens.messages.topic.clone(), state.screens.messages.partition);
            state.notice = Some(format!("seeking to {spec}"));
            restart(state, topic, partition, start, fx);
        }
        Err(error) => state.notice = Some(error.to_string()),
    }
}

/// Pause or resume: resuming shows what arrived meanwhile.
pub fn toggle_pause(state: &mut AppState) {
    let m = &mut state.screens.messages;
    m.paused = !m.paused;
    if !m.paused {
        for record in m.held.drain() {
            m.ring.push(&record);
        }
        m.held = m.new_ring();
        m.arrived = 0;
    }
}

/// Set the `/` filter from what is typed; the rows follow.
pub fn set_filter(state: &mut AppState, text: &str) {
    match RecordFilter::parse(text) {
        Ok(filter) => {
            let last = state.stack.len() - 1;
            let view = &mut state.stack[last];
            state.screens.messages.refilter(filter, &mut view.rows);
            view.selected = 0;
            view.offset = 0;
        }
        // Keep the last good filter while a regex is half typed.
        Err(error) => state.notice = Some(error),
    }
}

/// The record selected on the Messages screen.
pub fn selected(state: &AppState) -> Option<&Record> {
    let view = state.view();
    view.rows
        .get(view.selected)
        .and_then(|&seq| state.screens.messages.record(seq))
}

/// Show values as `format` (the detail open is laid out again).
pub fn set_format(state: &mut AppState, format: Format) {
    state.screens.messages.format = format;
    relayout(state);
    state.notice = Some(format!("values shown as {}", format.name()));
}

/// Lay the record open out again (the format changed, a schema landed).
pub fn relayout(state: &mut AppState) {
    let m = &mut state.screens.messages;
    if let Some(detail) = m.detail.take() {
        m.lay_out(detail.record);
    }
}

/// Open the records of the partition selected on a group's offsets screen
/// at the group's committed offset (never joins the group).
pub fn open_committed(state: &mut AppState, fx: &mut Vec<Effect>) {
    let Some(group) = state.view().screen.offsets_group() else {
        return;
    };
    let view = state.view();
    let Some(p) = state
        .screens
        .groups
        .detail(group)
        .zip(view.rows.get(view.selected))
        .and_then(|(d, &i)| d.lag.partitions.get(i))
    else {
        return;
    };
    let (topic, partition) = (p.topic.to_string(), p.partition);
    match p.committed {
        Some(offset) => {
            let said = format!(
                "group '{}' reads offset {offset} next",
                crate::anonymize::name(crate::anonymize::Kind::Group, group)
            );
            open(state, topic, Some(partition), Start::Offset(offset), fx);
            state.screens.messages.anchor = Some((partition, offset));
            state.screens.messages.hold_at_anchor = Some(said);
        }
        None => {
            state.notice = Some(format!(
                "the group has no committed offset on '{}' partition {partition}",
                crate::anonymize::name(crate::anonymize::Kind::Topic, &topic)
            ));
        }
    }
}

/// Open `record` (of the view's topic) on the detail screen.
pub fn open_detail_of(state: &mut AppState, record: Record, fx: &mut Vec<Effect>) {
    let shown = state.screens.messages.open(record);
    push(state, Screen::Messages(shown), None, fx);
}
