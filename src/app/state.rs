//! The whole model of the UI.

use std::collections::HashMap;
use std::time::{Instant, SystemTime};

use crate::meta::{TopicPartition, Watermarks};

use super::action::DegradedInfo;
use super::filter::Scratch;
use super::keymap::Keymap;
use super::screen::{Screen, View};
use super::stores::sizes::SizeStore;

pub use super::screens::partitions::MOVED_HIGHLIGHT;

/// The input line's mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Keys are commands.
    Normal,
    /// Typing a `/` filter.
    Filter(String),
    /// Typing a `:` command.
    Command(String),
}

/// Where the connection stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Not connected yet.
    Connecting {
        /// Attempts so far.
        attempt: u32,
        /// The latest failure, if any.
        error: Option<String>,
        /// Whether another attempt will come by itself; false after a
        /// failure only a change to the context can fix (credentials,
        /// certificates), which `r` or `:ctx` tries again.
        retrying: bool,
    },
    /// Connected: the snapshot is live.
    Connected,
}

/// Low/high watermarks seen, for the visible rows.
#[derive(Debug, Default)]
pub struct WatermarkStore {
    /// Per partition.
    pub partitions: HashMap<TopicPartition, Watermarks>,
    /// Per topic: the sum of high − low over its partitions, when all are known.
    pub topic_totals: HashMap<String, i64>,
    /// The request in flight, if any.
    pub in_flight: Option<u64>,
    /// When the last request was sent.
    pub last_request: Option<Instant>,
    /// What the last request asked for (to re-ask when the window moves).
    pub last_asked: Vec<TopicPartition>,
    /// A fingerprint of the visible window `last_asked` was built from: an
    /// unchanged window is not listed again on every update.
    pub last_window: u64,
    /// Answers in a row that changed no watermark (an idle cluster): the
    /// interval between reads grows with them, and the first change
    /// brings it back.
    pub quiet: u32,
    /// Answers received so far.
    pub answers: u64,
    /// Request ids handed out.
    pub next_id: u64,
    /// Messages per second per topic (its partitions' high watermarks summed).
    pub topic_rates: HashMap<String, super::throughput::Throughput>,
    /// Messages per second per partition.
    pub partition_rates: HashMap<TopicPartition, super::throughput::Throughput>,
}

/// The model.
#[allow(clippy::struct_excessive_bools)] // independent toggles, not a state machine
pub struct AppState {
    /// The context's name.
    pub context: String,
    /// Every context in the config file (for `:ctx` completion).
    pub contexts: Vec<String>,
    /// The bootstrap addresses being used (shown while connecting).
    pub bootstrap: Vec<String>,
    /// Whether the context is read-only.
    pub read_only: bool,
    /// Key bindings.
    pub keymap: Keymap,
    /// The navigation stack; never empty, the last entry is on screen.
    pub stack: Vec<View>,
    /// Input mode.
    pub mode: Mode,
    /// The help overlay is open.
    pub show_help: bool,
    /// Internal topics are listed (the Topics screen's store has a copy).
    pub show_internal: bool,
    /// `L`: the group list keeps loading while Topics shows, for its LAG
    /// column (the Topics screen's store has a copy).
    pub follow_lag: bool,
    /// The connection.
    pub link: Link,
    /// Partitions in the snapshot (counted once per snapshot, not per frame).
    pub partition_total: usize,
    /// The generation of the snapshot `update` was last given.
    pub generation: u64,
    /// Refresh failures, if any.
    pub degraded: Option<DegradedInfo>,
    /// kscope's own reachability of the cluster (the latest liveness check).
    pub health: Option<std::sync::Arc<crate::meta::Health>>,
    /// A refresh was asked for and has not landed yet.
    pub refreshing: bool,
    /// The latest notice for the status line.
    pub notice: Option<String>,
    /// Monotonic now, from the last tick.
    pub now: Instant,
    /// Wall clock now, from the last tick.
    pub wall: SystemTime,
    /// Terminal size.
    pub width: u16,
    /// Terminal size.
    pub height: u16,
    /// What the TUI derives events from itself (groups, min ISR).
    pub sources: super::stores::event_sources::EventSources,
    /// The recent events of the subject on screen (Partitions, Brokers, a
    /// group), picked from the timeline (`screens.events`).
    pub strip: super::stores::event_strip::Strip,
    /// When each partition last changed leader.
    pub moved_at: HashMap<(String, i32), Instant>,
    /// When the latest of them moved: while within [`MOVED_HIGHLIGHT`], some
    /// row's highlight is still due to fade, so the clock changes the frame.
    pub last_moved: Option<Instant>,
    /// Watermarks.
    pub watermarks: WatermarkStore,
    /// Disk usage (brokers, topics).
    pub sizes: SizeStore,
    /// The screen modules' cluster-scoped data.
    pub screens: super::screens::Stores,
    /// The source of the stores' request ids (kept across `:ctx`, so an
    /// answer from the previous cluster never matches a new request).
    pub requests: super::screens::requests::RequestIds,
    /// The cursor over a recording, when one is replayed (`kscope replay`).
    pub replay: Option<super::stores::replay::Replay>,
    /// `q` was pressed.
    pub quit: bool,
    /// Matching scratch space.
    pub(crate) scratch: Scratch,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("context", &self.context)
            .field("stack", &self.stack)
            .field("mode", &self.mode)
            .field("link", &self.link)
            .field("generation", &self.generation)
            .finish_non_exhaustive()
    }
}

