//! Where the model meets the group screens' module (`screens::groups`):
//! what the stack shows of the groups turned into its plan's input and its
//! queries into effects, and its answers handed to the store with their
//! notice and events put where the session keeps them.

use std::sync::Arc;

use crate::groups::{GroupDetail, Overview, Relisted};

use super::action::Effect;
use super::failure::Failure;
use super::screen::{Screen, View};
use super::screens::groups::plan::{self, Query, Shown};
use super::screens::groups::receive::{self, Landed};
use super::state::{AppState, Link};

pub use super::screens::groups::{DEFAULT_INTERVAL, DetailView, GroupsStore, HISTORY_SAMPLES};

/// Whether `view` is sorted by a lag column (LAG or LAG OVER TIME).
pub fn sorted_by_lag(view: &View) -> bool {
    view.screen
        .headers()
        .get(view.sort.column)
        .is_some_and(|h| h.starts_with("LAG"))
}

/// Ask for the group data the screen shows, if it is due; drop the list
/// when nothing shows it any more.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    let page = state.page();
    let view = &state.stack[state.stack.len() - 1];
    let shown = match &view.screen {
        Screen::Groups { .. } => {
            let from = view.offset.min(view.rows.len());
            let to = (from + page).min(view.rows.len());
            Shown::List {
                window: &view.rows[from..to],
                by_lag: sorted_by_lag(view),
            }
        }
        Screen::Group { group } | Screen::Members { group } => Shown::Detail(group),
        // `L` on Topics: the LAG column's groups keep loading there.
        screen if screen.is_topics() && state.follow_lag => Shown::LagOnTopics,
        _ => Shown::Elsewhere {
            kept: state
                .stack
                .iter()
                .any(|v| v.screen.groups_screen().is_some()),
        },
    };
    let query = plan::plan(&mut state.groups, &mut state.requests, shown, state.now);
    effects.extend(query.map(|query| match query {
        Query::List { request } => Effect::FetchGroups { request },
        Query::Rows {
            request,
            groups,
            topics,
        } => Effect::FetchGroupRows {
            request,
            groups,
            topics,
        },
        Query::Detail { request, group } => Effect::FetchGroup { request, group },
    }));
}

/// Take a group list; a stale one (not the request in flight) is dropped.
/// The answer it was built from is garbage once absorbed: the run loop
/// sees it go ([`Action::carried_rows`](super::Action::carried_rows)).
pub fn receive_list(state: &mut AppState, request: u64, result: Result<Arc<Overview>, Failure>) {
    let at = (state.now, state.wall);
    let mut landed = receive::list(
        &mut state.groups,
        &mut state.sources.groups,
        (request, result),
        at,
    );
    // Replaying, the list is read at every cursor move for the Topics LAG
    // column too, and a cursor before the first recorded list is no news:
    // the groups screens say it in their place, the column says `?`, and
    // the notice line keeps what it says (a damaged file, an unread config).
    let on_groups = state.view().screen.groups_screen().is_some();
    if state.replay.is_some() && !on_groups {
        landed.notice = None;
    }
    land(state, landed);
}

/// Take a relisting with the visible rows; a stale one is dropped.
pub fn receive_rows(state: &mut AppState, request: u64, result: Result<Relisted, Failure>) {
    let at = (state.now, state.wall);
    let landed = receive::rows(
        &mut state.groups,
        &mut state.sources.groups,
        (request, result),
        at,
    );
    land(state, landed);
}

/// Take one group's detail; a stale one is dropped.
pub fn receive_detail(
    state: &mut AppState,
    request: u64,
    result: Result<Arc<GroupDetail>, Failure>,
) {
    let at = (state.now, state.wall);
    let landed = receive::detail(
        &mut state.groups,
        &mut state.sources.groups,
        (request, result),
        at,
    );
    land(state, landed);
}

/// What an answer brought besides the store's data: its notice on the
/// status line, its events on the timeline.
fn land(state: &mut AppState, landed: Landed) {
    if let Some(notice) = landed.notice {
        state.notice = Some(notice);
    }
    super::event_sources::publish(state, &landed.events);
}

/// Narrow the list to the next group type in turn, and say so.
pub fn cycle_type(state: &mut AppState) {
    state.notice = Some(state.groups.cycle_type());
}
