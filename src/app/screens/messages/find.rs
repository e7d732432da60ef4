//! `:find REGEX` (or `:find jq:EXPR`, `:find .value.id == 7`: a jq
//! expression, compiled here once) on the Messages screen: first the loaded records after the
//! selection; then a scan beyond them (the worker reads on from where the
//! view's records end, every partition in scope, to the end or a budget),
//! its progress in the title, Esc cancelling it. A record found in the
//! view is selected; one found beyond is opened on the detail screen.

use std::collections::BTreeMap;
use std::time::Duration;

use regex::bytes::Regex;

use crate::browse::jq::{self, JqFilter};
use crate::browse::json::{Field, RecordJson};
use crate::browse::{Record, Start};
use crate::schema::record_decoding::{RecordDecoding, field};

use super::effect::Effect as MessagesEffect;
use super::filter::with_jq_input;
use super::finding::{FindEnd, Finding};
use super::open_detail_of;
use crate::app::action::Effect;
use crate::app::state::AppState;

/// Whether `record`'s key or value matches.
pub fn matches(re: &Regex, record: &Record) -> bool {
    record.key.as_ref().is_some_and(|k| re.is_match(k))
        || record.value.as_ref().is_some_and(|v| re.is_match(v))
}

/// What a scan looks for: a regex over the key or value, or a jq
/// expression over the record (its key and value as bytes, JSON parsed).
#[derive(Debug, Clone)]
pub enum Matcher {
    /// A regex over the key or the value.
    Regex(Regex),
    /// A jq expression that must yield a value other than false or null.
    Jq(JqFilter),
}

impl Matcher {
    /// Whether `record` of `topic` matches (a jq error is no match).
    pub fn matches(&self, topic: &str, record: &Record) -> bool {
        self.matches_decoded(topic, record, None)
    }

    /// [`Matcher::matches`] with what the registry made of the record's
    /// key and value: a jq expression reads their decoded fields (a regex
    /// reads the bytes).
    pub fn matches_decoded(
        &self,
        topic: &str,
        record: &Record,
        decoding: Option<&RecordDecoding>,
    ) -> bool {
        match self {
            Matcher::Regex(re) => matches(re, record),
            Matcher::Jq(filter) => {
                let json = RecordJson {
                    key: decoding.map_or(Field::Bytes, |d| field(&d.key)),
                    value: decoding.map_or(Field::Bytes, |d| field(&d.value)),
                    ..RecordJson::plain(topic, record)
                };
                jq::with_record_val(&json, |input| filter.passes(input).unwrap_or(false))
            }
        }
    }

    /// Whether it is a jq expression (which looks at decoded values).
    pub fn is_jq(&self) -> bool {
        matches!(self, Matcher::Jq(_))
    }
}

/// The pattern compiled: a jq expression (`jq:` or `.x`) or a regex.
fn compile(pattern: &str) -> Result<Matcher, String> {
    match jq::typed(pattern) {
        Some(expr) => JqFilter::compile(expr)
            .map(Matcher::Jq)
            .map_err(|e| format!("jq: {}", e.line())),
        None => Regex::new(pattern)
            .map(Matcher::Regex)
            .map_err(|e| e.to_string()),
    }
}

/// `:find PATTERN`.
pub fn start(state: &mut AppState, pattern: String, fx: &mut Vec<Effect>) {
    if !state.view().screen.is_records() {
        state.notice = Some(":find works on the Messages screen".to_owned());
        return;
    }
    let matcher = match compile(&pattern) {
        Ok(matcher) => matcher,
        Err(error) => {
            state.notice = Some(format!(":find: {error}"));
            return;
        }
    };
    let view = state.view();
    let after = view.selected.saturating_add(1);
    let (m, schemas) = (&state.screens.messages, &state.screens.messages.schemas);
    let hit = view.rows.iter().enumerate().skip(after).find(|&(_, &seq)| {
        m.record(seq).is_some_and(|r| match &matcher {
            Matcher::Regex(re) => matches(re, r),
            Matcher::Jq(filter) => with_jq_input(r, &m.topic, m.format, schemas, |input| {
                filter.passes(input).unwrap_or(false)
            }),
        })
    });
    if let Some((index, _)) = hit {
        state.view_mut().selected = index;
        state.notice = Some(format!("/{pattern}/ found in the loaded records"));
        return;
    }
    // Beyond the records shown: each partition from after its last one
    // (records held while paused are not shown, so they are scanned).
    let m = &state.screens.messages;
    let mut next: BTreeMap<i32, i64> = BTreeMap::new();
    for record in m.ring.records() {
        let at = next.entry(record.partition).or_insert(0);
        *at = (*at).max(record.offset + 1);
    }
    let from = if next.is_empty() {
        m.start.clone()
    } else {
        Start::Offsets(next)
    };
    let id = m.finds + 1;
    fx.push(Effect::Messages(MessagesEffect::Find {
        id,
        topic: m.topic.clone(),
        partition: m.partition,
        start: from,
        isolation: m.isolation,
        pattern: pattern.clone(),
        jq: match matcher {
            Matcher::Jq(filter) => Some(filter),
            Matcher::Regex(_) => None,
        },
    }));
    state.screens.messages.finds = id;
    state.screens.messages.find = Some(Finding {
        id,
        pattern,
        records: 0,
        bytes: 0,
        elapsed: Duration::ZERO,
    });
}

/// Esc while a scan runs: stop it. True when there was one.
pub fn cancel(state: &mut AppState, fx: &mut Vec<Effect>) -> bool {
    let Some(finding) = state.screens.messages.find.take() else {
        return false;
    };
    fx.push(Effect::Messages(MessagesEffect::StopFind));
    state.notice = Some(format!("find cancelled after {} records", finding.records));
    true
}

/// Progress or the end of scan `id`.
pub fn receive(
    state: &mut AppState,
    id: u64,
    (records, bytes, elapsed): (u64, u64, Duration),
    end: Option<FindEnd>,
    fx: &mut Vec<Effect>,
) {
    let Some(finding) = state.screens.messages.find.as_mut().filter(|f| f.id == id) else {
        return;
    };
    finding.records = records;
    finding.bytes = bytes;
    finding.elapsed = elapsed;
    let Some(end) = end else { return };
    let pattern = finding.pattern.clone();
    state.screens.messages.find = None;
    match end {
        FindEnd::NotFound(why) => {
            state.notice = Some(format!(
                "/{pattern}/ not found in {records} records beyond the view: {why}"
            ));
        }
        FindEnd::Found(record) => {
            state.notice = Some(format!(
                "/{pattern}/ found at partition {} offset {} after {records} records",
                record.partition, record.offset
            ));
            let shown = state.view().rows.iter().position(|&seq| {
                state
                    .screens
                    .messages
                    .record(seq)
                    .is_some_and(|r| r.partition == record.partition && r.offset == record.offset)
            });
            match shown {
                Some(index) => state.view_mut().selected = index,
                None if state.view().screen.is_records() => {
                    open_detail_of(state, record, fx);
                }
                None => {}
            }
        }
    }
}
