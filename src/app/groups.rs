//! Consumer groups for what is on screen: the list (every group, with lag)
//! and the detail of the group being viewed. When to ask, and what an answer
//! changes. Only the screen showing is polled: the list while a groups list
//! is open (its visible rows' lag at the interval, the whole list less often:
//! see `group_poll`), one group's detail while its offsets or members are
//! open. When no groups screen is left on the stack (and `L` is off) the
//! list is dropped; the bounded lag histories stay.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::groups::{GroupDetail, LagHistory, Overview, PartitionHistories};

use super::action::Effect;
use super::screen::Screen;
use super::state::{AppState, Link};

/// How often visible group data is re-read when the config says nothing.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(30);
/// Samples kept per group's lag history: 40 samples of 20 bytes bound a
/// group's history to 0.8 KB, which every group of the session keeps
/// (10,000 on a large cluster; the bound is 4 KB a group with its
/// row). That is 200 s at the default interval for the rows on screen,
/// 40 minutes for the rest, polled every
/// [`group_poll::REST_EVERY`](super::group_poll::REST_EVERY) intervals; the
/// LAG OVER TIME sparkline shows the last
/// [`SPARK_WIDTH`](crate::columns::group_format::SPARK_WIDTH).
pub const HISTORY_SAMPLES: usize = 40;

/// One kind of request's bookkeeping: what is in flight and when it left.
#[derive(Debug, Default, Clone)]
pub struct Poll {
    /// The request in flight, if any.
    pub in_flight: Option<u64>,
    /// When the last request was sent.
    pub last_request: Option<Instant>,
}

impl Poll {
    /// Whether a request is due: none sent yet, the last answer is older
    /// than `interval`, or the one in flight has been given up on.
    pub(super) fn due(&self, now: Instant, interval: Duration) -> bool {
        let Some(sent) = self.last_request else {
            return true;
        };
        let age = now.saturating_duration_since(sent);
        if self.in_flight.is_some() {
            age >= GIVE_UP
        } else {
            age >= interval
        }
    }

    /// Whether a request is in flight and not yet given up on.
    pub(super) fn busy(&self, now: Instant) -> bool {
        self.in_flight.is_some()
            && self
                .last_request
                .is_some_and(|sent| now.saturating_duration_since(sent) < GIVE_UP)
    }

    /// Ask again at the next chance, dropping the answer in flight.
    pub fn expire(&mut self) {
        self.in_flight = None;
        self.last_request = None;
    }
}

/// The group whose detail is on screen, with what is known of it.
#[derive(Debug, Clone)]
pub struct DetailView {
    /// The group.
    pub group: String,
    /// The latest answer (kept, with its age, while the next is awaited).
    pub detail: Option<Arc<GroupDetail>>,
    /// When that answer landed.
    pub at: Option<Instant>,
    /// The latest failure, if the latest answer was one.
    pub error: Option<String>,
    /// Lag over time per partition, for this group only.
    pub partitions: PartitionHistories,
    /// Which member (index into the description's members) owns each
    /// partition in its current assignment; built once per answer.
    pub owners: HashMap<(String, i32), usize>,
    /// Request bookkeeping.
    pub poll: Poll,
}

impl DetailView {
    fn new(group: &str) -> DetailView {
        DetailView {
            group: group.to_owned(),
            detail: None,
            at: None,
            error: None,
            partitions: PartitionHistories::new(HISTORY_SAMPLES),
            owners: HashMap::new(),
            poll: Poll::default(),
        }
    }
}

/// Everything the UI knows about consumer groups.
#[derive(Debug)]
pub struct GroupsStore {
    /// The latest group list (kept, with its age, while the next is awaited).
    pub overview: Option<Arc<Overview>>,
    /// When it landed.
    pub overview_at: Option<Instant>,
    /// The latest list failure, if the latest answer was one.
    pub overview_error: Option<String>,
    /// Request bookkeeping of the whole list (listed, described, every lag).
    pub list: Poll,
    /// Request bookkeeping of the visible rows' lag.
    pub visible: Poll,
    /// The group being viewed, if one is or was.
    pub detail: Option<DetailView>,
    /// Total lag over time per group (groups no longer listed are dropped).
    pub histories: BTreeMap<String, LagHistory>,
    /// How often visible data is re-read.
    pub interval: Duration,
    /// Empty and Dead groups are hidden from the list.
    pub hide_inactive: bool,
    /// Only groups of this type are listed (`K` cycles it).
    pub only_type: Option<crate::groups::GroupType>,
    /// Answers received (rows depend on them).
    pub answers: u64,
    /// Request ids handed out.
    pub next_id: u64,
}

impl Default for GroupsStore {
    fn default() -> Self {
        GroupsStore {
            overview: None,
            overview_at: None,
            overview_error: None,
            list: Poll::default(),
            visible: Poll::default(),
            detail: None,
            histories: BTreeMap::new(),
            interval: DEFAULT_INTERVAL,
            hide_inactive: false,
            only_type: None,
            answers: 0,
            next_id: 0,
        }
    }
}

impl GroupsStore {
    /// Forget the cluster's groups (another context), keeping the settings.
    pub fn reset(&mut self) {
        *self = GroupsStore {
            interval: self.interval,
            hide_inactive: self.hide_inactive,
            only_type: self.only_type.clone(),
            next_id: self.next_id,
            ..GroupsStore::default()
        };
    }

