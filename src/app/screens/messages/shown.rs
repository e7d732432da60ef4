//! The Messages module's line of the `screens!` list: what it shows (a
//! topic's records, or one record open), what reaches its store (a browse
//! session's batch), and `impl Module`.
//!
//! It fetches nothing through the dispatch's queries: a browse session is
//! a stream the worker keeps running ([`super::effect::Effect::Browse`],
//! started by the navigation that opens the screen), and its batches reach
//! the store as [`Msg::Browsed`]. Its rows are not rebuilt from answers:
//! [`Module::keep_rows`] keeps them in step with the ring.

use std::convert::Infallible;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::anonymize::{Kind, name};
use crate::browse::Record;

use super::detail::Detail;
use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::MessagesStore;
use crate::app::screens::module::{Clock, Goto, Kept, Module, Seen};
use crate::app::screens::requests::RequestIds;

/// What the Messages module shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// A topic's records (one partition, or all merged by timestamp),
    /// following.
    Records {
        /// The topic.
        topic: String,
        /// Only this partition.
        partition: Option<i32>,
    },
    /// One record in detail.
    Record {
        /// Its topic.
        topic: String,
        /// Its partition.
        partition: i32,
        /// Its offset.
        offset: i64,
    },
}

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// What a browse session read since it last reported.
    Browsed {
        /// The session (`effect::Effect::Browse`'s id).
        session: u64,
        /// The records, oldest first.
        records: Vec<Record>,
        /// Records the session dropped in all because the UI had not taken
        /// them yet (its own bounded ring).
        dropped: u64,
        /// Notices (out of range, open transaction, a bad batch …).
        notices: Vec<String>,
        /// The session ended with this error.
        failed: Option<String>,
    },
}

impl MessagesStore {
    /// Whether `shown` is this store's session's records, running.
    pub fn shows(&self, shown: &Shown) -> bool {
        matches!(shown, Shown::Records { topic, partition }
            if *topic == self.topic && *partition == self.partition && self.live)
    }

    /// Lay `record` (of the session's topic) out for the detail screen:
    /// the screen that shows it.
    pub fn open(&mut self, record: Record) -> Shown {
        let shown = Shown::Record {
            topic: self.topic.clone(),
            partition: record.partition,
            offset: record.offset,
        };
        self.lay_out(record);
        shown
    }

    /// Lay `record` out as the detail screen shows it, under the store's
    /// format, time zone and schemas (again when one of them changed).
    pub fn lay_out(&mut self, record: Record) {
        let view = (self.format, self.utc_offset);
        self.detail = Some(Detail::new(record, &self.topic, view, &self.schemas));
    }
}

impl Module for Shown {
    type Store = MessagesStore;
    type Query = Infallible;
    type Msg = Msg;
    type Source = Cluster;

    fn drillable(&self) -> bool {
        matches!(self, Shown::Records { .. })
    }

    fn sortable(&self) -> bool {
        false
    }

    fn title(&self) -> String {
        match self {
            Shown::Records {
                topic,
                partition: None,
            } => format!("messages of '{}'", name(Kind::Topic, topic)),
            Shown::Records {
                topic,
                partition: Some(p),
            } => format!("messages of '{}' partition {p}", name(Kind::Topic, topic)),
            Shown::Record {
                topic,
                partition,
                offset,
            } => format!(
                "record '{}' partition {partition} offset {offset}",
                name(Kind::Topic, topic)
            ),
        }
    }

    fn headers(&self) -> Vec<&'static str> {
        match self {
            Shown::Records { .. } => crate::columns::headers(&crate::columns::messages::table()),
            Shown::Record { .. } => vec![""],
        }
    }

    /// Nothing: the session streams by itself once the navigation started
    /// it.
    fn plan(&self, _: &mut MessagesStore, _: &mut RequestIds, _: &Seen) -> Option<Infallible> {
        None
    }

    fn receive(store: &mut MessagesStore, msg: Msg, _: Clock) {
        match msg {
            Msg::Browsed {
                session,
                records,
                dropped,
                notices,
                failed,
            } => store.take_batch(session, &records, dropped, notices, failed),
        }
    }

    fn take_notice(store: &mut MessagesStore) -> Option<String> {
        store.notice.take()
    }

    /// Nothing to ask again: the session follows the topic.
    fn expire(_: &mut MessagesStore) {}

    /// The store keeps a copy of the decoding settings across contexts
    /// (the local time zone, the ring's bounds, the topic mappings); the
    /// records and schemas are the cluster's.
    fn carry(old: &mut MessagesStore) -> MessagesStore {
        let mut schemas = std::mem::take(&mut old.schemas);
        schemas.reset();
        MessagesStore {
            utc_offset: old.utc_offset,
            bounds: old.bounds,
            schemas,
            ..MessagesStore::default()
        }
    }

    /// Not counted: the rows are kept by [`Module::keep_rows`], so a batch
    /// does not make every other screen's rows rebuild.
    fn answers(_: &MessagesStore) -> u64 {
        0
    }

    /// Every record in the ring that passes the store's record filter (the
    /// `/` text of this screen is parsed into it, not into `keep`'s).
    fn rows(&self, store: &MessagesStore, _: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        match self {
            Shown::Records { .. } => store.passing(store.first_seq()..store.end_seq()).collect(),
            Shown::Record { .. } => Vec::new(),
        }
    }

    /// Records keep the order they arrived in.
    fn sort(&self, _: &MessagesStore, _: Clock, _: usize, _: &mut Vec<usize>) {}

    fn keep_rows(&self, store: &mut MessagesStore, kept: Kept<'_>) -> bool {
        if !matches!(self, Shown::Records { .. }) {
            return false;
        }
        if store.shows(self) {
            store.follow(kept);
        }
        true
    }

    /// The record of the row, laid out for the detail screen.
    fn enter(&self, store: &mut MessagesStore, seq: usize) -> Option<Goto<Self>> {
        if !matches!(self, Shown::Records { .. }) {
            return None;
        }
        let record = store.record(seq)?.clone();
        Some(Goto::Own(store.open(record)))
    }

    fn visible(
        &self,
        store: &MessagesStore,
        (_, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        super::draw::visible(store, theme, window)
    }

    fn status(&self, store: &MessagesStore, _: Instant) -> String {
        match self {
            Shown::Records { .. } => format!(" · {}", super::draw::status(store)),
            Shown::Record { .. } => String::new(),
        }
    }

    fn is_text(&self) -> bool {
        matches!(self, Shown::Record { .. })
    }

    fn text_lines(&self, store: &MessagesStore) -> usize {
        store.detail.as_ref().map_or(0, |d| d.lines.len())
    }

    fn draw_text(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &MessagesStore,
        view: (usize, &str),
        theme: &Theme,
    ) {
        super::draw::record(frame, area, store, view, theme);
    }

    async fn fetch(_: Cluster, query: Infallible) -> Msg {
        match query {}
    }
}
