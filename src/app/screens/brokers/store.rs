//! What the Brokers screen keeps: the brokers of the latest snapshot with
//! their role and leader count, every broker seen this session (to tell
//! "down" from "never there" and show a down broker's address), since when
//! each missing one is down, each one's leader count over the session,
//! kscope's liveness view and the latest disk sizes. All of it arrives as
//! [`Msg`]s that `update` forwards from what the session already holds; the
//! rows are read from here alone.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::time::SystemTime;

use crate::inspect::{BrokerDisk, ClusterSizes};
use crate::meta::{BrokerInfo, Health, MetadataSnapshot};

/// How many leader-count samples each broker's sparkline keeps.
pub const HISTORY_LEN: usize = 60;

/// A broker of the snapshot, as the screen shows it.
#[derive(Debug, Clone)]
pub struct Live {
    /// Its registration.
    pub info: BrokerInfo,
    /// `controller`, `voter` or `broker`.
    pub role: &'static str,
    /// Partitions it leads.
    pub leaders: usize,
}

/// What a snapshot says about the brokers, taken when it is installed.
#[derive(Debug, Clone)]
pub struct Observed {
    /// Its brokers, by id.
    pub live: Vec<Live>,
    /// When it was taken in (wall clock): a broker missing from it is down
    /// since then.
    pub wall: SystemTime,
}

impl Observed {
    /// The brokers of `snap`, taken in at `wall`.
    pub fn of(snap: &MetadataSnapshot, wall: SystemTime) -> Observed {
        let live = snap
            .brokers()
            .iter()
            .map(|b| Live {
                info: b.clone(),
                role: if snap.controller_id() == Some(b.node_id) {
                    "controller"
                } else if snap.quorum_voters().contains(&b.node_id) {
                    "voter"
                } else {
                    "broker"
                },
                leaders: snap.leader_count(b.node_id),
            })
            .collect();
        Observed { live, wall }
    }
}

/// What reaches the store: the shared data it shows, forwarded by `update`
/// as it lands.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A new snapshot's brokers.
    Snapshot(Arc<Observed>),
    /// kscope's latest liveness check (brokers not answering it).
    Health(Option<Arc<Health>>),
    /// The latest disk sizes (`None` before the first read).
    Sizes(Option<Arc<ClusterSizes>>),
}

/// One row's broker: live (with its role and leader count) or down since.
#[derive(Debug, Clone, Copy)]
pub enum Seen<'a> {
    /// In the latest snapshot.
    Live(&'a Live),
    /// Missing from it, as last seen, since then.
    Down(&'a BrokerInfo, SystemTime),
}

impl<'a> Seen<'a> {
    /// Its registration (the last one seen, for a down broker).
    pub fn info(self) -> &'a BrokerInfo {
        match self {
            Seen::Live(live) => &live.info,
            Seen::Down(info, _) => info,
        }
    }
}

/// The screen's data (cluster-scoped: `:ctx` starts a fresh one).
#[derive(Debug, Default)]
pub struct Store {
    /// The latest snapshot's brokers.
    live: Vec<Live>,
    /// Every broker seen this session, as last seen.
    known: BTreeMap<i32, BrokerInfo>,
    /// Brokers seen before and missing from the snapshot, with since when
    /// (the header names them too).
    pub down: BTreeMap<i32, SystemTime>,
    /// Leader count per broker, one sample per snapshot.
    history: BTreeMap<i32, VecDeque<u64>>,
    /// kscope's latest liveness check.
    health: Option<Arc<Health>>,
    /// The latest disk sizes.
    sizes: Option<Arc<ClusterSizes>>,
    /// Messages taken: the rows are rebuilt when it moves.
    pub taken: u64,
}

impl Store {
    /// Take `msg` in.
    pub fn receive(&mut self, msg: Msg) {
        self.taken += 1;
        match msg {
            Msg::Snapshot(observed) => self.observe(&observed),
            Msg::Health(health) => self.health = health,
            Msg::Sizes(sizes) => self.sizes = sizes,
        }
    }

    /// A new snapshot: brokers missing from it are down since it was taken
    /// in, brokers back are up, and each known one's leader count sampled.
    fn observe(&mut self, observed: &Observed) {
        for live in &observed.live {
            self.known.insert(live.info.node_id, live.info.clone());
            self.down.remove(&live.info.node_id);
        }
        let leaders: BTreeMap<i32, usize> = observed
            .live
            .iter()
            .map(|l| (l.info.node_id, l.leaders))
            .collect();
        for &id in self.known.keys() {
            if !leaders.contains_key(&id) {
                self.down.entry(id).or_insert(observed.wall);
            }
            let history = self.history.entry(id).or_default();
            if history.len() == HISTORY_LEN {
                history.pop_front();
            }
            history.push_back(leaders.get(&id).copied().unwrap_or(0) as u64);
        }
        self.live.clone_from(&observed.live);
    }