    /// Ask for whatever is on screen at the next chance (the `r` key).
    pub fn expire(&mut self) {
        self.list.expire();
        self.visible.expire();
        if let Some(detail) = &mut self.detail {
            detail.poll.expire();
        }
    }

    /// The detail of `group`, if it is the one held.
    pub fn detail_of(&self, group: &str) -> Option<&DetailView> {
        self.detail.as_ref().filter(|d| d.group == group)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}

/// Ask for the group data the screen shows, if it is due; drop the list
/// when nothing shows it any more.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    let now = state.now;
    let lag_on_topics = state.follow_lag;
    match &state.stack[state.stack.len() - 1].screen {
        Screen::Groups { .. } => return super::group_poll::plan(state, effects),
        // `L` on Topics: the LAG column's groups keep loading there.
        Screen::Module(super::screens::Screen::Topics(_)) if lag_on_topics => {}
        Screen::Group { .. } | Screen::Members { .. } => {}
        _ => return super::group_poll::drop_unseen(state),
    }
    let store = &mut state.groups;
    let interval = store.interval;
    match &state.stack[state.stack.len() - 1].screen {
        Screen::Group { group } | Screen::Members { group } => {
            if store.detail.as_ref().is_none_or(|d| d.group != *group) {
                store.detail = Some(DetailView::new(group));
            }
            if store
                .detail
                .as_ref()
                .is_some_and(|d| d.poll.due(now, interval))
            {
                let request = store.next();
                if let Some(detail) = store.detail.as_mut() {
                    detail.poll = Poll {
                        in_flight: Some(request),
                        last_request: Some(now),
                    };
                }
                effects.push(Effect::FetchGroup {
                    request,
                    group: group.clone(),
                });
            }
        }
        _ => poll_list(store, now, interval, effects),
    }
}

/// Ask for the group list if it is due.
pub(super) fn poll_list(
    store: &mut GroupsStore,
    now: Instant,
    interval: Duration,
    effects: &mut Vec<Effect>,
) {
    if store.list.due(now, interval) {
        let request = store.next();
        store.list = Poll {
            in_flight: Some(request),
            last_request: Some(now),
        };
        effects.push(Effect::FetchGroups { request });
    }
}

/// Take a group list; a stale one (not the request in flight) is dropped.
/// The answer it was built from is garbage once absorbed: the run loop
/// sees it go ([`Action::carried_rows`](super::Action::carried_rows)).
pub fn receive_list(state: &mut AppState, request: u64, result: Result<Arc<Overview>, String>) {
    let store = &mut state.groups;
    if store.list.in_flight != Some(request) {
        return;
    }
    store.list.in_flight = None;
    store.answers += 1;
    let overview = match result {
        Ok(overview) => overview,
        Err(error) => {
            state.notice = Some(format!("consumer groups: {error}"));
            store.overview_error = Some(error);
            return;
        }
    };
    let now = state.now;
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
    if let Some(notice) = unlisted(&overview.failed_brokers) {
        state.notice = Some(notice);
    }
    // What changed since the last read, and the partitions STUCK or moving
    // again, go on the events timeline.
    let events = state
        .sources
        .groups
        .list(store.overview.as_deref(), &overview, now, state.wall);
    super::event_sources::publish(state, &events);
    let store = &mut state.groups;
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
    store.visible = Poll {
        in_flight: None,
        last_request: Some(now),
    };
}

/// Take one group's detail; a stale one is dropped.
pub fn receive_detail(
    state: &mut AppState,
    request: u64,
    result: Result<Arc<GroupDetail>, String>,
) {
    let now = state.now;
    let store = &mut state.groups;
    let Some(view) = store
        .detail
        .as_mut()
        .filter(|d| d.poll.in_flight == Some(request))
    else {
        return;
    };
    view.poll.in_flight = None;
    store.answers += 1;
    let detail = match result {
        Ok(detail) => detail,
        Err(error) => {
            state.notice = Some(format!("group '{}': {error}", view.group));
            view.error = Some(error);
            return;
        }
    };
    view.partitions.record(now, &detail.lag);
    let members = !detail.description.members.is_empty();
    let events = state
        .sources
        .groups
        .group(&view.group, members, &detail.lag, now, state.wall);
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
    super::event_sources::publish(state, &events);
}

/// The notice for brokers whose groups could not be listed (the first one
/// named), whether the whole list or a re-listing was read.
pub(super) fn unlisted(failed: &[(i32, String)]) -> Option<String> {
    let (broker, error) = failed.first()?;
    Some(format!(
        "groups on broker {broker} could not be listed: {error}"
    ))
}

/// Narrow the list to the next group type in turn (classic, consumer,
/// share, streams, then every type again), and say so.
pub fn cycle_type(state: &mut AppState) {
    use crate::groups::GroupType;
    let next = match &state.groups.only_type {
        None => Some(GroupType::Classic),
        Some(GroupType::Classic) => Some(GroupType::Consumer),
        Some(GroupType::Consumer) => Some(GroupType::Share),
        Some(GroupType::Share) => Some(GroupType::Streams),
        Some(_) => None,
    };
    state.notice = Some(match &next {
        Some(t) => format!("only {t} groups"),
        None => "groups of every type".to_owned(),
    });
    state.groups.only_type = next;
}
