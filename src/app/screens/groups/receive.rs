//! What an answer changes in the groups store: the list absorbed or merged,
//! the lag histories recorded, one group's detail kept. A stale answer (not
//! the request in flight) is dropped. Each gives what the status line
//! should say and the events it derived (a group's partitions STUCK or
//! moving again, what changed since the last list) for the timeline.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use crate::app::failure::Failure;
use crate::groups::{GroupDetail, LagHistory, Overview, Relisted};
use crate::meta::MovementEvent;

use super::Msg;
use super::store::{GroupsStore, HISTORY_SAMPLES};

/// What an answer brought besides the store's data.
#[derive(Debug, Default)]
pub struct Landed {
    /// What the status line should say (a failure), if anything.
    pub notice: Option<String>,
    /// Events derived from it, for the timeline.
    pub events: Vec<MovementEvent>,
}

/// When an answer landed: monotonic (ages) and wall-clock (events).
pub type At = (Instant, SystemTime);

/// Take `msg` that landed `at`: an answer's notice and events are kept in
/// the store until `update` takes them ([`GroupsStore::take_events`]), the
/// shared data a group's offsets rows read replaces the copy held.
pub fn take(store: &mut GroupsStore, msg: Msg, at: At) {
    let landed = match msg {
        Msg::List { request, result } => list(store, (request, result), at),
        Msg::Rows { request, result } => rows(store, (request, result), at),
        Msg::Detail { request, result } => detail(store, (request, result), at),
        Msg::Sizes(sizes) => {
            store.sizes = sizes;
            return;
        }
        Msg::Summaries(summaries) => {
            store.summaries.extend(summaries.iter().cloned());
            return;
        }
    };
    if landed.notice.is_some() {
        store.notice = landed.notice;
    }
    store.events.extend(landed.events);
}

/// Take a group list. The answer it was built from is garbage once
/// absorbed: the run loop sees it go (`Action::carried_rows`).
pub fn list(
    store: &mut GroupsStore,
    (request, result): (u64, Result<Arc<Overview>, Failure>),
    (now, wall): At,
) -> Landed {
    if !store.list.landed(request) {
        return Landed::default();
    }
    store.answers += 1;
    let overview = match result {
        Ok(overview) => overview,
        Err(error) => {
            let notice = Some(format!("consumer groups: {error}"));
            store.overview_error = Some(error);
            return Landed {
                notice,
                events: Vec::new(),
            };
        }
    };
    // Kept in place (no map or key rebuilt per answer): the histories live
    // for the session, and reallocating them among each answer's short-lived
    // heap would leave them scattered over pages nothing else uses.
    let listed: HashSet<&str> = overview
        .groups
        .iter()
        .map(|g| g.listing.group.as_str())
        .collect();
    store
        .histories
        .retain(|name, _| listed.contains(name.as_str()));
    for group in &overview.groups {
        let name = &group.listing.group;
        let history = match store.histories.get_mut(name) {
            Some(history) => history,
            None => store
                .histories
                .entry(name.clone())
                .or_insert_with(|| LagHistory::new(HISTORY_SAMPLES)),
        };
        if let Some(lag) = &group.lag {
            history.record(now, lag);
        }
    }
    let notice = unlisted(&overview.failed_brokers);
    // What changed since the last read, and the partitions STUCK or moving
    // again, go on the events timeline.
    let events = store.watch.list(store.overview.as_deref(), &overview, now, wall);
    // Absorbed into the list held (its unchanged parts stay where they
    // are: see `groups::absorb`), the fresh read freed whole.
    match store.overview.as_mut() {
        Some(held) => Arc::make_mut(held).absorb(Arc::unwrap_or_clone(overview)),
        None => store.overview = Some(overview),
    }
    store.overview_at = Some(now);
    store.overview_error = None;
    // Every row's lag was just read: the visible rows are not due again
    // for an interval.
    store.visible.in_flight = None;
    store.visible.last_request = Some(((), now));
    Landed { notice, events }
}

/// Take a relisting with the visible rows: the list becomes what the
/// brokers list now ([`Overview::merge`]), the asked rows' lag histories
/// are recorded, and the histories of groups that went are dropped. The
/// relisting, read on a worker, is garbage once merged (every group's
/// listing, the asked rows): the run loop sees it go.
pub fn rows(
    store: &mut GroupsStore,
    (request, result): (u64, Result<Relisted, Failure>),
    (now, wall): At,
) -> Landed {
    if !store.visible.landed(request) {
        return Landed::default();
    }
    store.answers += 1;
    let relisted = match result {
        Ok(relisted) => relisted,
        Err(error) => {
            return Landed {
                notice: Some(format!("consumer groups: {error}")),
                events: Vec::new(),
            };
        }
    };
    let Some(overview) = store.overview.as_mut() else {
        return Landed::default();
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
    let events = store.watch.rows(&relisted.rows, now, wall);
    let notice = unlisted(&relisted.list.failed);
    // The store holds the only reference once the answer landed: no copy.
    for gone in Arc::make_mut(overview).merge(relisted) {
        store.histories.remove(&gone);
    }
    Landed { notice, events }
}

/// Take one group's detail.
pub fn detail(
    store: &mut GroupsStore,
    (request, result): (u64, Result<Arc<GroupDetail>, Failure>),
    (now, wall): At,
) -> Landed {
    let Some(view) = store
        .detail
        .as_mut()
        .filter(|d| d.poll.is_in_flight(request))
    else {
        return Landed::default();
    };
    view.poll.landed(request);
    store.answers += 1;
    let detail = match result {
        Ok(detail) => detail,
        Err(error) => {
            let notice = Some(format!(
                "group '{}': {error}",
                crate::anonymize::name(crate::anonymize::Kind::Group, &view.group)
            ));
            view.error = Some(error);
            return Landed {
                notice,
                events: Vec::new(),
            };
        }
    };
    view.partitions.record(now, &detail.lag);
    let events = store.watch.group(&view.group, &detail, now, wall);
    view.owners.clear();
    for (index, member) in detail.description.members.iter().enumerate() {
        for (topic, partition) in member.assignment.partitions() {
            view.owners.insert((topic.to_owned(), partition), index);
        }
    }
    store
        .histories
        .entry(view.group.clone())
        .or_insert_with(|| LagHistory::new(HISTORY_SAMPLES))
        .record(now, &detail.lag);
    view.detail = Some(detail);
    view.at = Some(now);
    view.error = None;
    Landed {
        notice: None,
        events,
    }
}

/// The notice for brokers whose groups could not be listed (the first one
/// named), whether the whole list or a re-listing was read.
fn unlisted(failed: &[(i32, String)]) -> Option<String> {
    let (broker, error) = failed.first()?;
    Some(format!(
        "groups on broker {broker} could not be listed: {error}"
    ))
}
