//! The consumer-group screens: the list (`:groups`, every group with its
//! state, members, lag and lag over time, or those consuming one topic),
//! one group's offsets per partition (Enter, `:group NAME`) and its members
//! (`m`); its commit history (`H`) is a module of its own
//! (`screens::commits`). One store ([`store`]) holds the list, each group's lag over the
//! session and the detail of the group on screen, each with its request
//! bookkeeping; [`plan`] says what is due for what the stack shows and
//! [`receive`] takes the answers, both over the store alone. The row lists
//! and rows are in [`rows`], the column tables in [`columns`] (shared with
//! the CLI), the styled rows in [`draw`], the title's status and the panel
//! above a group's tables in [`panel`].
//!
//! The screens are one module ([`Shown`] says which): its plan reads the
//! list's visible window and sort from [`Seen`], and while hidden it keeps
//! the list loading under Topics with `L` on, or drops it once no group
//! screen is left on the stack ([`Module::plan_hidden`]). The store is what
//! others read as `AppState::screens.groups` (the Topics LAG column, the
//! `:group` completion, the configs and sizes asked for a group's topics);
//! the events an answer derived and its notice wait in it until `update`
//! takes them (`app/groups.rs`).

pub mod columns;
pub mod draw;
mod msg;
pub mod panel;
pub mod plan;
pub mod receive;
pub mod rows;
pub mod store;
mod which;

use std::sync::Arc;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::groups::GroupsClient;
use crate::app::failure::Failure;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module, Seen};
use super::requests::RequestIds;

pub use plan::Query;
pub use msg::Msg;
pub use store::{Around, DEFAULT_INTERVAL, DetailView, GroupsStore, HISTORY_SAMPLES};
pub use which::Which;

/// Rows of the panel above a group's offsets and members: three summary
/// lines and a lag chart.
pub const PANEL: u16 = 8;

/// Which group screen is shown, with what it shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// The list: every group, or those consuming `topic`.
    List {
        /// Only the groups committed to or assigned this topic.
        topic: Option<String>,
    },
    /// One group's offsets and lag, per partition.
    Offsets(String),
    /// One group's members and their assignments.
    Members(String),
}

impl Shown {
    /// The same, borrowed (what the rows and drawing take).
    pub fn which(&self) -> Which<'_> {
        match self {
            Shown::List { topic } => Which::List {
                topic: topic.as_deref(),
            },
            Shown::Offsets(group) => Which::Offsets(group),
            Shown::Members(group) => Which::Members(group),
        }
    }

    /// The group whose detail is shown, if one.
    pub fn group(&self) -> Option<&str> {
        match self {
            Shown::List { .. } => None,
            Shown::Offsets(group) | Shown::Members(group) => Some(group),
        }
    }
}

impl Msg {
    /// Rows of a big list it brings (a whole groups list, a relisting of
    /// every group), which are garbage once taken.
    pub fn carried_rows(&self) -> usize {
        match self {
            Msg::List {
                result: Ok(overview),
                ..
            } => overview.groups.len(),
            Msg::Rows {
                result: Ok(relisted),
                ..
            } => relisted.list.groups.len() + relisted.rows.len(),
            _ => 0,
        }
    }
}

/// Whether a table sorted by the column headed `header` is sorted by lag
/// (LAG or LAG OVER TIME).
pub fn by_lag(header: Option<&str>) -> bool {
    header.is_some_and(|h| h.starts_with("LAG"))
}

impl Module for Shown {
    type Store = GroupsStore;
    type Query = Query;
    type Msg = Msg;
    type Source = GroupsClient;
    const PANEL_ROWS: u16 = PANEL;
    const DRILLABLE: bool = true;

    fn panel_rows(&self) -> u16 {
        match self {
            Shown::List { .. } => 0,
            Shown::Offsets(_) | Shown::Members(_) => PANEL,
        }
    }

    fn drillable(&self) -> bool {
        !matches!(self, Shown::Members(_))
    }

    fn title(&self) -> String {
        self.which().title()
    }

