//! The Cluster screen's data (quorum, features, reassignments): asked while
//! the screen shows, every [`INTERVAL`], kept with its age.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::inspect::ClusterInfo;

use super::action::Effect;
use super::screen::Screen;
use super::state::{AppState, Link};

/// How often the Cluster screen's data is re-read while shown.
pub const INTERVAL: Duration = Duration::from_secs(5);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// What the Cluster screen shows.
#[derive(Debug, Default)]
pub struct ClusterStore {
    /// The latest answer.
    pub info: Option<Arc<ClusterInfo>>,
    /// When it landed.
    pub at: Option<Instant>,
    /// The request in flight and when it left.
    pub in_flight: Option<(u64, Instant)>,
    /// When the last request left.
    pub last_request: Option<Instant>,
    /// Answers received (rows depend on them).
    pub answers: u64,
    /// Request ids handed out.
    pub next_id: u64,
}

impl ClusterStore {
    /// Forget the cluster (another context), keeping the ids.
    pub fn reset(&mut self) {
        *self = ClusterStore {
            next_id: self.next_id,
            ..ClusterStore::default()
        };
    }

    /// Ask again at the next chance (the `r` key).
    pub fn expire(&mut self) {
        self.in_flight = None;
        self.last_request = None;
    }
}

/// Ask for the cluster's data if the Cluster screen shows and it is due.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected || state.view().screen != Screen::Cluster {
        return;
    }
    let now = state.now;
    let store = &mut state.cluster;
    let since = |at: Instant| now.saturating_duration_since(at);
    let due = match store.in_flight {
        Some((_, sent)) => since(sent) >= GIVE_UP,
        None => store.last_request.is_none_or(|at| since(at) >= INTERVAL),
    };
    if !due {
        return;
    }
    store.next_id += 1;
    store.in_flight = Some((store.next_id, now));
    store.last_request = Some(now);
    effects.push(Effect::FetchCluster {
        request: store.next_id,
    });
}

/// Take an answer; a stale one is dropped.
pub fn receive(state: &mut AppState, request: u64, info: Arc<ClusterInfo>) {
    let store = &mut state.cluster;
    if store.in_flight.map(|(id, _)| id) != Some(request) {
        return;
    }
    store.in_flight = None;
    store.answers += 1;
    store.info = Some(info);
    store.at = Some(state.now);
}

/// The rows of the Cluster screen: the quorum's replicas, filtered by
/// `keep` on node id and role.
pub fn build(store: &ClusterStore, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
    let Some(Ok(quorum)) = store.info.as_ref().map(|i| &i.quorum) else {
        return Vec::new();
    };
    quorum
        .replicas
        .iter()
        .enumerate()
        .filter(|(_, r)| keep(&format!("{} {}", r.node_id, r.role)))
        .map(|(i, _)| i)
        .collect()
}
