//! The TUI's own event sources (`super::super::event_sources` feeds them).

use std::sync::Arc;

use crate::inspect::{ConfigWatch, Sweep};
use crate::meta::min_isr::MinIsrWatch;

/// The TUI's own event sources (reset with the cluster).
#[derive(Debug)]
pub struct EventSources {
    /// The min-ISR kinds, from snapshots and topic configs.
    pub(in crate::app) min_isr: MinIsrWatch,
    /// The config kinds, from the config sweeps.
    pub(in crate::app) configs: ConfigWatch,
    /// The last config sweep (its `min.insync.replicas` serve the min-ISR
    /// kinds), and how many arrived.
    pub(in crate::app) swept: (Option<Arc<Sweep>>, u64),
    /// The snapshot generation, configs answer count and sweep count last
    /// looked at.
    pub(in crate::app) looked: Option<(u64, u64, u64)>,
}

impl Default for EventSources {
    fn default() -> Self {
        EventSources::with_limits(crate::meta::Limits::default())
    }
}

impl EventSources {
    /// Sources with other rate limits (tests).
    pub fn with_limits(limits: crate::meta::Limits) -> Self {
        EventSources {
            min_isr: MinIsrWatch::with_limits(limits),
            configs: ConfigWatch::with_limits(limits),
            swept: (None, 0),
            looked: None,
        }
    }
}
