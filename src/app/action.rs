//! What can happen to the model, and what the model asks the worker to do.

use std::time::{Instant, SystemTime};

use std::sync::Arc;

use crate::meta::{MovementEvent, TopicPartition, Watermarks};

use super::failure::Failure;
use super::key::Key;

/// An input to [`super::update`].
#[derive(Debug, Clone)]
pub enum Action {
    /// A key press.
    Key(Key),
    /// Mouse wheel up / down.
    ScrollUp,
    ScrollDown,
    /// A left click on a terminal row.
    Click {
        /// The terminal row (0 = top).
        row: u16,
    },
    /// The terminal size.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// Time passed (ages, refresh cadence).
    Tick {
        /// Monotonic now.
        now: Instant,
        /// Wall clock now.
        wall: SystemTime,
    },
    /// A new snapshot of this generation is the one passed to `update`.
    Snapshot {
        /// Its generation.
        generation: u64,
    },
    /// Leader-movement events, oldest first.
    Movements(Vec<MovementEvent>),
    /// A sweep of the cluster's configs landed (the worker sweeps every 30 s
    /// or more): config-change events, and `min.insync.replicas` for the
    /// min-ISR events.
    ConfigSweep(Arc<crate::inspect::Sweep>),
    /// The answer to [`Effect::FetchWatermarks`].
    Watermarks {
        /// The request id it answers.
        request: u64,
        /// The watermarks, or why not.
        result: Result<Vec<(TopicPartition, Watermarks)>, Failure>,
    },
    /// The answer to [`Effect::FetchSizes`].
    Sizes {
        /// The request id it answers.
        request: u64,
        /// Every broker's disk and every topic's size.
        sizes: Arc<crate::inspect::ClusterSizes>,
    },
    /// A message for a screen module's store (the answer to its
    /// [`Effect::Query`]).
    Screen(super::screens::Msg),
    /// Whether metadata refreshes are failing.
    Degraded(Option<DegradedInfo>),
    /// What the latest liveness check found (brokers not answering, the
    /// metadata frozen).
    Health(Option<std::sync::Arc<crate::meta::Health>>),
    /// Connecting failed.
    ConnectFailed {
        /// How many attempts so far.
        attempt: u32,
        /// What failed: transient when the worker tries again by itself,
        /// final when only a change to the context can fix it
        /// ([`Failure::connecting`]).
        error: Failure,
    },
    /// Connected to the context named.
    Connected {
        /// The context.
        context: String,
    },
    /// A message for the status line.
    Notice(String),
    /// `:ctx NAME` resolved (the run loop is connecting to it), or why it
    /// could not be.
    ContextResolved {
        /// The name asked for.
        name: String,
        /// The context, or why it could not be resolved.
        result: Result<Box<crate::config::ResolvedContext>, Failure>,
    },
    /// A `:find` scan's progress, and how it ended once it did.
    Finding {
        /// The scan (`messages::effect::Effect::Find`'s id).
        id: u64,
        /// Records read, their bytes, and the time since it started.
        read: (u64, u64, std::time::Duration),
        /// How it ended (`None`: still scanning).
        end: Option<super::screens::messages::finding::FindEnd>,
    },
    /// The answer to [`Effect::PrepareMapping`]: the topic's mapping is
    /// compiled (or failed, which its values then say).
    MappingPrepared {
        /// The topic.
        topic: String,
    },
    /// The replay's clock: what follows is the recording at `at` (ms since
    /// the Unix epoch), and the screens age things against it.
    ReplayClock {
        /// The time.
        at: i64,
    },
    /// The answer to [`Effect::FetchSchema`].
    Schema {
        /// The schema id asked for.
        id: u32,
        /// The schema compiled, or why not (the marker beside the bytes;
        /// a transient failure is asked again later).
        result: Result<Arc<crate::schema::SchemaInfo>, Failure>,
    },
}

impl Action {
    /// Rows of a big list this action brings (a whole groups list, a
    /// relisting of every group): what `update` does not keep of them is
    /// garbage once it returns, which the run loop counts with
    /// [`AppState::held_rows`](super::AppState::held_rows).
    pub fn carried_rows(&self) -> usize {
        match self {
            Action::Screen(super::screens::Msg::Groups(msg)) => msg.carried_rows(),
            _ => 0,
        }
    }
}

/// Refreshes failing, as shown in the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DegradedInfo {
    /// Since when.
    pub since: SystemTime,
    /// How many refreshes in a row failed.
    pub failures: u32,
    /// The latest error.
    pub error: String,
}

/// Work for the effect worker (network, process), never done in `update`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Leave.
    Quit,
    /// Start polling every context of the config (the fleet screen).
    StartFleet,
    /// A full metadata refresh now.
    Refresh,
    /// Refresh these topics often (what is on screen); empty for none.
    WatchTopics(Vec<String>),
    /// Fetch low/high watermarks; answer with [`Action::Watermarks`].
    FetchWatermarks {
        /// Request id.
        request: u64,
        /// The partitions.
        partitions: Vec<TopicPartition>,
    },
    /// Describe every broker's log dirs; answer with [`Action::Sizes`].
    FetchSizes {
        /// Request id.
        request: u64,
    },
    /// A screen module's fetch; answer with [`Action::Screen`].
    Query(super::screens::Query),
    /// The Messages screen's work: a browse session, a `:find` scan,
    /// saving or copying records.
    Messages(super::screens::messages::effect::Effect),
    /// Resolve the named context and reconnect.
    SwitchContext(String),
    /// Compile the schema the config maps `topic` to (a local file, or a
    /// registry subject's latest version); answers with
    /// [`Action::MappingPrepared`].
    PrepareMapping {
        /// The topic.
        topic: String,
    },
    /// Fetch and compile schema `id` from the context's registry; answers
    /// with [`Action::Schema`].
    FetchSchema {
        /// The schema id.
        id: u32,
    },
    /// The replay's cursor moved to `at`: send the recording's state there,
    /// as the live session's actions (what happened after `from`; from the
    /// start when `None`, the screens having forgotten it).
    Replay {
        /// The cursor (ms since the Unix epoch).
        at: i64,
        /// Where it was, when it moved forward.
        from: Option<i64>,
    },
}
