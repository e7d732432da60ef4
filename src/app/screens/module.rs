//! The contract of a screen module: what a folder under `app/screens/`
//! gives the dispatch in `screens/mod.rs`. The type implementing
//! [`Module`] is what the screen shows (a partition, a topic); the store,
//! the query and the message are its associated types, so the top level
//! never names a screen's data. What a module is given and gives back
//! beside its store stands in `seen.rs`, `goto.rs` and `source.rs`.

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::requests::RequestIds;

pub use super::goto::Goto;
pub use super::seen::{Clock, Kept, Seen};
pub use super::source::{Reach, Registry, Source};

/// One screen: implemented by the value that says what it shows.
pub trait Module: Sized {
    /// The screen's cluster-scoped data with its request bookkeeping;
    /// replaced by a fresh one on `:ctx`.
    type Store: Default + std::fmt::Debug;
    /// What the worker is asked to fetch, with its request id.
    type Query: std::fmt::Debug + Clone + PartialEq + Eq + Send + 'static;
    /// What reaches the store: the worker's answer to a query.
    type Msg: std::fmt::Debug + Clone + Send + 'static;
    /// What its fetch runs against: the [`Cluster`](crate::meta::Cluster) (most), or the
    /// [`Registry`].
    type Source: Source;
    /// Terminal rows of the panel drawn above the table (0: none).
    const PANEL_ROWS: u16 = 0;
    /// Whether Enter opens something from a row (see [`Module::enter`]).
    const DRILLABLE: bool = false;
    /// Whether the list opens sorted last first (a log: newest on top).
    const DESCENDING: bool = false;
    /// The column the list opens sorted by (the fleet: its health).
    const SORT_COLUMN: usize = 0;

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

    /// Whether the rows can be sorted by a column (records keep the order
    /// they arrived in: the header shows no arrow); yes by default.
    fn sortable(&self) -> bool {
        true
    }

    /// The title above the table, names as the cluster gave them
    /// (the dispatch's `Screen::title` escapes them).
    fn title(&self) -> String;

    /// The headers of the column table; sorting indexes these.
    fn headers(&self) -> Vec<&'static str>;

    /// The query due for what is shown, on top of the stack, if any
    /// (called only while connected when the source is the cluster, see
    /// [`Source::NEEDS_CLUSTER`]; request ids come from `ids`; `seen` says
    /// when, and what the view shows of the rows).
    fn plan(
        &self,
        store: &mut Self::Store,
        ids: &mut RequestIds,
        seen: &Seen,
    ) -> Option<Self::Query>;

    /// The query due while none of the module's screens is on top, if
    /// any: called on every `update` (only while connected when the source
    /// is the cluster) for a store that others read (the group list under
    /// Topics' LAG) or that lets go of what nothing shows any more.
    /// Nothing by default.
    fn plan_hidden(
        store: &mut Self::Store,
        ids: &mut RequestIds,
        seen: &Seen,
    ) -> Option<Self::Query> {
        let _ = (store, ids, seen);
        None
    }

    /// Which of the module's fetches `query` replaces when the worker
    /// starts it: queries of one lane run one at a time (the newer
    /// cancels the older), of different lanes side by side. One lane by
    /// default.
    fn lane(query: &Self::Query) -> u8 {
        let _ = query;
        0
    }

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

    /// The store the next context's session starts with (`:ctx`), made
    /// from the old one: a fresh store by default, the data being the
    /// cluster's; one that keeps settings across contexts (the groups
    /// list's interval and narrowing) or holds the session's own data (the
    /// fleet) takes them over.
    fn carry(old: &mut Self::Store) -> Self::Store {
        let _ = old;
        Self::Store::default()
    }

    /// How many answers the store took: the rows are rebuilt when it moves.
    fn answers(store: &Self::Store) -> u64;

    /// Keep the view's rows in step with the store, instead of having them
    /// rebuilt by [`Module::rows`] whenever [`Module::answers`] moves: a
    /// screen whose data grows by the batch (Messages: a row per record
    /// that passed the filter, appended as records arrive, a row whose
    /// record left the ring dropped from the front) checks each new item
    /// once rather than every item on every batch. Says whether it did;
    /// no by default (the rows are rebuilt).
    fn keep_rows(&self, store: &mut Self::Store, kept: Kept<'_>) -> bool {
        let _ = (store, kept);
        false
    }

    /// The row list: indices into the store of the rows `keep` lets through
    /// (it is given each row's filter text), in source order.
    fn rows(&self, store: &Self::Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize>;

    /// Sort `rows` by `column` of the table.
    fn sort(&self, store: &Self::Store, clock: Clock, column: usize, rows: &mut Vec<usize>);

    /// What the title counts among `rows` (those the filter let through),
    /// by name: made in `update` when the rows are rebuilt, kept in the
    /// view for the title (the leader-movement log counts each kind of
    /// event). Nothing by default.
    fn counts(&self, store: &Self::Store, rows: &[usize]) -> BTreeMap<&'static str, usize> {
        let _ = (store, rows);
        BTreeMap::new()
    }

    /// Whether the rows show durations that grow by the second ("DOWN
    /// 3m04s"), so the clock alone changes the frame. Yes by default: a
    /// screen that says no is redrawn only when its data changes (or a
    /// recent-move highlight fades).
    fn counts_seconds(&self, store: &Self::Store) -> bool {
        let _ = store;
        true
    }

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

    /// What the title says last, after the count of columns the terminal
    /// could not fit (a narrow terminal cuts it first: what a column waits
    /// for); nothing by default.
    fn title_end(&self, store: &Self::Store) -> String {
        let _ = store;
        String::new()
    }

    /// What identifies row `index` when rows are rebuilt from a new answer,
    /// so the selection follows it; nothing (it stays at its position) by
    /// default.
    fn identity(&self, store: &Self::Store, index: usize) -> Option<String> {
        let _ = (store, index);
        None
    }

    /// What Enter on row `index` (into the store, as `rows` gave it) opens,
    /// if anything (the store may prepare what it opens: a schema's text
    /// laid out); nothing by default.
    fn enter(&self, store: &mut Self::Store, index: usize) -> Option<Goto<Self>> {
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

    /// Whether what is shown is text scrolled line by line (a schema's
    /// text) instead of a table: no column header, no rows to select, and
    /// [`Module::text_lines`] and [`Module::draw_text`] instead of the
    /// table's methods. Not by default.
    fn is_text(&self) -> bool {
        false
    }

    /// Lines of the text shown (the scroll range).
    fn text_lines(&self, store: &Self::Store) -> usize {
        let _ = store;
        0
    }

    /// Draw the text into `area` from line `offset` (the scroll position)
    /// under `title` (the screen's, escaped).
    fn draw_text(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &Self::Store,
        (offset, title): (usize, &str),
        theme: &Theme,
    ) {
        let _ = (frame, area, store, offset, title, theme);
    }

    /// Carry out `query` against `source`, off the loop (the worker runs it
    /// and sends the message back).
    fn fetch(source: Self::Source, query: Self::Query) -> impl Future<Output = Self::Msg> + Send;
}
