//! What the groups list polls, so that its cost follows what is on screen
//! rather than how many groups the cluster has: every `refresh.lag_secs`
//! the listing (one `ListGroups` per broker: new groups appear, deleted
//! ones go) and the visible rows' state, members and lag, the whole list (listed, described, every
//! group's lag) every [`REST_EVERY`] intervals — or every interval when the
//! list is sorted by lag, which needs every group's lag to be current. When
//! no screen shows the list any more it is dropped; the lag histories
//! (bounded per group) stay for the session.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::groups::{GroupListing, LagHistory, Relisted};

use super::action::Effect;
use super::groups::{HISTORY_SAMPLES, Poll, poll_list};
use super::screen::{Screen, View};
use super::state::AppState;

/// Group → the topics it is known to consume.
type GroupTopics = BTreeMap<String, BTreeSet<String>>;

/// The whole list is read every this many intervals unless sorted by lag
/// (at the default 5 s: every minute).
pub const REST_EVERY: u32 = 12;

/// Whether `view` is sorted by a lag column (LAG or LAG OVER TIME).
pub fn sorted_by_lag(view: &View) -> bool {
    view.screen
        .headers()
        .get(view.sort.column)
        .is_some_and(|h| h.starts_with("LAG"))
}

/// The groups list on top of the stack: ask for the whole list when it is
/// due, else for the visible rows when they are due. One of the two is
/// in flight at a time.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    let now = state.now;
    let interval = state.groups.interval;
    let whole_every = if sorted_by_lag(state.view()) {
        interval
    } else {
        interval.saturating_mul(REST_EVERY)
    };
    let store = &state.groups;
    if store.overview.is_none() || store.list.due(now, whole_every) {
        if !store.visible.busy(now) {
            poll_list(&mut state.groups, now, whole_every, effects);
        }
        return;
    }
    if store.list.busy(now) || !store.visible.due(now, interval) {
        return;
    }
    // Even with no row visible (a filter matching none yet) the listing is
    // read: a group created since shows up.
    let (groups, topics) = visible(state);
    let store = &mut state.groups;
    let request = store.next();
    store.visible = Poll {
        in_flight: Some(request),
        last_request: Some(now),
    };
    effects.push(Effect::FetchGroupRows {
        request,
        groups,
        topics,
    });
}

/// The visible rows of the list on top: each group as listed and the
/// topics each is known to consume.
fn visible(state: &AppState) -> (Vec<GroupListing>, GroupTopics) {
    let view = state.view();
    let Some(overview) = &state.groups.overview else {
        return (Vec::new(), BTreeMap::new());
    };
    let mut groups = Vec::new();
    let mut topics = BTreeMap::new();
    for summary in view
        .rows
        .iter()
        .skip(view.offset)
        .take(state.page())
        .filter_map(|&i| overview.groups.get(i))
    {
        let name = &summary.listing.group;
        groups.push(summary.listing.clone());
        topics.insert(
            name.clone(),
            summary.topics.iter().map(ToString::to_string).collect(),
        );
    }
    (groups, topics)
}

/// Take a relisting with the visible rows (a stale answer is dropped): the
/// list becomes what the brokers list now ([`Overview::merge`]), the asked
/// rows' lag histories are recorded, and the histories of groups that went
/// are dropped. The relisting, read on a worker, is garbage once merged
/// (every group's listing, the asked rows): the run loop sees it go.
///
/// [`Overview::merge`]: crate::groups::Overview::merge
pub fn receive(state: &mut AppState, request: u64, result: Result<Relisted, String>) {
    let now = state.now;
    let store = &mut state.groups;
    if store.visible.in_flight != Some(request) {
        return;
    }
    store.visible.in_flight = None;
    store.answers += 1;
    let relisted = match result {
        Ok(relisted) => relisted,
        Err(error) => {
            state.notice = Some(format!("consumer groups: {error}"));
            return;
        }
    };
    let Some(overview) = store.overview.as_mut() else {
        return;
    };
    // What is on screen is this fresh (the title's age).
    store.overview_at = Some(now);
    for row in &relisted.rows {
        if let Some(lag) = &row.lag {
            store
                .histories
                .entry(row.listing.group.clone())
                .or_insert_with(|| LagHistory::new(HISTORY_SAMPLES))
                .record(now, lag);
        }
    }
    let events = state.sources.groups.rows(&relisted.rows, now, state.wall);
    if let Some(notice) = super::groups::unlisted(&relisted.list.failed) {
        state.notice = Some(notice);
    }
    // The store holds the only reference once the answer landed: no copy.
    for gone in Arc::make_mut(overview).merge(relisted) {
        store.histories.remove(&gone);
    }
    super::event_sources::publish(state, &events);
}

/// No groups screen is on the stack (and `L` is off): drop the list and
/// what is in flight for it (the run loop sees the rows go, see
/// [`AppState::held_rows`], and gives their memory back to the OS); the
/// next `:groups` asks for it at once.
/// The lag histories stay.
pub fn drop_unseen(state: &mut AppState) {
    let shown = state.stack.iter().any(|v| {
        matches!(
            v.screen,
            Screen::Groups { .. } | Screen::Group { .. } | Screen::Members { .. }
        )
    });
    let store = &mut state.groups;
    if shown || (store.overview.is_none() && store.list.in_flight.is_none()) {
        return;
    }
    store.overview = None;
    store.list = Poll::default();
    store.visible = Poll::default();
}