    /// How many rows the screen has (live and down).
    pub fn listed(&self) -> usize {
        self.live.len() + self.down.len()
    }

    /// Row `index`: the snapshot's brokers, then the down ones as last
    /// seen, with since when they are down.
    pub fn broker(&self, index: usize) -> Option<Seen<'_>> {
        if let Some(live) = self.live.get(index) {
            return Some(Seen::Live(live));
        }
        let (id, since) = self.down.iter().nth(index - self.live.len())?;
        Some(Seen::Down(self.known.get(id)?, *since))
    }

    /// The row of broker `id`, if it is listed.
    pub fn position(&self, id: i32) -> Option<usize> {
        (0..self.listed()).find(|&i| self.broker(i).is_some_and(|b| b.info().node_id == id))
    }

    /// Since when broker `id` has not answered kscope's liveness check.
    pub fn not_answering_since(&self, id: i32) -> Option<SystemTime> {
        self.health.as_ref()?.not_answering.get(&id).copied()
    }

    /// Whether some broker is down or not answering (its age counts up).
    pub fn any_down(&self) -> bool {
        !self.down.is_empty()
            || self
                .live
                .iter()
                .any(|l| self.not_answering_since(l.info.node_id).is_some())
    }

    /// Broker `id`'s leader count over the session.
    pub fn history(&self, id: i32) -> Vec<u64> {
        self.history
            .get(&id)
            .map(|h| h.iter().copied().collect())
            .unwrap_or_default()
    }

    /// Broker `id`'s disk: `None` before the first read, `Some(None)` when
    /// it did not answer the last one.
    pub fn disk(&self, id: i32) -> Option<Option<BrokerDisk>> {
        self.sizes
            .as_ref()
            .map(|s| s.brokers.get(&id).copied().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn live(node_id: i32, leaders: usize) -> Live {
        Live {
            info: BrokerInfo {
                node_id,
                host: "b".to_owned(),
                port: 9092,
                rack: None,
            },
            role: "broker",
            leaders,
        }
    }

    fn snapshot(live: Vec<Live>, secs: u64) -> Msg {
        let wall = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        Msg::Snapshot(Arc::new(Observed { live, wall }))
    }

    #[test]
    fn a_broker_missing_is_down_since_then_after_the_live_ones_and_up_again() {
        let mut store = Store::default();
        store.receive(snapshot(vec![live(1, 2), live(2, 1)], 10));
        store.receive(snapshot(vec![live(1, 3)], 20));
        store.receive(snapshot(vec![live(1, 3)], 30));
        assert_eq!(store.listed(), 2);
        assert!(matches!(store.broker(0), Some(Seen::Live(l)) if l.info.node_id == 1));
        let since = SystemTime::UNIX_EPOCH + Duration::from_secs(20);
        assert!(
            matches!(store.broker(1), Some(Seen::Down(b, at)) if b.node_id == 2 && at == since),
            "down since the first snapshot without it"
        );
        assert_eq!(store.position(2), Some(1));
        assert_eq!(store.history(1), [2, 3, 3]);
        assert_eq!(store.history(2), [1, 0, 0], "a down broker leads nothing");
        assert!(store.any_down());
        store.receive(snapshot(vec![live(1, 2), live(2, 1)], 40));
        assert!(!store.any_down(), "back up");
        assert_eq!(store.taken, 4, "each message rebuilds the rows");
    }

    #[test]
    fn liveness_and_disks_as_last_forwarded() {
        let mut store = Store::default();
        store.receive(snapshot(vec![live(1, 0)], 10));
        assert_eq!(store.disk(1), None, "before the first read");
        let mut health = Health::default();
        health.not_answering.insert(1, SystemTime::UNIX_EPOCH);
        store.receive(Msg::Health(Some(Arc::new(health))));
        assert_eq!(store.not_answering_since(1), Some(SystemTime::UNIX_EPOCH));
        assert!(store.any_down(), "not answering counts up too");
        store.receive(Msg::Health(None));
        assert_eq!(store.not_answering_since(1), None);
    }
}
