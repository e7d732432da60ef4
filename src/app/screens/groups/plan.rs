//! When the group screens ask, so that the cost follows what is on screen
//! rather than how many groups the cluster has. Only the screen showing is
//! polled: one group's detail while its offsets or members are open; while
//! the list is open, every interval the listing (one `ListGroups` per
//! broker: new groups appear, deleted ones go) with the visible rows'
//! state, members and lag, and the whole list (listed, described, every
//! group's lag) every [`REST_EVERY`] intervals — or every interval when
//! the list is sorted by lag, which needs every group's lag to be current.
//! When no group screen is left on the stack (and `L` is off) the list is
//! dropped; the lag histories (bounded per group) stay for the session.

use std::collections::{BTreeMap, BTreeSet};

use crate::groups::GroupListing;

use super::super::requests::{RequestIds, Requests};
use super::store::{DetailView, GIVE_UP, GroupsStore};

/// Group → the topics it is known to consume.
pub type GroupTopics = BTreeMap<String, BTreeSet<String>>;

/// The whole list is read every this many intervals unless sorted by lag
/// (at the default 5 s: every minute).
pub const REST_EVERY: u32 = 12;

/// What the navigation stack shows of the groups, as the plan needs it.
#[derive(Debug, Clone, Copy)]
pub enum Showing<'a> {
    /// The groups list on top: the indices (into the list) of its visible
    /// rows, and whether it is sorted by a lag column.
    List {
        /// The visible rows.
        window: &'a [usize],
        /// Sorted by LAG or LAG OVER TIME.
        by_lag: bool,
    },
    /// A group's offsets or members on top.
    Detail(&'a str),
    /// The Topics screen with `L` on: the list keeps loading for its LAG.
    LagOnTopics,
    /// Something else on top; `kept` when a group screen is further down
    /// the stack (the list is kept for it).
    Elsewhere {
        /// A group screen is on the stack.
        kept: bool,
    },
}

/// What the group screens ask the worker for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    /// Every group with its lag.
    List {
        /// Request id.
        request: u64,
    },
    /// Every group listed again, and the visible rows described with lag.
    Rows {
        /// Request id.
        request: u64,
        /// Each group asked, as listed.
        groups: Vec<GroupListing>,
        /// Group → the topics it is known to consume.
        topics: GroupTopics,
    },
    /// One group described with its lag.
    Detail {
        /// Request id.
        request: u64,
        /// The group.
        group: String,
    },
}

/// The query due for what is `shown` (called only while connected), if
/// any; the list is dropped when nothing shows it any more.
pub fn plan(
    store: &mut GroupsStore,
    ids: &mut RequestIds,
    shown: Showing,
    now: std::time::Instant,
) -> Option<Query> {
    let interval = store.interval;
    match shown {
        Showing::List { window, by_lag } => list(store, ids, (window, by_lag), now),
        Showing::LagOnTopics => ask_list(&mut store.list, ids, now, interval),
        Showing::Detail(group) => {
            if store.detail.as_ref().is_none_or(|d| d.group != group) {
                store.detail = Some(DetailView::new(group));
            }
            let detail = store.detail.as_mut()?;
            let request = detail.poll.ask(ids, &(), now, (interval, GIVE_UP))?;
            Some(Query::Detail {
                request,
                group: group.to_owned(),
            })
        }
        Showing::Elsewhere { kept } => {
            drop_unseen(store, kept);
            None
        }
    }
}

/// Ask for the group list if it is due.
fn ask_list(
    list: &mut Requests,
    ids: &mut RequestIds,
    now: std::time::Instant,
    interval: std::time::Duration,
) -> Option<Query> {
    let request = list.ask(ids, &(), now, (interval, GIVE_UP))?;
    Some(Query::List { request })
}

/// The groups list on top: ask for the whole list when it is due, else for
/// the visible rows when they are due. One of the two is in flight at a
/// time.
fn list(
    store: &mut GroupsStore,
    ids: &mut RequestIds,
    (window, by_lag): (&[usize], bool),
    now: std::time::Instant,
) -> Option<Query> {
    let interval = store.interval;
    let whole_every = if by_lag {
        interval
    } else {
        interval.saturating_mul(REST_EVERY)
    };
    if store.overview.is_none() || store.list.due(&(), now, (whole_every, GIVE_UP)) {
        if store.visible.busy(now, GIVE_UP) {
            return None;
        }
        return ask_list(&mut store.list, ids, now, whole_every);
    }
    if store.list.busy(now, GIVE_UP) || !store.visible.due(&(), now, (interval, GIVE_UP)) {
        return None;
    }
    // Even with no row visible (a filter matching none yet) the listing is
    // read: a group created since shows up.
    let (groups, topics) = visible(store, window);
    let request = store.visible.send(ids, &(), now);
    Some(Query::Rows {
        request,
        groups,
        topics,
    })
}

