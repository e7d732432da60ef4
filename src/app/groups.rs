//! What `update` does with an answer of the group screens' module
//! (`screens::groups`) beyond handing it to the store: its notice on the
//! status line (not for a list read only for the Topics LAG column while
//! replaying), the events it derived on the timeline, and a new list to
//! the Topics screen's LAG column.

use super::forward::{Shared, shared};
use super::screen::View;
use super::screens::{self, groups::Msg};
use super::state::AppState;

/// The lag samples kept per group (the tests import it from here).
pub use super::screens::groups::HISTORY_SAMPLES;

/// Whether `view` is sorted by a lag column (LAG or LAG OVER TIME).
pub fn sorted_by_lag(view: &View) -> bool {
    let headers = view.screen.headers();
    screens::groups::by_lag(headers.get(view.sort.column).copied())
}

/// Hand `msg` to the groups store; a stale answer (not the request in
/// flight) is dropped there. A list's rows it does not keep are garbage
/// once taken: the run loop sees them go
/// ([`Action::carried_rows`](super::Action::carried_rows)).
pub fn receive(state: &mut AppState, msg: Msg) {
    let list = matches!(msg, Msg::List { .. });
    let clock = state.clock();
    let notice = state.screens.receive(screens::Msg::Groups(msg), clock);
    // Replaying, the list is read at every cursor move for the Topics LAG
    // column too, and a cursor before the first recorded list is no news:
    // the groups screens say it in their place, the column says `?`, and
    // the notice line keeps what it says (a damaged file, an unread config).
    let on_groups = state.view().screen.groups_screen().is_some();
    if let Some(notice) = notice
        && !(list && state.replay.is_some() && !on_groups)
    {
        state.notice = Some(notice);
    }
    let events = state.screens.groups.take_events();
    super::event_sources::publish(state, &events);
    if list {
        shared(state, Shared::Groups);
    }
}