impl AppState {
    /// A model for `context`, connecting, on the Topics screen.
    pub fn new(context: &str, bootstrap: Vec<String>, keymap: Keymap) -> Self {
        AppState {
            context: context.to_owned(),
            contexts: Vec::new(),
            bootstrap,
            read_only: false,
            keymap,
            stack: vec![View::new(Screen::topics())],
            mode: Mode::Normal,
            show_help: false,
            show_internal: false,
            follow_lag: false,
            link: Link::Connecting {
                attempt: 0,
                error: None,
                retrying: true,
            },
            partition_total: 0,
            generation: 0,
            degraded: None,
            health: None,
            refreshing: false,
            notice: None,
            now: Instant::now(),
            wall: SystemTime::now(),
            width: 80,
            height: 24,
            sources: super::stores::event_sources::EventSources::default(),
            strip: super::stores::event_strip::Strip::default(),
            moved_at: HashMap::new(),
            last_moved: None,
            watermarks: WatermarkStore::default(),
            sizes: SizeStore::default(),
            screens: super::screens::Stores::default(),
            requests: super::screens::requests::RequestIds::default(),
            replay: None,
            quit: false,
            scratch: Scratch::default(),
        }
    }

    /// The view on screen.
    pub fn view(&self) -> &View {
        // The stack is never empty: `back` keeps the last entry.
        &self.stack[self.stack.len() - 1]
    }

    /// The view on screen, mutably.
    pub fn view_mut(&mut self) -> &mut View {
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    /// Milliseconds since the epoch of the wall clock.
    pub fn now_ms(&self) -> i64 {
        self.wall
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }

    /// The time rows and data ages are read against now.
    pub fn clock(&self) -> super::screens::Clock {
        super::screens::Clock {
            now: self.now,
            now_ms: self.now_ms(),
            wall: self.wall,
        }
    }

    /// Forget everything about the cluster (another context).
    pub fn reset_cluster(&mut self) {
        // The fleet stays under the new context's Topics screen: Esc goes
        // back to it.
        let fleet = self
            .stack
            .iter()
            .find(|v| v.screen == Screen::fleet())
            .cloned();
        self.stack = fleet.into_iter().collect();
        self.stack.push(View::new(Screen::topics()));
        self.generation = 0;
        self.degraded = None;
        self.health = None;
        self.sources = super::stores::event_sources::EventSources::default();
        self.strip = super::stores::event_strip::Strip::default();
        self.moved_at.clear();
        self.last_moved = None;
        self.watermarks = WatermarkStore::default();
        self.sizes.reset();
        // Each module's store starts afresh or carries what is not the
        // cluster's (the groups list's settings, the fleet, the Messages
        // time zone and topic mappings).
        self.screens = self.screens.carry();
        // The session's toggles outlive the cluster: the new Topics store
        // gets them too.
        self.screens.receive(self.topics_toggles(), self.clock());
        self.link = Link::Connecting {
            attempt: 0,
            error: None,
            retrying: true,
        };
    }

    /// The session's toggles, for the Topics screen's store.
    pub fn topics_toggles(&self) -> super::screens::Msg {
        super::screens::Msg::Topics(super::screens::topics::Msg::Toggles {
            internal: self.show_internal,
            follow_lag: self.follow_lag,
        })
    }

    /// Rows held in the big cluster-scoped lists (the groups list): cheap
    /// to count. The run loop compares it around `update` and gives the
    /// allocator's free pages back to the OS when it falls a lot.
    pub fn held_rows(&self) -> usize {
        let overview = self.screens.groups.overview.as_ref();
        overview.map_or(0, |o| o.groups.len())
    }

    /// Whether there is a cluster to show: connected now, or a snapshot of
    /// this context arrived before (a later reconnect keeps showing it).
    pub fn has_cluster(&self) -> bool {
        !matches!(self.link, Link::Connecting { .. }) || self.generation > 0
    }

    /// How many table rows fit on the screen on top of the stack.
    pub fn page(&self) -> usize {
        let rows = super::layout::table_rows(&self.view().screen, self.height);
        rows.saturating_sub(usize::from(self.strip.height())).max(1)
    }

    /// Whether some partition's recent-move highlight has yet to fade.
    pub fn highlights_fading(&self) -> bool {
        self.last_moved
            .is_some_and(|at| self.now.saturating_duration_since(at) < MOVED_HIGHLIGHT)
    }

    /// Whether the partition changed leader recently.
    pub fn recently_moved(&self, topic: &str, partition: i32) -> bool {
        self.moved_at
            .get(&(topic.to_owned(), partition))
            .is_some_and(|at| self.now.saturating_duration_since(*at) < MOVED_HIGHLIGHT)
    }
}
