//! The contract of a screen module: what a folder under `app/screens/`
//! gives the dispatch in `screens/mod.rs`. The type implementing
//! [`Module`] is what the screen shows (a partition, a topic); the store,
//! the query and the message are its associated types, so the top level
//! never names a screen's data.

use std::future::Future;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::meta::Cluster;
use crate::ui::grid::Grid;
use crate::ui::theme::Theme;

use super::requests::RequestIds;

/// The time a screen ages its data and rows against, read once per
/// `update` or frame.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    /// Monotonic now (the age of an answer).
    pub now: Instant,
    /// Wall-clock now in ms since the epoch (the age of a broker timestamp).
    pub now_ms: i64,
}

/// A screen outside the module that Enter on a row opens: the module says
/// where, the top level pushes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goto {
    /// A consumer group's offsets.
    Group(String),
    /// Another screen of a module (a config's detail from the list).
    Screen(super::Screen),
}

/// One screen: implemented by the value that says what it shows.
pub trait Module: Sized {
    /// The screen's cluster-scoped data with its request bookkeeping;
    /// replaced by a fresh one on `:ctx`.
    type Store: Default + std::fmt::Debug;
    /// What the worker is asked to fetch, with its request id.
    type Query: std::fmt::Debug + Clone + PartialEq + Eq + Send + 'static;
    /// What reaches the store: the worker's answer to a query.
    type Msg: std::fmt::Debug + Clone + Send + 'static;
    /// Terminal rows of the panel drawn above the table (0: none).
    const PANEL_ROWS: u16 = 0;
    /// Whether Enter opens something from a row (see [`Module::enter`]).
    const DRILLABLE: bool = false;

    /// The panel's rows for what is shown, where one module shows two
    /// screens (a list and a detail); [`Module::PANEL_ROWS`] by default.
    fn panel_rows(&self) -> u16 {
        Self::PANEL_ROWS
    }

    /// Whether Enter opens something from a row of what is shown;
    /// [`Module::DRILLABLE`] by default.
    fn drillable(&self) -> bool {
        Self::DRILLABLE
    }

    /// The title above the table, names as the cluster gave them
    /// (`app::Screen::title` escapes them).
    fn title(&self) -> String;

    /// The headers of the column table; sorting indexes these.
    fn headers(&self) -> Vec<&'static str>;

    /// The query due for what is shown, if any (connected only; request
    /// ids come from `ids`).
    fn plan(
        &self,
        store: &mut Self::Store,
        ids: &mut RequestIds,
        now: Instant,
    ) -> Option<Self::Query>;

    /// Take a message that landed at `clock` (a stale answer is dropped).
    fn receive(store: &mut Self::Store, msg: Self::Msg, clock: Clock);

    /// What the status line should say after [`Module::receive`] (a
    /// failure), taken once; nothing by default.
    fn take_notice(store: &mut Self::Store) -> Option<String> {
        let _ = store;
        None
    }

    /// Ask again at the next chance (the `r` key).
    fn expire(store: &mut Self::Store);

    /// How many answers the store took: the rows are rebuilt when it moves.
    fn answers(store: &Self::Store) -> u64;

    /// The row list: indices into the store of the rows `keep` lets through
    /// (it is given each row's filter text), in source order.
    fn rows(&self, store: &Self::Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize>;

    /// Sort `rows` by `column` of the table.
    fn sort(&self, store: &Self::Store, clock: Clock, column: usize, rows: &mut Vec<usize>);

    /// The visible part of the table: the rows of `window`, styled.
    fn visible(
        &self,
        store: &Self::Store,
        look: (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid;

    /// What the title adds after the filter (the data's age); empty for
    /// nothing.
    fn status(&self, store: &Self::Store, now: Instant) -> String;

    /// What identifies row `index` when rows are rebuilt from a new answer,
    /// so the selection follows it; nothing (it stays at its position) by
    /// default.
    fn identity(&self, store: &Self::Store, index: usize) -> Option<String> {
        let _ = (store, index);
        None
    }

    /// What Enter on row `index` (into the store, as `rows` gave it) opens,
    /// if anything; nothing by default.
    fn enter(&self, store: &Self::Store, index: usize) -> Option<Goto> {
        let _ = (store, index);
        None
    }

    /// Draw the panel above the table into `area` ([`Module::PANEL_ROWS`]
    /// tall); nothing by default.
    fn draw_panel(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &Self::Store,
        look: (Clock, &Theme),
    ) {
        let _ = (frame, area, store, look);
    }

    /// Carry out `query` against the cluster, off the loop (the worker
    /// runs it and sends the message back).
    fn fetch(cluster: Cluster, query: Self::Query) -> impl Future<Output = Self::Msg> + Send;
}
