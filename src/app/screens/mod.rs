//! Screens that are self-contained modules (nested Elm, DESIGN.md "The
//! UI"), and the one dispatch mapping each to its module. The top level
//! only wraps: a view's screen is a [`Screen`], `Action::Screen`
//! a [`Msg`], `Effect::Query` a [`Query`], `AppState::screens` the
//! [`Stores`] (replaced whole on `:ctx`), and the worker runs [`fetch`].
//!
//! # Adding a screen
//!
//! 1. Make a folder `app/screens/NAME/` with
//!    - `mod.rs`: the type saying what the screen shows (say `Shown`), its
//!      store (with [`requests::Requests`] for the request bookkeeping),
//!      its query and answer types (what failed as a
//!      [`Failure`](super::failure::Failure), made in `fetch` from the
//!      lower layer's typed error, never a `String`), its message, and
//!      `impl Module for Shown` ([`Module`]: title, headers, `plan`/`receive` over the
//!      store, rows, sort, `fetch`; `PANEL_ROWS` and `draw_panel` for a
//!      panel; `DRILLABLE` and `enter` returning a [`Goto`] when Enter
//!      opens something);
//!    - more files for the screen's own logic if `mod.rs` grows past a
//!      screenful (`topic_clients/flatten.rs`);
//!    - `store.rs` once `draw.rs` needs the store's or the answer's type:
//!      the data types a drawing reads live in a file that imports
//!      neither `mod.rs` nor `draw.rs` (`mod.rs` re-exports them), so that
//!      `mod.rs` → `draw.rs` → `store.rs` has no way back;
//!    - `columns.rs`: the column table (the CLI may import it from here);
//!    - `draw.rs`: the visible rows, the title's status, the panel if any.
//!
//!    No file of a module imports this file (the dispatch) or another
//!    module that imports it back: `scripts/import-cycles --count` stays 0.
//!
//!    Two screens over one store (a list and the detail of one of its
//!    rows) are one module whose shown type says which (`configs::Config`
//!    with `name: Option<String>`, `security::Listing`): `panel_rows` and
//!    `drillable` then answer per value instead of the constants, and
//!    `enter` opens the detail with [`Goto::Own`]. A screen whose rows
//!    are rebuilt from answers gives each row's `identity` so the selection
//!    follows it; one that reports a failure in the status line leaves it
//!    in its store for `take_notice`. A store other screens read too (the
//!    config summaries in the configs store, the group list) stays the
//!    module's; code outside the modules (the sizes and configs planners,
//!    the `:group` completion) reaches it as `AppState::screens.NAME`, and
//!    a module that shows it gets a copy as its own `Msg` (below).
//!
//!    `plan` is given a [`Seen`], built once per `update` by its caller:
//!    `now`, and what the view on top shows (the rows in the window drawn,
//!    the header it is sorted by: the groups list asks for its visible
//!    rows, and for every group's lag when sorted by LAG); most screens
//!    read only `now`. A store that others read while its screens are not
//!    on top, or that lets go of what nothing shows, also gives
//!    `plan_hidden`, called for every module not on top with the same
//!    [`Seen`] (which modules are on top and further down, `L`: the group
//!    list keeps loading under Topics' LAG, `seen.on_top::<topics::List>()`,
//!    and is dropped once no group screen is on the stack). A module never
//!    names this file's [`Screen`]: [`Seen`] names modules by their shown
//!    type, and [`Goto`] opens the module's own other screen as
//!    [`Goto::Own`], so the modules import the contract
//!    ([`module`]) and not the dispatch, and there is no import cycle
//!    between them (`scripts/import-cycles`). Queries the worker should run side by side rather than
//!    the newer cancelling the older (the group list, its visible rows, a
//!    group's detail) say so with `lane`. What an answer brings for the
//!    session beyond the store (the group events for the timeline) waits
//!    in the store until `update` takes it, as its notice does.
//!
//!    `type Source` says what `fetch` runs against: the [`Cluster`](crate::meta::Cluster)
//!    (most screens; asked only while connected), the cluster's
//!    [`GroupsClient`](crate::groups::GroupsClient) (the group screens:
//!    its request counts and topic-name cache outlive a fetch; only while
//!    connected), the context's schema [`Registry`] (the schema screens;
//!    asked whether or not the cluster is connected), or `()` for a screen
//!    that never fetches and shows whether or not the cluster is connected
//!    (the fleet, fed by its own poller); the session hands it over from
//!    its [`Reach`] and starts no fetch without it.
//!
//!    A screen over data the session already holds rather than answers of
//!    its own (Brokers: the snapshot's brokers, kscope's liveness view, the
//!    disk sizes; Leaders: the movement feed; Events: the movement feed and
//!    the groups' change events) fetches nothing (`type Query
//!    = Infallible`, `plan` gives `None`) and takes that data as its own
//!    `Msg`: `update` forwards it to `Stores::receive` when it lands, built
//!    by the module from the shared value (`brokers::Observed::of` a
//!    snapshot), so the store keeps a plain copy of what its rows show and
//!    nothing reads the snapshot for it at draw time. The shared value
//!    stays where it was (the header reads it too). Topics is one too, and
//!    Partitions takes the same shared data beside its own query (the
//!    ELR and local log starts): the snapshot (one `Arc` of it per
//!    generation, for both), and what the session asks for the visible
//!    rows on behalf of several screens — watermarks, disk sizes, config
//!    summaries, each with its own request bookkeeping in `app/` — reach
//!    them as the changes an answer made ([`feed`]: the shared store
//!    builds a [`feed::Changes`] of the keys it touched, each module's
//!    store `apply`s it to its copy; `update`'s `shared` hands each kind to
//!    every module that shows it), and the group list (Topics' LAG) and
//!    the partitions that changed leader (Partitions' highlight) as they
//!    land. Code outside the modules that needs what a row index points at
//!    (the selected topic or partition, the visible rows' partitions for
//!    the watermark request) asks the module's store
//!    (`screens.topics.topic(i)`, `screens.partitions.partition(topic,
//!    i)`), never the snapshot it was handed, so the two cannot disagree. A
//!    session setting a module's rows depend on (`i` shows internal
//!    topics, `L` keeps the groups loading) stays in `AppState` and is
//!    forwarded when it changes and again after `:ctx` (the stores are
//!    replaced, the settings are not; a plan reads `L` in its [`Seen`];
//!    what a store keeps across contexts is its [`Module::carry`]: the
//!    groups store's settings, the re-read interval and the list's
//!    narrowing; the fleet's whole store, which is the session's and not
//!    a cluster's).
//!    Where the module's
//!    store is itself what others read (the events timeline: the header's
//!    recent counts, the strips under other screens), they read it as
//!    `AppState::screens.NAME`, and a tick reaches it as a `Msg` too
//!    (`events::Msg::Aged`). The table's own
//!    options: `DESCENDING` for a list that opens last first (a log),
//!    `SORT_COLUMN` for one that opens sorted by another column than the
//!    first (the fleet, by health),
//!    `counts` for what the title counts among the filtered rows (made with
//!    them in `update`), `counts_seconds` false for rows that change only
//!    with the data (no tick each second), and [`Goto::Movements`] to open
//!    the leader-movement log with a filter (a broker's movement),
//!    [`Goto::Partition`] or [`Goto::Broker`] to open a screen on its
//!    subject's row (an event's, a topic's partitions), [`Goto::Messages`]
//!    for a partition's records, [`Goto::Context`] to switch the session
//!    to another context (a fleet row). `title_end` is what
//!    the title says after the count of columns that did not fit (a narrow
//!    terminal cuts it first: what the LAG column waits for).
//!
//!    A screen whose data grows by the batch rather than being answered
//!    whole (Messages: a browse session's records, thousands a second)
//!    keeps its view's rows itself with `keep_rows` (each new item checked
//!    against its filter once, the selection following the tail) instead
//!    of having `rows` rebuild them whenever `answers` moves; its
//!    `answers` then stays 0 so a batch does not rebuild other screens'
//!    rows. `sortable` false keeps rows in arrival order (no arrow in the
//!    header). A stream the worker keeps running (a browse session) is
//!    started by the navigation as the module's own effect group
//!    (`messages::effect`), not a [`Query`]: `plan` gives `None`, and its
//!    batches arrive as the module's `Msg`.
//!
//!    A screen that shows text scrolled line by line
//!    rather than a table (a schema's text) says so with `is_text` and
//!    gives `text_lines` and `draw_text`; `enter` may prepare what it
//!    opens in the store (the text laid out) so drawing only colours it.
//! 2. Add one line to the `screens!` list below: `Variant => NAME::Shown`.
//!    It declares the module and gives every wrapper enum and dispatch
//!    `match` its arm.
//! 3. Open it from the navigation: push `Screen::Variant(…)`
//!    (for a screen with one value, a constructor such as
//!    `app::Screen::brokers()`) from the key or command that leads there
//!    (keymap and select/command code, which is not per-screen).
//!
//! Nothing else changes: the rows key, layout, drawing, title, `r`,
//! `:ctx` and the worker reach the screen through this file.

#[macro_use]
mod dispatch;
pub mod feed;
pub mod goto;
pub mod module;
pub mod requests;
pub mod seen;
pub mod source;

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

pub use module::{Clock, Goto, Kept, Module, Reach, Registry, Seen, Source};
use requests::RequestIds;

screens! {
    Topics => topics::List,
    Partitions => partitions::Topic,
    Producers => producers::Partition,
    Clients => topic_clients::Topic,
    Security => security::Listing,
    Configs => configs::Config,
    Schemas => schemas::Shown,
    Leaders => leaders::Log,
    Brokers => brokers::List,
    Cluster => cluster::Quorum,
    Events => events::Timeline,
    Commits => commits::Group,
    Groups => groups::Shown,
    Fleet => fleet::Contexts,
    Messages => messages::Shown,
}
