//! The fleet screen (`:fleet`, `kscope --fleet`): every context of the
//! config at a glance, worst first, polled by `crate::fleet` on its own
//! task (started the first time the screen opens, kept across `:ctx`).
//! Enter switches the session to the selected context and opens its
//! Topics screen with the fleet under it: Esc comes back to the rows,
//! still live. It fetches nothing itself: the poller's publications reach
//! the store as its [`Msg`]. Its store is the session's, not a cluster's:
//! `:ctx` carries it over whole ([`Module::carry`]).

mod draw;
mod store;

use std::convert::Infallible;
use std::time::Instant;

use crate::fleet::FleetRows;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module, Seen};
use super::requests::RequestIds;

pub use store::FleetStore;

/// What the screen shows: every context of the config (a filter narrows
/// it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contexts;

/// A publication of the poller: every context's row, worst first.
pub type Msg = FleetRows;

impl Module for Contexts {
    type Store = FleetStore;
    /// Nothing is fetched: the poller publishes by itself.
    type Query = Infallible;
    type Msg = Msg;
    /// Shown whether or not the session's cluster is connected.
    type Source = ();
    const DRILLABLE: bool = true;
    /// By health, worst first (the second column).
    const SORT_COLUMN: usize = 1;

    fn title(&self) -> String {
        "fleet: every context".to_owned()
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&crate::columns::fleet::table())
    }

    fn plan(&self, _: &mut FleetStore, _: &mut RequestIds, _: &Seen) -> Option<Infallible> {
        None
    }

    fn receive(store: &mut FleetStore, rows: Msg, _: Clock) {
        store.rows = Some(rows);
        store.answers += 1;
    }

    /// The poller keeps its own pace; `r` does not hurry it.
    fn expire(_: &mut FleetStore) {}

    fn answers(store: &FleetStore) -> u64 {
        store.answers
    }

    /// The context name, its health and its error are matched.
    fn rows(&self, store: &FleetStore, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        let Some(rows) = &store.rows else {
            return Vec::new();
        };
        rows.iter()
            .enumerate()
            .filter(|(_, r)| {
                keep(&format!(
                    "{} {} {}",
                    r.context,
                    crate::columns::fleet::health(r.health),
                    r.error.as_deref().unwrap_or_default()
                ))
            })
            .map(|(i, _)| i)
            .collect()
    }

    fn sort(&self, store: &FleetStore, _: Clock, column: usize, rows: &mut Vec<usize>) {
        crate::columns::sort_indices(rows, crate::columns::fleet::table().get(column), |i| {
            store.row(i).cloned()
        });
    }

    fn visible(
        &self,
        store: &FleetStore,
        (clock, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(store, (clock.now, theme), window)
    }

    fn status(&self, _: &FleetStore, _: Instant) -> String {
        String::new()
    }

    /// The selected context: the session switches to it (or opens its own
    /// Topics screen).
    fn enter(&self, store: &mut FleetStore, index: usize) -> Option<Goto<Self>> {
        Some(Goto::Context(store.row(index)?.context.clone()))
    }

    /// The fleet is the session's: a new context keeps its rows and its
    /// running poller.
    fn carry(old: &mut FleetStore) -> FleetStore {
        std::mem::take(old)
    }

    async fn fetch((): (), query: Infallible) -> Msg {
        match query {}
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::app::screen::Screen;
    use crate::fleet::FleetRow;
    use crate::app::{Action, AppState, Effect, Keymap, update};
    use crate::meta::MetadataSnapshot;

    fn publication(names: &[&str]) -> Action {
        let rows: Vec<FleetRow> = names.iter().map(|n| FleetRow::pending(n)).collect();
        Action::Screen(super::super::Msg::Fleet(Arc::from(rows)))
    }

    #[test]
    fn the_fleet_outlives_a_context_switch_with_its_rows_and_its_poller() {
        let snap = MetadataSnapshot::empty();
        let mut state = AppState::new("alpha", Vec::new(), Keymap::default());
        assert!(state.screens.fleet.start(), "the first open starts the poller");
        assert!(!state.screens.fleet.start(), "and only the first");
        state.stack.push(crate::app::View::new(Screen::fleet()));
        update(&mut state, publication(&["alpha", "beta"]), &snap);
        assert_eq!(state.view().rows.len(), 2, "{:?}", state.view());
        // The groups list's settings ride along; its data does not.
        state.screens.groups.hide_inactive = !state.screens.groups.hide_inactive;
        let hide = state.screens.groups.hide_inactive;

        state.reset_cluster();

        assert_eq!(state.screens.fleet.answers, 1);
        assert_eq!(state.screens.fleet.row(1).map(|r| r.context.as_str()), Some("beta"));
        assert!(state.screens.fleet.started, "the poller is not started twice");
        assert_eq!(state.screens.groups.hide_inactive, hide);
        let screens: Vec<&Screen> = state.stack.iter().map(|v| &v.screen).collect();
        assert_eq!(screens, [&Screen::fleet(), &Screen::topics()]);
    }

    #[test]
    fn enter_on_another_context_switches_to_it_and_on_its_own_opens_topics() {
        let snap = MetadataSnapshot::empty();
        let mut state = AppState::new("alpha", Vec::new(), Keymap::default());
        state.stack.push(crate::app::View::new(Screen::fleet()));
        update(&mut state, publication(&["beta", "alpha"]), &snap);
        let view = state.view();
        let beta = view
            .rows
            .iter()
            .position(|&i| state.screens.fleet.row(i).is_some_and(|r| r.context == "beta"))
            .expect("beta listed");
        state.view_mut().selected = beta;
        let fx = update(&mut state, Action::Key(crate::app::Key::plain(crate::app::Code::Enter)), &snap);
        assert!(fx.contains(&Effect::SwitchContext("beta".into())), "{fx:?}");

        let alpha = usize::from(beta == 0);
        state.view_mut().selected = alpha;
        update(&mut state, Action::Key(crate::app::Key::plain(crate::app::Code::Enter)), &snap);
        assert_eq!(state.view().screen, Screen::topics());
    }
}