    fn headers(&self) -> Vec<&'static str> {
        self.which().headers()
    }

    fn plan(&self, store: &mut GroupsStore, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let showing = match self {
            Shown::List { .. } => plan::Showing::List {
                window: seen.window,
                by_lag: by_lag(seen.sorted_by),
            },
            Shown::Offsets(group) | Shown::Members(group) => plan::Showing::Detail(group),
        };
        plan::plan(store, ids, showing, seen.now)
    }

    fn plan_hidden(store: &mut GroupsStore, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        // `L` on Topics: the LAG column's groups keep loading there.
        let showing = if seen.follow_lag && seen.on_top::<super::topics::List>() {
            plan::Showing::LagOnTopics
        } else {
            plan::Showing::Elsewhere {
                kept: seen.under::<Shown>(),
            }
        };
        plan::plan(store, ids, showing, seen.now)
    }

    fn lane(query: &Query) -> u8 {
        // The list, the visible rows and a group's detail are read side
        // by side (a detail asked does not cancel the list in flight).
        match query {
            Query::List { .. } => 0,
            Query::Rows { .. } => 1,
            Query::Detail { .. } => 2,
        }
    }

    fn receive(store: &mut GroupsStore, msg: Msg, clock: Clock) {
        receive::take(store, msg, (clock.now, clock.wall));
    }

    fn take_notice(store: &mut GroupsStore) -> Option<String> {
        store.notice.take()
    }

    /// A new context keeps the list's settings (interval, what is
    /// hidden, the group type), not its data.
    fn carry(old: &mut GroupsStore) -> GroupsStore {
        let mut store = std::mem::take(old);
        store.reset();
        store
    }

    fn expire(store: &mut GroupsStore) {
        store.expire();
    }

    fn answers(store: &GroupsStore) -> u64 {
        store.answers
    }

    fn rows(&self, store: &GroupsStore, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        rows::build(store, self.which(), keep)
    }

    fn sort(&self, store: &GroupsStore, clock: Clock, column: usize, rows: &mut Vec<usize>) {
        let around = store.around(clock.now_ms);
        rows::sort(store, &around, self.which(), column, rows);
    }

    fn visible(
        &self,
        store: &GroupsStore,
        (clock, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        let around = store.around(clock.now_ms);
        draw::visible(store, (self.which(), &around), window, theme)
    }

    fn status(&self, store: &GroupsStore, now: Instant) -> String {
        match self {
            Shown::List { .. } => panel::list_status(store, now),
            Shown::Offsets(_) | Shown::Members(_) => String::new(),
        }
    }

    fn identity(&self, store: &GroupsStore, index: usize) -> Option<String> {
        rows::identity(store, self.which(), index)
    }

    fn enter(&self, store: &mut GroupsStore, index: usize) -> Option<Goto<Self>> {
        match self {
            Shown::List { .. } => store.group_name(index).map(Goto::Group),
            // A partition's row: its topic's partitions.
            Shown::Offsets(group) => {
                let p = store.detail(group)?.lag.partitions.get(index)?;
                Some(Goto::Partition {
                    topic: p.topic.to_string(),
                    partition: Some(p.partition),
                })
            }
            Shown::Members(_) => None,
        }
    }

    fn draw_panel(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &GroupsStore,
        look: (Clock, &Theme),
    ) {
        if let Some(group) = self.group() {
            panel::draw_panel(frame, area, (store, group), look);
        }
    }

    async fn fetch(client: GroupsClient, query: Query) -> Msg {
        match query {
            Query::List { request } => {
                let result = client
                    .overview()
                    .await
                    .map(Arc::new)
                    .map_err(Failure::from);
                Msg::List { request, result }
            }
            Query::Rows {
                request,
                groups,
                topics,
            } => {
                let result = client
                    .relist(groups, &topics)
                    .await
                    .map_err(Failure::from);
                Msg::Rows { request, result }
            }
            Query::Detail { request, group } => {
                let result = client
                    .group_detail(&group)
                    .await
                    .map(Arc::new)
                    .map_err(Failure::from);
                Msg::Detail { request, result }
            }
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod loss_tests;
