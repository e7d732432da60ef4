//! The stores `AppState` holds beside the screen modules' own, each apart
//! from the functions over the whole state that change it (in `app/`,
//! under the store's name): a store imports neither the state nor the
//! actions, so the state can hold it without an import cycle.

pub mod event_sources;
pub mod event_strip;
pub mod replay;
pub mod sizes;
pub mod watermarks;

use std::collections::HashMap;
use std::time::Instant;

use event_sources::EventSources;
use event_strip::Strip;
use sizes::SizeStore;
use watermarks::WatermarkStore;

/// What the session holds of the cluster beside the screen modules' own
/// stores: what it asks for the rows of several screens (watermarks, disk
/// sizes), derives events from (groups, min ISR) and highlights (leader
/// moves). `:ctx` replaces it whole, as it does the modules' `Stores`.
#[derive(Debug, Default)]
pub struct ClusterStores {
    /// What the TUI derives events from itself (groups, min ISR).
    pub sources: EventSources,
    /// The recent events of the subject on screen (Partitions, Brokers, a
    /// group), picked from the timeline (`screens.events`).
    pub strip: Strip,
    /// When each partition last changed leader.
    pub moved_at: HashMap<(String, i32), Instant>,
    /// When the latest of them moved: while within
    /// [`MOVED_HIGHLIGHT`](crate::app::screens::partitions::MOVED_HIGHLIGHT),
    /// some row's highlight is still due to fade, so the clock changes the
    /// frame.
    pub last_moved: Option<Instant>,
    /// Watermarks of the rows on screen.
    pub watermarks: WatermarkStore,
    /// Disk usage (brokers, topics).
    pub sizes: SizeStore,
}

impl ClusterStores {
    /// The stores the next context's session starts with: all fresh, but
    /// the size requests' ids go on (an answer from the old cluster never
    /// matches a new request).
    #[must_use]
    pub fn carry(&mut self) -> ClusterStores {
        let mut sizes = std::mem::take(&mut self.sizes);
        sizes.reset();
        ClusterStores {
            sizes,
            ..ClusterStores::default()
        }
    }
}
