//! The Messages screen's model: one browse session at a time, its records
//! in a bounded ring (N records, M bytes; drops counted), follow and pause,
//! and the row list kept incrementally (a new record is checked against the
//! filter once; a keystroke that narrows the filter re-checks only the rows
//! it had).

//!
//! The folder holds everything of the Messages screen and of the record
//! opened from it (the Record screen): the store ([`store`]: the ring, the
//! rows' filter, the detail open) and, apart from it so that `AppState`
//! can hold them, the `:find` scan's state ([`finding`]), the decoded
//! cells ([`decoded`]) and the schema cache ([`schema_cache`]); what
//! changes them over the whole state (this file: the session; [`find`],
//! [`isolation`], [`key`], [`export`], [`cells`], [`schema_asks`]); the
//! filter ([`filter`]) and the record laid out ([`detail`]); and the
//! drawing ([`draw`]). Not yet a line of the `screens!` list: its rows are
//! record sequences kept in step with the ring, not rebuilt from answers.

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
pub mod schema_asks;
pub mod schema_cache;
pub mod store;

use crate::browse::{Format, Record, Start};

use crate::app::action::Effect;
use crate::app::navigate::push;
use crate::app::screen::Screen;
use crate::app::state::AppState;
use detail::Detail;
use effect::Effect as MessagesEffect;
use filter::RecordFilter;

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
    let screen = Screen::Messages {
        topic: topic.clone(),
        partition,
    };
    if state.view().screen != screen {
        push(state, screen, None, fx);
    }
    state.messages.key = None;
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
    let m = &mut state.messages;
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
        session: state.messages.session,
        topic,
        partition,
        start,
        isolation: state.messages.isolation,
        key: state.messages.key.clone(),
    }));
}

/// The Messages view on top again (back from elsewhere): start its session
/// anew when another one replaced it.
pub fn resume(state: &mut AppState, fx: &mut Vec<Effect>) {
    if let Screen::Messages { topic, partition } = &state.view().screen
        && !state.messages.shows(&state.view().screen)
    {
        let (topic, partition) = (topic.clone(), *partition);
        restart(state, topic, partition, DEFAULT_START, fx);
    }
}

/// Seek the session on screen to `spec` (an offset, `-N`, a time …).
pub fn seek(state: &mut AppState, spec: &str, now_ms: i64, fx: &mut Vec<Effect>) {
    if !matches!(state.view().screen, Screen::Messages { .. }) {
        state.notice = Some(":seek works on the Messages screen".to_owned());
        return;
    }
    match Start::parse(spec, now_ms) {
        Ok(Start::Group(_)) => {
            state.notice = Some(":seek takes an offset, -N, a time, beginning or end".to_owned());
        }
        Ok(start) => {
            let (topic, partition) = (state.messages.topic.clone(), state.messages.partition);
            state.notice = Some(format!("seeking to {spec}"));
            restart(state, topic, partition, start, fx);
        }
        Err(error) => state.notice = Some(error.to_string()),
    }
}

/// Take what a session read.
pub fn receive(
    state: &mut AppState,
    session: u64,
    records: &[Record],
    dropped: u64,
    notices: Vec<String>,
    failed: Option<String>,
) {
    let m = &mut state.messages;
    if session != m.session {
        return;
    }
    for record in records {
        if m.paused {
            m.held.push(record);
            m.arrived += 1;
        } else {
            m.ring.push(record);
        }
    }
    m.upstream_dropped = dropped;
    if let Some(notice) = notices.into_iter().last() {
        state.notice = Some(format!(
            "topic '{}' {notice}",
            crate::anonymize::name(crate::anonymize::Kind::Topic, &m.topic)
        ));
    }
    if let Some(error) = failed {
        state.notice = Some(error.clone());
        m.failed = Some(error);
    }
}

