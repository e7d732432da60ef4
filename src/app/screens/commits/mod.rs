//! The commit history of one group (`H` on its offsets): its most recent
//! records in `__consumer_offsets` — offset commits (time, topic partition,
//! offset, leader epoch, metadata, expiry) and the group's metadata
//! (generation, protocol, leader, members) — newest first, read from the
//! one partition its coordinator writes to ([`read`]), off the loop, again
//! every [`INTERVAL`] while shown. The panel says what was read, that the
//! group has no record there, or why `__consumer_offsets` could not be read.

pub mod columns;
mod draw;
mod store;
pub mod read;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Module, Seen};
use super::requests::RequestIds;

pub use read::{Entry, History, Kind};
pub use store::{Answer, Store};

/// How often the history is read again while shown (`r` reads it now):
/// a read of a quiet group can scan [`read::SCAN_BUDGET`] offsets of a
/// production cluster's busiest internal topic, so not often.
pub const INTERVAL: Duration = Duration::from_mins(5);
/// A read older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_mins(2);

/// The group whose commit history is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Its name.
    pub group: String,
}

/// A request for the worker: read the group's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Request id.
    pub request: u64,
    /// The group.
    pub group: String,
}

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The answer to the [`Query`] with this request id.
    Answer {
        /// The request id it answers.
        request: u64,
        /// The history, or why it could not be read.
        answer: Arc<Answer>,
    },
}

impl Group {
    /// The answer held for this group, if any.
    fn answer<'a>(&self, store: &'a Store) -> Option<&'a Answer> {
        store.held_for(&self.group)
    }

    /// The records held for this group (none before an answer or after a
    /// failure).
    fn entries<'a>(&self, store: &'a Store) -> &'a [Entry] {
        self.answer(store)
            .and_then(|a| a.as_ref().ok())
            .map_or(&[], |h| h.entries.as_slice())
    }
}

impl Module for Group {
    type Store = Store;
    type Query = Query;
    type Msg = Msg;
    type Source = Cluster;
    const PANEL_ROWS: u16 = 2;
    /// Newest first, as read.
    const DESCENDING: bool = true;

    fn title(&self) -> String {
        format!("commit history of group '{}'", crate::anonymize::name(crate::anonymize::Kind::Group, &self.group))
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    fn plan(&self, store: &mut Store, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let now = seen.now;
        let request = store.ask(ids, &self.group, now, (INTERVAL, GIVE_UP))?;
        Some(Query {
            request,
            group: self.group.clone(),
        })
    }

    fn receive(store: &mut Store, msg: Msg, clock: Clock) {
        match msg {
            Msg::Answer { request, answer } => {
                store.receive(request, answer, clock.now);
            }
        }
    }

    fn expire(store: &mut Store) {
        store.expire();
    }

    fn answers(store: &Store) -> u64 {
        store.answers
    }

    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        self.entries(store)
            .iter()
            .enumerate()
            .filter(|(_, e)| keep(&draw::filter_text(e)))
            .map(|(i, _)| i)
            .collect()
    }

    fn sort(&self, store: &Store, _clock: Clock, column: usize, rows: &mut Vec<usize>) {
        let entries = self.entries(store);
        crate::columns::sort_indices(rows, columns::table().get(column), |i| entries.get(i));
    }

    fn counts_seconds(&self, _store: &Store) -> bool {
        false
    }

    fn visible(
        &self,
        store: &Store,
        (_clock, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        let entries = self.entries(store);
        draw::visible(window.filter_map(|i| entries.get(i)), theme)
    }

    fn status(&self, store: &Store, now: Instant) -> String {
        draw::status(store.at, now)
    }

    fn identity(&self, store: &Store, index: usize) -> Option<String> {
        self.entries(store).get(index).map(|e| e.offset.to_string())
    }

    fn draw_panel(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &Store,
        (_clock, theme): (Clock, &Theme),
    ) {
        draw::panel(frame, area, (&self.group, self.answer(store)), theme);
    }

    async fn fetch(cluster: Cluster, query: Query) -> Msg {
        let answer = Arc::new(read::history(&cluster, &query.group).await);
        Msg::Answer {
            request: query.request,
            answer,
        }
    }
}

#[cfg(test)]
mod tests;
