//! The contract of a screen module: what a folder under `app/screens/`
//! gives the dispatch in `screens/mod.rs`. The type implementing
//! [`Module`] is what the screen shows (a partition, a topic); the store,
//! the query and the message are its associated types, so the top level
//! never names a screen's data.

use std::any::TypeId;
use std::collections::BTreeMap;
use std::future::Future;
use std::time::{Instant, SystemTime};

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::app::failure::Failure;
use crate::groups::GroupsClient;
use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;
use crate::schema::RegistryClient;

use super::requests::RequestIds;

/// The time a screen ages its data and rows against, read once per
/// `update` or frame.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    /// Monotonic now (the age of an answer).
    pub now: Instant,
    /// Wall-clock now in ms since the epoch (the age of a broker timestamp).
    pub now_ms: i64,
    /// Wall-clock now (how long a broker has been down, against the wall
    /// time it was seen gone).
    pub wall: SystemTime,
}

/// What the session shows, as a plan may need it beyond its own screen:
/// built once per `update` by the dispatch's caller. Most screens read
/// only `now`; the group list's plan reads the window and sort of its own
/// view on top, and, while hidden, which module is on top and further
/// down, and `L`. Modules are named by their shown type's [`TypeId`]
/// ([`Seen::on_top`]), so the contract names no screen enum: a module
/// imports the dispatch's types nowhere.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    /// Monotonic now.
    pub now: Instant,
    /// The rows of the view on top in the window drawn: indices into its
    /// module's store, as `rows` gave them.
    pub window: &'a [usize],
    /// The header of the column the view on top is sorted by.
    pub sorted_by: Option<&'static str>,
    /// The module of the screen on top: its shown type's id.
    pub top: Option<TypeId>,
    /// The modules of the screens below the top, bottom first.
    pub below: &'a [TypeId],
    /// `L` is on: the group list keeps loading while Topics shows, for its
    /// LAG column.
    pub follow_lag: bool,
}

impl Seen<'_> {
    /// Whether the screen on top is one of module `M`'s (`M` its shown
    /// type: `topics::List`).
    pub fn on_top<M: 'static>(&self) -> bool {
        self.top == Some(TypeId::of::<M>())
    }

    /// Whether a screen of module `M` is further down the stack.
    pub fn under<M: 'static>(&self) -> bool {
        self.below.contains(&TypeId::of::<M>())
    }

    /// Nothing seen but the time (tests, a plan outside a session).
    pub fn at(now: Instant) -> Seen<'static> {
        Seen {
            now,
            window: &[],
            sorted_by: None,
            top: None,
            below: &[],
            follow_lag: false,
        }
    }
}

/// A view's rows as [`Module::keep_rows`] keeps them: indices into the
/// store, and the selection and scroll position, which follow the rows
/// that went and came (the selection on the last row stays on the last).
#[derive(Debug)]
pub struct Kept<'a> {
    /// The rows shown.
    pub rows: &'a mut Vec<usize>,
    /// Index into `rows` of the selected row.
    pub selected: &'a mut usize,
    /// Index into `rows` of the first row drawn.
    pub offset: &'a mut usize,
}

/// A screen that Enter on a row opens: the module says where, the top
/// level pushes it. `S` is the module's own shown type ([`Goto::Own`]);
/// the dispatch wraps it into its screen enum ([`Goto::map`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goto<S> {
    /// A consumer group's offsets.
    Group(String),
    /// A topic's Partitions screen, on `partition`'s row if given (an
    /// event about it); nothing but a notice if the topic is gone.
    Partition {
        /// The topic.
        topic: String,
        /// The partition whose row is selected.
        partition: Option<i32>,
    },
    /// A topic's records from the default start, of one partition or all
    /// (a partition's row).
    Messages {
        /// The topic.
        topic: String,
        /// Only this partition.
        partition: Option<i32>,
    },
    /// The Brokers screen on the row of the broker with this id (an event
    /// about it).
    Broker(i32),
    /// Another screen of the same module (a config's detail from the
    /// list, a record from the Messages rows).
    Own(S),
    /// The context of this name: the session switches to it (its Topics
    /// screen opens over the fleet), or opens its own Topics screen if it
    /// is the session's.
    Context(String),
    /// The leader-movement log with its `/` filter set (a broker's
    /// movement: `~\bb2\b`).
    Movements(String),
}

impl<S> Goto<S> {
    /// The same place, the module's own screen made a `T` by `wrap` (the
    /// dispatch's variant of the module).
    pub fn map<T>(self, wrap: impl FnOnce(S) -> T) -> Goto<T> {
        match self {
            Goto::Group(group) => Goto::Group(group),
            Goto::Partition { topic, partition } => Goto::Partition { topic, partition },
            Goto::Messages { topic, partition } => Goto::Messages { topic, partition },
            Goto::Broker(broker) => Goto::Broker(broker),
            Goto::Own(shown) => Goto::Own(wrap(shown)),
            Goto::Context(name) => Goto::Context(name),
            Goto::Movements(filter) => Goto::Movements(filter),
        }
    }
}

/// What a screen's fetch can run against, as the session holds it: the
/// cluster's connection and the context's schema registry.
#[derive(Clone, Default)]
pub struct Reach {
    /// The cluster, once connected.
    pub cluster: Option<Cluster>,
    /// The context's schema registry, or why it could not be set up (none
    /// configured: `None`).
    pub registry: Option<Registry>,
    /// The cluster's consumer-group client (with its request counts and
    /// topic-name cache), once connected.
    pub groups: Option<GroupsClient>,
}

/// The context's schema registry client, or why there is none (its
/// config is unusable: final until the context changes).
pub type Registry = Result<RegistryClient, Failure>;

/// One thing a fetch runs against ([`Module::Source`]), taken from the
/// [`Reach`]; without it the fetch is not started.
pub trait Source: Sized + Send + 'static {
    /// Whether a screen fetching from it asks only while the cluster is
    /// connected (its `plan` is not called otherwise).
    const NEEDS_CLUSTER: bool;

    /// It, if the session has it.
    fn from_reach(reach: &Reach) -> Option<Self>;
}

impl Source for Cluster {
    const NEEDS_CLUSTER: bool = true;

    fn from_reach(reach: &Reach) -> Option<Cluster> {
        reach.cluster.clone()
    }
}

impl Source for GroupsClient {
    const NEEDS_CLUSTER: bool = true;

    fn from_reach(reach: &Reach) -> Option<GroupsClient> {
        reach.groups.clone()
    }
}

/// Nothing: a screen that never fetches (its data arrives by itself) and
/// is shown whether or not the cluster is connected (the fleet).
impl Source for () {
    const NEEDS_CLUSTER: bool = false;

    fn from_reach(_: &Reach) -> Option<()> {
        Some(())
    }
}

impl Source for Registry {
    /// The registry answers without the cluster.
    const NEEDS_CLUSTER: bool = false;

    fn from_reach(reach: &Reach) -> Option<Registry> {
        reach.registry.clone()
    }
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
    /// What its fetch runs against: the [`Cluster`] (most), or the
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
