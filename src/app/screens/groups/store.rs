//! What the consumer-group screens keep: the group list (every group, with
//! lag) with each group's lag over the session, and the detail of the
//! group being viewed, each with its request bookkeeping ([`Requests`]);
//! the group events derived from the reads (their source, and those not
//! yet put on the timeline); copies of what a group's offsets rows read of
//! other stores (config summaries, log dirs); and the list's settings
//! (re-read interval, Empty/Dead hidden, one group type only), which
//! outlive a context switch.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::groups::stuck_events::GroupEvents;
use crate::app::failure::Failure;
use crate::groups::{GroupDetail, GroupType, LagHistory, Overview, PartitionHistories};
use crate::inspect::{ClusterSizes, TopicSummary};
use crate::meta::MovementEvent;

use super::super::requests::Requests;
use super::columns::offsets::STUCK_READS;

/// What a group's offsets rows read besides the store: the topics' config
/// summaries and the brokers' log dirs (LOSS IN), and the wall clock (the
/// oldest unconsumed record's age).
#[derive(Debug, Clone, Copy)]
pub struct Around<'a> {
    /// Config summaries per topic.
    pub summaries: &'a HashMap<String, TopicSummary>,
    /// The latest log dirs answer, if any.
    pub sizes: Option<&'a ClusterSizes>,
    /// Milliseconds since the epoch, now.
    pub now_ms: i64,
}

/// How often visible group data is re-read when the config says nothing.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(5);
/// A request older than this is forgotten (its answer will be dropped).
pub const GIVE_UP: Duration = Duration::from_secs(30);
/// Samples kept per group's lag history: 40 samples of 20 bytes bound a
/// group's history to 0.8 KB, which every group of the session keeps
/// (10,000 on a large cluster; the bound is 4 KB a group with its
/// row). That is 200 s at the default interval for the rows on screen,
/// 40 minutes for the rest, polled every
/// [`REST_EVERY`](super::plan::REST_EVERY) intervals; the
/// LAG OVER TIME sparkline shows the last
/// [`SPARK_WIDTH`](crate::columns::group_format::SPARK_WIDTH).
pub const HISTORY_SAMPLES: usize = 40;

/// The group whose detail is on screen, with what is known of it.
#[derive(Debug)]
pub struct DetailView {
    /// The group.
    pub group: String,
    /// The latest answer (kept, with its age, while the next is awaited).
    pub detail: Option<Arc<GroupDetail>>,
    /// When that answer landed.
    pub at: Option<Instant>,
    /// The latest failure, if the latest answer was one.
    pub error: Option<Failure>,
    /// Lag over time per partition, for this group only.
    pub partitions: PartitionHistories,
    /// Which member (index into the description's members) owns each
    /// partition in its current assignment; built once per answer.
    pub owners: HashMap<(String, i32), usize>,
    /// Request bookkeeping.
    pub poll: Requests,
}

impl DetailView {
    /// Nothing known yet of `group`.
    pub fn new(group: &str) -> DetailView {
        DetailView {
            group: group.to_owned(),
            detail: None,
            at: None,
            error: None,
            partitions: PartitionHistories::new(HISTORY_SAMPLES),
            owners: HashMap::new(),
            poll: Requests::default(),
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
    pub overview_error: Option<Failure>,
    /// Request bookkeeping of the whole list (listed, described, every lag).
    pub list: Requests,
    /// Request bookkeeping of the visible rows' lag.
    pub visible: Requests,
    /// The group being viewed, if one is or was.
    pub detail: Option<DetailView>,
    /// Total lag over time per group (groups no longer listed are dropped).
    pub histories: BTreeMap<String, LagHistory>,
    /// How often visible data is re-read.
    pub interval: Duration,
    /// Empty and Dead groups are hidden from the list.
    pub hide_inactive: bool,
    /// Only groups of this type are listed (`K` cycles it).
    pub only_type: Option<GroupType>,
    /// Answers received (rows depend on them).
    pub answers: u64,
    /// The group kinds of events, derived from the reads as they land.
    pub watch: GroupEvents,
    /// Events derived and not yet put on the timeline.
    pub events: Vec<MovementEvent>,
    /// What the status line should say of the latest answer (a failure).
    pub notice: Option<String>,
    /// Config summaries per topic (a copy of the configs store's).
    pub summaries: HashMap<String, TopicSummary>,
    /// The latest log dirs answer (a copy of the sizes store's).
    pub sizes: Option<Arc<ClusterSizes>>,
}

impl Default for GroupsStore {
    fn default() -> Self {
        GroupsStore {
            overview: None,
            overview_at: None,
            overview_error: None,
            list: Requests::default(),
            visible: Requests::default(),
            detail: None,
            histories: BTreeMap::new(),
            interval: DEFAULT_INTERVAL,
            hide_inactive: false,
            only_type: None,
            answers: 0,
            watch: GroupEvents::with_limits(STUCK_READS, crate::meta::Limits::default()),
            events: Vec::new(),
            notice: None,
            summaries: HashMap::new(),
            sizes: None,
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
            ..GroupsStore::default()
        };
    }

    /// The events derived since last taken, for the timeline.
    pub fn take_events(&mut self) -> Vec<MovementEvent> {
        std::mem::take(&mut self.events)
    }

    /// What a group's offsets rows read besides the group data, at
    /// `now_ms` (ms since the epoch).
    pub fn around(&self, now_ms: i64) -> Around<'_> {
        Around {
            summaries: &self.summaries,
            sizes: self.sizes.as_deref(),
            now_ms,
        }
    }

    /// Ask for whatever is on screen at the next chance (the `r` key).
    pub fn expire(&mut self) {
        self.list.expire();
        self.visible.expire();
        if let Some(detail) = &mut self.detail {
            detail.poll.expire();
        }
    }

    /// The detail view of `group`, if it is the one held.
    pub fn detail_of(&self, group: &str) -> Option<&DetailView> {
        self.detail.as_ref().filter(|d| d.group == group)
    }

    /// The detail of `group`, if it has arrived.
    pub fn detail(&self, group: &str) -> Option<&GroupDetail> {
        self.detail_of(group)?.detail.as_deref()
    }

    /// The name of group `index` of the list (what a list row points at).
    pub fn group_name(&self, index: usize) -> Option<String> {
        self.overview
            .as_ref()?
            .groups
            .get(index)
            .map(|g| g.listing.group.clone())
    }

    /// The detail of `group` with its view, when it has arrived.
    pub fn held(&self, group: &str) -> Option<(&DetailView, &GroupDetail)> {
        let view = self.detail_of(group)?;
        Some((view, view.detail.as_deref()?))
    }

    /// Narrow the list to the next group type in turn (classic, consumer,
    /// share, streams, then every type again): what the status line says.
    pub fn cycle_type(&mut self) -> String {
        let next = match &self.only_type {
            None => Some(GroupType::Classic),
            Some(GroupType::Classic) => Some(GroupType::Consumer),
            Some(GroupType::Consumer) => Some(GroupType::Share),
            Some(GroupType::Share) => Some(GroupType::Streams),
            Some(_) => None,
        };
        let notice = match &next {
            Some(t) => format!("only {t} groups"),
            None => "groups of every type".to_owned(),
        };
        self.only_type = next;
        notice
    }
}
