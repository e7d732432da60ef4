//! The Topics screen (the start screen, `:topics`): every topic of the
//! snapshot with its numbers, records and rates, config summary, size on
//! disk and the largest group lag; Enter opens its partitions. It fetches
//! nothing of its own: the snapshot, the watermarks, the disk sizes and the
//! config summaries (asked by the session for the visible rows, shared
//! with other screens), the group list and the session's toggles reach its
//! store ([`store`]) as [`Msg`]s that `update` forwards when they land, so
//! the rows are built from the store alone. The column table is in
//! [`columns`], the drawing in `draw.rs`, the LAG column's maxima in
//! [`lag`].

pub mod columns;
mod draw;
pub mod lag;
pub mod store;

use std::convert::Infallible;
use std::time::Instant;

use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module, Seen};
use super::requests::RequestIds;

pub use store::{Msg, Store};

/// What the screen shows: every topic (a filter narrows it; internal ones
/// only when toggled on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct List;

/// Topic `index` of the snapshot as the table shows it.
fn row(store: &Store, index: usize) -> Option<columns::Row<'_>> {
    let t = store.topic(index)?;
    let summary = store.summaries.get(&t.name);
    let throughput = store.rates.get(&t.name);
    Some(columns::Row {
        name: &t.name,
        internal: t.internal,
        stats: store.snap.topic_stats(&t.name),
        messages: store.totals.get(&t.name).copied(),
        cleanup: summary.and_then(|s| s.cleanup.as_deref()),
        retention_ms: summary.and_then(|s| s.retention_ms),
        under_min_isr: summary
            .and_then(|s| s.min_isr)
            .map(|min| t.partitions.iter().filter(|p| p.isr.len() < min).count()),
        size: store
            .sizes
            .as_ref()
            .and_then(|s| s.topics.get(&t.name))
            .and_then(|s| s.all_replicas),
        lag: store.lag.of(&t.name),
        rate: throughput.and_then(|r| r.rate),
        bytes_rate: store.bytes_per_sec.get(&t.name).copied(),
        rates: throughput.map(|r| &r.history),
        bytes_rates: store.bytes.get(&t.name).map(|r| &r.history),
    })
}

impl Module for List {
    type Store = Store;
    /// Nothing is fetched: what it shows arrives by itself.
    type Query = Infallible;
    type Msg = Msg;
    type Source = Cluster;
    const DRILLABLE: bool = true;

    fn title(&self) -> String {
        "topics".to_owned()
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    fn plan(&self, _: &mut Store, _: &mut RequestIds, _: &Seen) -> Option<Infallible> {
        None
    }

    fn receive(store: &mut Store, msg: Msg, _: Clock) {
        store.receive(msg);
    }

    fn expire(_: &mut Store) {}

    fn answers(store: &Store) -> u64 {
        store.taken
    }

    /// Topics are matched on their name.
    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        store
            .snap
            .topics()
            .iter()
            .enumerate()
            .filter(|(_, t)| store.internal || !t.internal)
            .filter(|(_, t)| keep(&t.name))
            .map(|(i, _)| i)
            .collect()
    }

    fn sort(&self, store: &Store, _: Clock, column: usize, rows: &mut Vec<usize>) {
        crate::columns::sort_indices(rows, columns::table().get(column), |i| row(store, i));
    }

    /// Nothing on the rows counts time.
    fn counts_seconds(&self, _: &Store) -> bool {
        false
    }

    fn visible(
        &self,
        store: &Store,
        (_, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(window.filter_map(|i| row(store, i)), theme)
    }

    fn status(&self, _: &Store, _: Instant) -> String {
        String::new()
    }

    /// What the LAG column waits for while it is unknown.
    fn title_end(&self, store: &Store) -> String {
        store
            .lag
            .waiting(store.follow_lag)
            .map_or_else(String::new, |waiting| format!(" · {waiting}"))
    }

    /// The topic's Partitions screen.
    fn enter(&self, store: &mut Store, index: usize) -> Option<Goto<Self>> {
        let topic = store.topic(index)?.name.clone();
        Some(Goto::Partition {
            topic,
            partition: None,
        })
    }

    async fn fetch(_: Cluster, query: Infallible) -> Msg {
        match query {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::AppState;
    use crate::app::keymap::Keymap;

    #[test]
    fn the_sessions_toggles_reach_the_store_and_outlive_a_context_switch() {
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        let store = &state.screens.topics;
        assert!(!store.internal && !store.follow_lag);
        let waiting = List.title_end(store);
        assert!(waiting.contains("L (or :groups)"), "{waiting}");
        state.show_internal = true;
        state.follow_lag = true;
        state.reset_cluster();
        let store = &state.screens.topics;
        assert!(store.internal && store.follow_lag, "a fresh store, the same toggles");
        assert!(List.title_end(store).contains("reading"));
    }
}
