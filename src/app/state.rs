//! The whole model of the UI.

use std::time::{Instant, SystemTime};

use super::action::DegradedInfo;
use super::filter::Scratch;
use super::keymap::Keymap;
use super::screen::{Screen, View};
use super::stores::ClusterStores;

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
    /// What the session holds of the cluster beside the screen modules'
    /// stores (watermarks, disk sizes, event sources, leader moves):
    /// replaced whole on `:ctx`.
    pub cluster: ClusterStores,
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
            cluster: ClusterStores::default(),
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
        self.cluster = self.cluster.carry();
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
        rows.saturating_sub(usize::from(self.cluster.strip.height()))
            .max(1)
    }

    /// Whether some partition's recent-move highlight has yet to fade.
    pub fn highlights_fading(&self) -> bool {
        self.cluster
            .last_moved
            .is_some_and(|at| self.now.saturating_duration_since(at) < MOVED_HIGHLIGHT)
    }

    /// Whether the partition changed leader recently.
    pub fn recently_moved(&self, topic: &str, partition: i32) -> bool {
        self.cluster
            .moved_at
            .get(&(topic.to_owned(), partition))
            .is_some_and(|at| self.now.saturating_duration_since(*at) < MOVED_HIGHLIGHT)
    }
}
