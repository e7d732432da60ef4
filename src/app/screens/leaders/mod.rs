//! The Leaders screen (`:leaders`, `L` on a topic, Enter on a broker): the
//! leader-movement log, newest first, with how many of each kind the
//! filter lets through in the title. It fetches nothing: the movement feed
//! the session already follows reaches its store as [`Msg::Moved`], which
//! `update` forwards when a batch lands; the store keeps the last
//! [`KEPT`] leader movements (the other kinds of the event model go to the
//! events timeline only).

pub mod columns;
mod draw;

use std::collections::{BTreeMap, VecDeque};
use std::convert::Infallible;
use std::fmt::Write as _;
use std::time::Instant;

use crate::meta::{Cluster, MovementEvent, MovementKind};
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Module, Seen};
use super::requests::RequestIds;

/// How many movement events the screen keeps.
pub const KEPT: usize = 10_000;

/// What the screen shows: the whole log (a filter narrows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Log;

/// The log: leader movements in arrival order, oldest first.
#[derive(Debug, Default)]
pub struct Store {
    /// At most [`KEPT`] events; the oldest are dropped.
    pub events: VecDeque<MovementEvent>,
    /// Events taken in all, also those since dropped from the front: the
    /// rows are rebuilt when it moves.
    pub seen: u64,
}

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A batch from the movement feed, every kind (the store keeps the
    /// leader movements).
    Moved(Vec<MovementEvent>),
}

/// The text a movement row is filtered by: topic, partition, kind, and every
/// broker involved as `b<ID>` (so `/~\bb2\b` finds broker 2's events).
pub fn movement_key(event: &MovementEvent) -> String {
    use MovementKind as K;
    let brokers: Vec<i32> = match &event.kind {
        K::LeaderChanged { from, to, .. } => vec![*from, *to],
        K::PartitionOffline { from, .. } => vec![*from],
        K::PartitionOnline { to, .. } => vec![*to],
        K::IsrShrank { removed, .. } => removed.clone(),
        K::IsrExpanded { added, .. } => added.clone(),
        K::ReplicasChanged { from, to } => from.iter().chain(to).copied().collect(),
        K::BrokerJoined { broker, .. }
        | K::BrokerLeft { broker }
        | K::BrokerNotAnswering { broker }
        | K::BrokerAnswering { broker }
        | K::BrokerFenced { broker }
        | K::BrokerUnfenced { broker } => vec![*broker],
        K::MetadataLive { leader } => vec![*leader],
        K::ControllerChanged { from, to } => from.iter().chain(to).copied().collect(),
        K::QuorumLeaderChanged { from, to, .. } => from.iter().chain([to]).copied().collect(),
        K::TopicCreated { .. }
        | K::TopicDeleted
        | K::MetadataFrozen { .. }
        | K::PartitionsAdded { .. }
        | K::EventsSuppressed { .. }
        | K::GroupStateChanged { .. }
        | K::GroupMembersChanged { .. }
        | K::GroupRecordsLost { .. }
        | K::GroupStuck { .. }
        | K::GroupMoving { .. }
        | K::GroupLagTrendChanged { .. }
        | K::GroupReconciling { .. }
        | K::GroupReconciled { .. }
        | K::TopicConfigChanged { .. } => Vec::new(),
        K::UnderMinIsr { isr, .. } | K::MinIsrRestored { isr, .. } => isr.clone(),
        K::BrokerConfigChanged { broker, .. } => broker.iter().copied().collect(),
    };
    let mut key = format!(
        "{} {} {}",
        event.topic.as_deref().unwrap_or("-"),
        event.partition.map_or_else(String::new, |p| p.to_string()),
        event.kind.name()
    );
    for broker in brokers {
        let _ = write!(key, " b{broker}");
    }
    key
}

impl Module for Log {
    type Store = Store;
    /// Nothing is fetched: the feed arrives by itself.
    type Query = Infallible;
    type Msg = Msg;
    type Source = Cluster;
    const DESCENDING: bool = true;

    fn title(&self) -> String {
        "leader movement".to_owned()
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    fn plan(&self, _: &mut Store, _: &mut RequestIds, _: &Seen) -> Option<Infallible> {
        None
    }

    fn receive(store: &mut Store, msg: Msg, _: Clock) {
        let Msg::Moved(events) = msg;
        for event in events.into_iter().filter(|e| e.kind.is_leader_movement()) {
            store.seen += 1;
            store.events.push_back(event);
            if store.events.len() > KEPT {
                store.events.pop_front();
            }
        }
    }

    fn expire(_: &mut Store) {}

    fn answers(store: &Store) -> u64 {
        store.seen
    }

    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        store
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| keep(&movement_key(e)))
            .map(|(i, _)| i)
            .collect()
    }

    fn sort(&self, store: &Store, _: Clock, column: usize, rows: &mut Vec<usize>) {
        crate::columns::sort_indices(rows, columns::table().get(column), |i| store.events.get(i));
    }

    fn counts(&self, store: &Store, rows: &[usize]) -> BTreeMap<&'static str, usize> {
        let mut kinds = BTreeMap::new();
        for event in rows.iter().filter_map(|&i| store.events.get(i)) {
            *kinds.entry(event.kind.name()).or_insert(0) += 1;
        }
        kinds
    }

    fn counts_seconds(&self, _: &Store) -> bool {
        false
    }

    fn visible(
        &self,
        store: &Store,
        (_, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(window.filter_map(|i| store.events.get(i)), theme)
    }

    fn status(&self, _: &Store, _: Instant) -> String {
        String::new()
    }

    async fn fetch(_: Cluster, query: Infallible) -> Msg {
        match query {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{SystemTime, UNIX_EPOCH};

    fn event(kind: MovementKind) -> MovementEvent {
        MovementEvent {
            time: UNIX_EPOCH,
            topic: Some("orders".to_owned()),
            partition: Some(0),
            kind,
        }
    }

    #[test]
    fn keeps_leader_movement_and_counts_the_kinds_of_the_rows() {
        let clock = Clock {
            now: Instant::now(),
            now_ms: 0,
            wall: SystemTime::UNIX_EPOCH,
        };
        let moved = MovementKind::LeaderChanged {
            from: 1,
            to: 2,
            epoch: 3,
        };
        let added = MovementKind::PartitionsAdded { from: 1, to: 2 };
        assert!(!added.is_leader_movement(), "for the events timeline only");
        let mut store = Store::default();
        let batch = vec![event(moved.clone()), event(added), event(moved)];
        Log::receive(&mut store, Msg::Moved(batch), clock);
        assert_eq!(store.events.len(), 2);
        assert_eq!(Log::answers(&store), 2);
        let rows = Log.rows(&store, &mut |key| key.contains(" b2"));
        assert_eq!(rows, [0, 1], "filtered by the brokers named: {rows:?}");
        assert_eq!(Log.counts(&store, &rows[..1]).get("leader_changed"), Some(&1));
        assert_eq!(movement_key(&store.events[0]), "orders 0 leader_changed b1 b2");
    }
}
