//! The Brokers screen (`:brokers`): every broker of the snapshot with its
//! role, leader count, disk and leaders over time, then those that went
//! down, as last seen; Enter opens a broker's leader movement. It fetches
//! nothing: the snapshot, kscope's liveness view and the disk sizes reach
//! its store ([`store`]) as [`Msg`]s that `update` forwards when they land,
//! so the rows are built from the store alone.

pub mod columns;
mod draw;
pub mod store;

use std::convert::Infallible;
use std::time::{Instant, SystemTime};

use crate::columns::format;
use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module};
use super::requests::RequestIds;

pub use store::{Msg, Observed, Seen, Store};

/// What the screen shows: every broker (a filter narrows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct List;

/// Row `index` as the table shows it, aged to `clock`, with whether the
/// broker is down or not answering kscope.
fn row(store: &Store, clock: Clock, index: usize) -> Option<(columns::Row<'_>, bool)> {
    let seen = store.broker(index)?;
    let b = seen.info();
    let aged = |what: &str, since: SystemTime| {
        let down_for = clock.wall.duration_since(since).unwrap_or_default();
        format!("{what} {}", format::age(down_for))
    };
    let (role, leaders, down) = match seen {
        Seen::Live(live) => match store.not_answering_since(b.node_id) {
            Some(since) => (aged("NO ANSWER", since), Some(live.leaders), true),
            None => (live.role.to_owned(), Some(live.leaders), false),
        },
        Seen::Down(_, since) => (aged("DOWN", since), None, true),
    };
    let row = columns::Row {
        id: b.node_id,
        address: b.address(),
        rack: b.rack.as_deref(),
        role,
        leaders,
        history: store.history(b.node_id),
        disk: store.disk(b.node_id),
    };
    Some((row, down))
}

impl Module for List {
    type Store = Store;
    /// Nothing is fetched: what it shows arrives by itself.
    type Query = Infallible;
    type Msg = Msg;
    type Source = Cluster;
    const DRILLABLE: bool = true;

    fn title(&self) -> String {
        "brokers".to_owned()
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    fn plan(&self, _: &mut Store, _: &mut RequestIds, _: &super::Seen) -> Option<Infallible> {
        None
    }

    fn receive(store: &mut Store, msg: Msg, _: Clock) {
        store.receive(msg);
    }

    fn expire(_: &mut Store) {}

    fn answers(store: &Store) -> u64 {
        store.taken
    }

    /// Brokers are matched on "ID HOST:PORT", live and down alike.
    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        (0..store.listed())
            .filter(|&i| {
                store.broker(i).is_some_and(|seen| {
                    let b = seen.info();
                    keep(&format!("{} {}", b.node_id, b.address()))
                })
            })
            .collect()
    }

    fn sort(&self, store: &Store, clock: Clock, column: usize, rows: &mut Vec<usize>) {
        crate::columns::sort_indices(rows, columns::table().get(column), |i| {
            row(store, clock, i).map(|(row, _)| row)
        });
    }

    fn counts_seconds(&self, store: &Store) -> bool {
        // "DOWN 3m04s" and "NO ANSWER 12s" count up.
        store.any_down()
    }

    fn visible(
        &self,
        store: &Store,
        (clock, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(window.filter_map(|i| row(store, clock, i)), theme)
    }

    fn status(&self, _: &Store, _: Instant) -> String {
        String::new()
    }

    /// The broker's leader movement: the log filtered to events naming it.
    fn enter(&self, store: &mut Store, index: usize) -> Option<Goto<Self>> {
        let id = store.broker(index)?.info().node_id;
        Some(Goto::Movements(format!("~\\bb{id}\\b")))
    }

    async fn fetch(_: Cluster, query: Infallible) -> Msg {
        match query {}
    }
}