/// The visible rows of the list: each group as listed and the topics each
/// is known to consume.
fn visible(store: &GroupsStore, window: &[usize]) -> (Vec<GroupListing>, GroupTopics) {
    let Some(overview) = &store.overview else {
        return (Vec::new(), BTreeMap::new());
    };
    let mut groups = Vec::new();
    let mut topics = BTreeMap::new();
    for summary in window.iter().filter_map(|&i| overview.groups.get(i)) {
        let name = &summary.listing.group;
        groups.push(summary.listing.clone());
        topics.insert(
            name.clone(),
            summary.topics.iter().map(ToString::to_string).collect(),
        );
    }
    (groups, topics)
}

/// No group screen is on top (`kept`: one is further down the stack) and
/// `L` is off: unless kept, drop the list and what is in flight for it (the
/// run loop sees the rows go, see `AppState::held_rows`, and gives their
/// memory back to the OS); the next `:groups` asks for it at once. The lag
/// histories stay.
fn drop_unseen(store: &mut GroupsStore, kept: bool) {
    if kept || (store.overview.is_none() && store.list.in_flight.is_none()) {
        return;
    }
    store.overview = None;
    store.list = Requests::default();
    store.visible = Requests::default();
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant, SystemTime};

    use super::*;
    use crate::columns::fixtures::billing;
    use crate::groups::{Overview, RequestCounts};

    use super::super::receive;

    fn overview() -> Arc<Overview> {
        Arc::new(Overview {
            groups: vec![billing()],
            failed_brokers: vec![(2, "timed out".to_owned())],
            requests: RequestCounts::default(),
        })
    }

    #[test]
    fn the_list_then_its_visible_rows_and_dropped_once_nothing_shows_it() {
        let mut store = GroupsStore::default();
        let mut ids = RequestIds::default();
        let t0 = Instant::now();
        let wall = SystemTime::now();
        let shown = Showing::List {
            window: &[0],
            by_lag: false,
        };
        let Some(Query::List { request }) = plan(&mut store, &mut ids, shown, t0) else {
            panic!("the whole list first");
        };
        assert_eq!(plan(&mut store, &mut ids, shown, t0), None, "in flight");
        let stale = receive::list(&mut store, (request + 1, Ok(overview())), (t0, wall));
        assert!(stale.notice.is_none() && store.overview.is_none(), "stale");
        let landed = receive::list(&mut store, (request, Ok(overview())), (t0, wall));
        assert_eq!(
            landed.notice.as_deref(),
            Some("groups on broker 2 could not be listed: timed out")
        );
        assert!(store.histories.contains_key("billing"));
        assert_eq!(
            plan(&mut store, &mut ids, shown, t0),
            None,
            "rows just read"
        );
        let later = t0 + store.interval;
        match plan(&mut store, &mut ids, shown, later) {
            Some(Query::Rows { groups, topics, .. }) => {
                assert_eq!(groups.len(), 1);
                assert!(topics.contains_key("billing"));
            }
            other => panic!("the visible rows, not {other:?}"),
        }
        let kept = Showing::Elsewhere { kept: true };
        assert_eq!(plan(&mut store, &mut ids, kept, later), None);
        assert!(store.overview.is_some(), "a group screen below keeps it");
        let gone = Showing::Elsewhere { kept: false };
        assert_eq!(plan(&mut store, &mut ids, gone, later), None);
        assert!(store.overview.is_none(), "dropped");
        assert!(store.histories.contains_key("billing"), "histories stay");
    }

    #[test]
    fn a_groups_detail_is_asked_again_for_another_group_or_after_the_interval() {
        let mut store = GroupsStore::default();
        let mut ids = RequestIds::default();
        let t0 = Instant::now();
        let asked = |store: &mut GroupsStore, ids: &mut RequestIds, group, at| match plan(
            store,
            ids,
            Showing::Detail(group),
            at,
        ) {
            Some(Query::Detail { group, .. }) => Some(group),
            _ => None,
        };
        assert_eq!(asked(&mut store, &mut ids, "a", t0).as_deref(), Some("a"));
        assert_eq!(asked(&mut store, &mut ids, "a", t0), None, "in flight");
        assert_eq!(asked(&mut store, &mut ids, "b", t0).as_deref(), Some("b"));
        let given_up = t0 + GIVE_UP + Duration::from_secs(1);
        assert_eq!(
            asked(&mut store, &mut ids, "b", given_up).as_deref(),
            Some("b"),
            "no answer: asked again"
        );
    }
}
