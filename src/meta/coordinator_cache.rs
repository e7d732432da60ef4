//! [`CoordinatorCache`]: which broker coordinates a group (or transactional
//! id), bounded.
//!
//! Browsing a cluster of 10 000 groups looks up many coordinators over a
//! session; the cache must not keep every key it ever saw. It holds at most
//! [`CAPACITY`] entries: when full, entries not asked about for [`IDLE`] go
//! first, then the least recently asked, down to three quarters of the
//! capacity (so the sweep, O(entries), runs once per quarter-capacity
//! inserts, not on every one).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::routing::CoordinatorKind;

/// Entries kept at most.
pub const CAPACITY: usize = 10_000;
/// An entry not asked about for this long goes first when the cache is full.
pub const IDLE: Duration = Duration::from_mins(10);

type Key = (CoordinatorKind, String);

/// A bounded map from a coordinator key to its node id.
#[derive(Debug)]
pub struct CoordinatorCache {
    capacity: usize,
    entries: Mutex<HashMap<Key, (i32, Instant)>>,
}

impl Default for CoordinatorCache {
    fn default() -> Self {
        Self::new(CAPACITY)
    }
}

impl CoordinatorCache {
    /// An empty cache of at most `capacity` entries (at least 4).
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(4),
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The cached coordinator of `key`, marking it used now.
    pub fn get(&self, kind: CoordinatorKind, key: &str) -> Option<i32> {
        self.get_at(kind, key, Instant::now())
    }

    fn get_at(&self, kind: CoordinatorKind, key: &str, now: Instant) -> Option<i32> {
        let mut entries = self.entries.lock().ok()?;
        let entry = entries.get_mut(&(kind, key.to_owned()))?;
        entry.1 = now;
        Some(entry.0)
    }

    /// Remember `node` as `key`'s coordinator.
    pub fn insert(&self, kind: CoordinatorKind, key: &str, node: i32) {
        self.insert_at(kind, key, node, Instant::now());
    }

    fn insert_at(&self, kind: CoordinatorKind, key: &str, node: i32, now: Instant) {
        let Ok(mut entries) = self.entries.lock() else {
            return;
        };
        if entries.len() >= self.capacity && !entries.contains_key(&(kind, key.to_owned())) {
            self.sweep(&mut entries, now);
        }
        entries.insert((kind, key.to_owned()), (node, now));
    }

    /// Forget `key`'s coordinator (it moved).
    pub fn remove(&self, kind: CoordinatorKind, key: &str) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.remove(&(kind, key.to_owned()));
        }
    }

    /// How many entries are held.
    pub fn len(&self) -> usize {
        self.entries.lock().map_or(0, |entries| entries.len())
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn sweep(&self, entries: &mut HashMap<Key, (i32, Instant)>, now: Instant) {
        let target = self.capacity * 3 / 4;
        entries.retain(|_, (_, used)| now.saturating_duration_since(*used) < IDLE);
        if entries.len() <= target {
            return;
        }
        let mut used: Vec<Instant> = entries.values().map(|(_, used)| *used).collect();
        let cut = entries.len() - target;
        let (_, oldest_kept, _) = used.select_nth_unstable(cut);
        let oldest_kept = *oldest_kept;
        entries.retain(|_, (_, used)| *used >= oldest_kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GROUP: CoordinatorKind = CoordinatorKind::Group;

    #[test]
    fn a_hit_returns_the_node_and_remove_forgets_it() {
        let cache = CoordinatorCache::new(8);
        cache.insert(GROUP, "g", 2);
        assert_eq!(cache.get(GROUP, "g"), Some(2));
        assert_eq!(cache.get(CoordinatorKind::Transaction, "g"), None);
        cache.remove(GROUP, "g");
        assert_eq!(cache.get(GROUP, "g"), None);
    }

    #[test]
    fn looking_up_many_groups_stays_within_the_capacity_keeping_the_recent_ones() {
        let cache = CoordinatorCache::new(100);
        let t0 = Instant::now();
        for i in 0..10_000u64 {
            let at = t0 + Duration::from_millis(i);
            cache.insert_at(GROUP, &format!("g{i}"), 1, at);
            // One group is asked about all along.
            assert_eq!(cache.get_at(GROUP, "g0", at), Some(1));
            assert!(cache.len() <= 100, "{} entries after {i}", cache.len());
        }
        assert_eq!(cache.get(GROUP, "g9999"), Some(1));
        assert_eq!(cache.get(GROUP, "g0"), Some(1), "kept: in use");
        assert_eq!(cache.get(GROUP, "g5000"), None, "evicted: not asked since");
    }

    #[test]
    fn idle_entries_go_first() {
        let cache = CoordinatorCache::new(4);
        let t0 = Instant::now();
        cache.insert_at(GROUP, "idle", 1, t0);
        let later = t0 + IDLE + Duration::from_secs(1);
        for name in ["a", "b", "c"] {
            cache.insert_at(GROUP, name, 1, later);
        }
        cache.insert_at(GROUP, "d", 1, later);
        assert_eq!(cache.get(GROUP, "idle"), None);
        assert_eq!(cache.len(), 4);
    }
}
