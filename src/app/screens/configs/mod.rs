//! The config screens (`C` on Topics, Partitions or Brokers, `:config`):
//! a resource's configs, and one config's documentation and synonym chain
//! (Enter on a config) — one module showing [`Config`], which says which.
//!
//! Its store is also where the Topics, Partitions and Group screens (not
//! modules yet) keep the few configs they show of their visible topics
//! (cleanup policy, retention, min ISR): `app::configs` asks for those
//! through [`Store::ask`] while no config screen shows, so one
//! `DescribeConfigs` is in flight at a time for both and an answer for a
//! topic serves both. That batched request over many resources, with a
//! retry pause after a failure and up to [`KEPT`] resources kept, is why
//! this store keeps its own bookkeeping instead of `requests::Requests`
//! (one thing at a time). Answers are kept with their age and shown while
//! the next one is awaited. The column tables are in [`columns`], the
//! drawing in `draw.rs`.

pub mod columns;
mod draw;
mod store;


use std::sync::Arc;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::app::failure::Failure;
use crate::inspect::ConfigResource;
use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module, Seen};
use super::requests::RequestIds;
use columns::{shown_value, source_label};

pub use store::{Answer, Held, INTERVAL, KEPT, Query, RETRY, SUMMARY_INTERVAL, Store};

/// What a config screen shows: the configs of `of`, or one of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Whose configs.
    pub of: ConfigResource,
    /// The one config shown in detail (its synonym chain), if any.
    pub name: Option<String>,
}

impl Config {
    /// The configs of `of`.
    pub fn list(of: ConfigResource) -> Config {
        Config { of, name: None }
    }

    /// Config `name` of `of`: its documentation and synonym chain.
    pub fn entry(of: ConfigResource, name: String) -> Config {
        Config {
            of,
            name: Some(name),
        }
    }
}

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The answer to the [`Query`] with this request id.
    Answer {
        /// The request id it answers.
        request: u64,
        /// Per resource its configs, or why the whole request failed.
        result: Result<Vec<Answer>, Failure>,
    },
}

impl Config {
    /// Config `index` of the list as a table row.
    fn row<'a>(&self, store: &'a Store, index: usize) -> Option<columns::Row<'a>> {
        let entry = store.entries(&self.of)?.get(index)?;
        Some(columns::Row { entry })
    }

    /// Synonym `index` of config `name` as a table row.
    fn synonym<'a>(
        &self,
        store: &'a Store,
        name: &str,
        index: usize,
    ) -> Option<columns::SynonymRow<'a>> {
        let entry = store.entry(&self.of, name)?;
        Some(columns::SynonymRow {
            synonym: entry.synonyms.get(index)?,
            sensitive: entry.sensitive,
        })
    }
}

impl Module for Config {
    type Store = Store;
    type Query = Query;
    type Msg = Msg;
    type Source = Cluster;

    fn panel_rows(&self) -> u16 {
        if self.name.is_some() {
            draw::PANEL_ROWS
        } else {
            0
        }
    }

    /// The list opens a config; the synonym chain opens nothing.
    fn drillable(&self) -> bool {
        self.name.is_none()
    }

    fn title(&self) -> String {
        match &self.name {
            None => format!("configs of {}", self.of),
            Some(name) => format!("config '{name}' of {}", self.of),
        }
    }

    fn headers(&self) -> Vec<&'static str> {
        match self.name {
            None => crate::columns::headers(&columns::table()),
            Some(_) => crate::columns::headers(&columns::synonym_table()),
        }
    }

    /// The resource on screen, when due (it also marks it as the one whose
    /// whole configs are kept).
    fn plan(&self, store: &mut Store, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let now = seen.now;
        store.shown = Some(self.of.clone());
        if !store.due(&self.of, now) {
            return None;
        }
        store.ask(ids, vec![self.of.clone()], now)
    }

    fn receive(store: &mut Store, msg: Msg, clock: Clock) {
        let Msg::Answer { request, result } = msg;
        store.receive(request, result, clock.now);
    }

    fn take_notice(store: &mut Store) -> Option<String> {
        store.notice.take()
    }

    fn expire(store: &mut Store) {
        store.expire();
    }

    fn answers(store: &Store) -> u64 {
        store.answers
    }

    /// The configs (or the synonyms), filtered on name, shown value and
    /// source.
    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        match &self.name {
            None => store.entries(&self.of).map_or_else(Vec::new, |entries| {
                entries
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| {
                        keep(&format!(
                            "{} {} {}",
                            e.name,
                            shown_value(e.sensitive, e.value.as_deref()),
                            source_label(e.source)
                        ))
                    })
                    .map(|(i, _)| i)
                    .collect()
            }),
            Some(name) => store.entry(&self.of, name).map_or_else(Vec::new, |e| {
                e.synonyms
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| {
                        keep(&format!(
                            "{} {} {}",
                            s.name,
                            shown_value(e.sensitive, s.value.as_deref()),
                            source_label(s.source)
                        ))
                    })
                    .map(|(i, _)| i)
                    .collect()
            }),
        }
    }

    fn sort(&self, store: &Store, _: Clock, column: usize, rows: &mut Vec<usize>) {
        // The synonym chain keeps its order of precedence.
        if self.name.is_none() {
            crate::columns::sort_indices(rows, columns::table().get(column), |i| {
                self.row(store, i)
            });
        }
    }

    fn visible(
        &self,
        store: &Store,
        (_, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        match &self.name {
            None => draw::visible(window.filter_map(|i| self.row(store, i)), theme),
            Some(name) => draw::synonyms(window.filter_map(|i| self.synonym(store, name, i))),
        }
    }

    fn status(&self, store: &Store, now: Instant) -> String {
        draw::status(store.held.get(&self.of), self.name.is_none(), now)
    }

    /// The config's name, or the synonym's.
    fn identity(&self, store: &Store, index: usize) -> Option<String> {
        match &self.name {
            None => store.entries(&self.of)?.get(index).map(|e| e.name.clone()),
            Some(name) => store
                .entry(&self.of, name)?
                .synonyms
                .get(index)
                .map(|s| format!("{} {}", s.source.name(), s.name)),
        }
    }

    /// A config of the list: its documentation and synonym chain.
    fn enter(&self, store: &mut Store, index: usize) -> Option<Goto<Self>> {
        if self.name.is_some() {
            return None;
        }
        let name = store.entries(&self.of)?.get(index)?.name.clone();
        let entry = Config::entry(self.of.clone(), name);
        Some(Goto::Own(entry))
    }

    fn draw_panel(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &Store,
        (_, theme): (Clock, &Theme),
    ) {
        if let Some(name) = &self.name {
            draw::panel(frame, area, store.entry(&self.of, name), name, theme);
        }
    }

    async fn fetch(cluster: Cluster, query: Query) -> Msg {
        let Query { request, resources } = query;
        let result = crate::inspect::configs::describe(&cluster, &resources)
            .await
            .map(|described| {
                described
                    .into_iter()
                    .map(|(resource, entries)| {
                        (resource, entries.map(Arc::new).map_err(Failure::from))
                    })
                    .collect()
            })
            .map_err(Failure::from);
        Msg::Answer { request, result }
    }
}