/// Pause or resume: resuming shows what arrived meanwhile.
pub fn toggle_pause(state: &mut AppState) {
    let m = &mut state.messages;
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
            let narrows = match (&filter, &state.messages.filter) {
                (Some(new), Some(old)) => new.narrows(old),
                (Some(_), None) => true,
                (None, _) => false,
            };
            state.messages.filter = filter;
            let (m, schemas) = (&state.messages, &state.schemas);
            let last = state.stack.len() - 1;
            let view = &mut state.stack[last];
            if narrows {
                if let Some(f) = &m.filter {
                    view.rows.retain(|&seq| {
                        m.record(seq)
                            .is_some_and(|r| f.passes(r, &m.topic, m.format, schemas))
                    });
                }
            } else {
                view.rows.clear();
                state.messages.built_upto = state.messages.first_seq();
            }
            let view = state.view_mut();
            view.selected = 0;
            view.offset = 0;
        }
        // Keep the last good filter while a regex is half typed.
        Err(error) => state.notice = Some(error),
    }
}

/// Bring the Messages view's rows up to date with the ring: rows of
/// dropped records go, new records that pass the filter come. A selection
/// on the last row stays on the last row (the tail is followed).
pub fn sync(state: &mut AppState) {
    if !state.messages.shows(&state.view().screen) {
        return;
    }
    let m = &mut state.messages;
    let first = m.first_seq();
    let end = m.end_seq();
    let from = m.built_upto.max(first);
    m.built_upto = end;
    let (m, schemas) = (&state.messages, &state.schemas);
    let last = state.stack.len() - 1;
    let view = &mut state.stack[last];
    let gone = view
        .rows
        .iter()
        .take_while(|&&s| (s as u64) < first)
        .count();
    if gone > 0 {
        view.rows.drain(..gone);
        view.selected = view.selected.saturating_sub(gone);
        view.offset = view.offset.saturating_sub(gone);
    }
    let at_tail = view.selected.saturating_add(1) >= view.rows.len();
    let before = view.rows.len();
    for seq in from..end {
        let Ok(seq) = usize::try_from(seq) else { break };
        if m.record(seq).is_some_and(|r| {
            m.filter
                .as_ref()
                .is_none_or(|f| f.passes(r, &m.topic, m.format, schemas))
        }) {
            view.rows.push(seq);
        }
    }
    if at_tail && view.rows.len() > before {
        view.selected = view.rows.len() - 1;
    }
    if let Some((partition, offset)) = state.messages.anchor {
        let found = view.rows[before..].iter().position(|&seq| {
            m.record(seq)
                .is_some_and(|r| r.partition == partition && r.offset == offset)
        });
        if let Some(index) = found {
            view.selected = before + index;
            state.messages.anchor = None;
            // Held still on it: following would carry the selection off to
            // the newest record within seconds.
            if state.messages.hold_at_anchor.is_some() {
                state.messages.paused = true;
            }
        }
    }
}

/// The record selected on the Messages screen.
pub fn selected(state: &AppState) -> Option<&Record> {
    let view = state.view();
    view.rows
        .get(view.selected)
        .and_then(|&seq| state.messages.record(seq))
}

/// Show values as `format` (the detail open is laid out again).
pub fn set_format(state: &mut AppState, format: Format) {
    state.messages.format = format;
    relayout(state);
    state.notice = Some(format!("values shown as {}", format.name()));
}

/// Lay the record open out again (the format changed, a schema landed).
pub fn relayout(state: &mut AppState) {
    let m = &mut state.messages;
    if let Some(detail) = m.detail.take() {
        let view = (m.format, m.utc_offset);
        m.detail = Some(Detail::new(detail.record, &m.topic, view, &state.schemas));
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
            state.messages.anchor = Some((partition, offset));
            state.messages.hold_at_anchor = Some(said);
        }
        None => {
            state.notice = Some(format!(
                "the group has no committed offset on '{}' partition {partition}",
                crate::anonymize::name(crate::anonymize::Kind::Topic, &topic)
            ));
        }
    }
}

/// Open the selected record on the detail screen.
pub fn open_detail(state: &mut AppState, fx: &mut Vec<Effect>) {
    if let Some(record) = selected(state).cloned() {
        open_detail_of(state, record, fx);
    }
}

/// Open `record` (of the view's topic) on the detail screen.
pub fn open_detail_of(state: &mut AppState, record: Record, fx: &mut Vec<Effect>) {
    let screen = Screen::Record {
        topic: state.messages.topic.clone(),
        partition: record.partition,
        offset: record.offset,
    };
    let m = &mut state.messages;
    m.detail = Some(Detail::new(
        record,
        &m.topic,
        (m.format, m.utc_offset),
        &state.schemas,
    ));
    push(state, screen, None, fx);
}
