//! The Events screen (`:events`): the events timeline, every kind of the
//! event model newest first, with how bad each is and how kscope learned
//! it. It fetches nothing: the movement feed and the group events `update`
//! derives reach its store ([`store`], which also counts the last five
//! minutes for the header and feeds the strips under other screens) as
//! [`Msg`]s. Enter on an event opens its subject's screen with the
//! subject's row selected. The column table is in [`columns`], the
//! drawing in `draw.rs`.

pub mod columns;
mod draw;
pub mod store;

use std::convert::Infallible;
use std::time::Instant;

use crate::meta::{Cluster, MovementEvent};
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module, Seen};
use super::requests::RequestIds;

pub use store::EventsStore;

/// What the screen shows: the whole timeline (a filter narrows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeline;

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A batch of events (from the movement feed, or the groups' changes
    /// between two reads), taken at the clock's wall time.
    Arrived(Vec<MovementEvent>),
    /// A tick: the header's counts of the last five minutes age.
    Aged,
}

impl Module for Timeline {
    type Store = EventsStore;
    /// Nothing is fetched: the events arrive by themselves.
    type Query = Infallible;
    type Msg = Msg;
    type Source = Cluster;
    const DRILLABLE: bool = true;
    const DESCENDING: bool = true;

    fn title(&self) -> String {
        "events".to_owned()
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    fn plan(&self, _: &mut EventsStore, _: &mut RequestIds, _: &Seen) -> Option<Infallible> {
        None
    }

    fn receive(store: &mut EventsStore, msg: Msg, clock: Clock) {
        match msg {
            Msg::Arrived(events) => {
                store.push(&events);
                store.count_recent(clock.wall);
            }
            // Looked at only while some are counted.
            Msg::Aged if store.recent != [0; 3] => store.count_recent(clock.wall),
            Msg::Aged => {}
        }
    }

    fn expire(_: &mut EventsStore) {}

    fn answers(store: &EventsStore) -> u64 {
        store.seen
    }

    fn rows(&self, store: &EventsStore, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        store
            .keys()
            .enumerate()
            .filter(|(_, key)| keep(key))
            .map(|(i, _)| i)
            .collect()
    }

    fn sort(&self, store: &EventsStore, _: Clock, column: usize, rows: &mut Vec<usize>) {
        crate::columns::sort_indices(rows, columns::table().get(column), |i| store.ring.get(i));
    }

    /// The times shown are the events' own: nothing counts up.
    fn counts_seconds(&self, _: &EventsStore) -> bool {
        false
    }

    fn visible(
        &self,
        store: &EventsStore,
        (_, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(window.filter_map(|i| store.ring.get(i)), theme)
    }

    fn status(&self, _: &EventsStore, _: Instant) -> String {
        String::new()
    }

    /// A group's event opens the group's offsets, a partition's event its
    /// topic's Partitions screen on that partition, a topic's its
    /// Partitions screen, a broker's the Brokers screen on that broker.
    /// Events about the whole cluster have no screen of their own.
    fn enter(&self, store: &mut EventsStore, index: usize) -> Option<Goto<Self>> {
        let event = store.ring.get(index)?;
        if let Some(group) = event.group() {
            return Some(Goto::Group(group.to_owned()));
        }
        match (&event.topic, event.broker()) {
            (Some(topic), _) => Some(Goto::Partition {
                topic: topic.clone(),
                partition: event.partition,
            }),
            (None, Some(broker)) => Some(Goto::Broker(broker)),
            (None, None) => None,
        }
    }

    async fn fetch(_: Cluster, query: Infallible) -> Msg {
        match query {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::MovementKind;
    use std::time::{Duration, UNIX_EPOCH};

    fn event(topic: Option<&str>, partition: Option<i32>, kind: MovementKind) -> MovementEvent {
        MovementEvent {
            time: UNIX_EPOCH + Duration::from_secs(1_000),
            topic: topic.map(str::to_owned),
            partition,
            kind,
        }
    }

    fn clock(secs: u64) -> Clock {
        Clock {
            now: Instant::now(),
            now_ms: 0,
            wall: UNIX_EPOCH + Duration::from_secs(secs),
        }
    }

    #[test]
    fn takes_every_kind_counts_the_recent_and_opens_the_subject() {
        let mut store = EventsStore::default();
        let batch = vec![
            event(Some("orders"), Some(3), MovementKind::PartitionOffline { from: 2, epoch: 7 }),
            event(None, None, MovementKind::BrokerLeft { broker: 2 }),
            event(
                None,
                None,
                MovementKind::QuorumLeaderChanged {
                    from: Some(1),
                    to: 2,
                    epoch: 5,
                },
            ),
        ];
        Timeline::receive(&mut store, Msg::Arrived(batch), clock(1_010));
        assert_eq!(Timeline::answers(&store), 3);
        assert_eq!(store.recent.iter().sum::<usize>(), 3, "all in the last 5 minutes");
        Timeline::receive(&mut store, Msg::Aged, clock(1_000 + 301));
        assert_eq!(store.recent, [0; 3], "aged out");
        assert_eq!(Timeline::answers(&store), 3, "a tick rebuilds no rows");

        let rows = Timeline.rows(&store, &mut |key| key.contains("broker 2"));
        assert_eq!(rows, [1], "matched on the subject");
        let rows = Timeline.rows(&store, &mut |key| key.contains("critical"));
        assert_eq!(rows, [0], "and on the severity");

        let partition = Goto::Partition {
            topic: "orders".to_owned(),
            partition: Some(3),
        };
        assert_eq!(Timeline.enter(&mut store, 0), Some(partition));
        assert_eq!(Timeline.enter(&mut store, 1), Some(Goto::Broker(2)));
        assert_eq!(Timeline.enter(&mut store, 2), None, "the whole cluster");
    }

    #[test]
    fn the_group_dynamics_kinds_filter_by_name_and_open_their_group() {
        let mut store = EventsStore::default();
        let batch = vec![
            event(
                Some("orders"),
                None,
                MovementKind::GroupLagTrendChanged {
                    group: "billing".to_owned(),
                    from: "steady".to_owned(),
                    to: "growing".to_owned(),
                    rate_before: 0,
                    rate_after: 400,
                    lag: 6000,
                },
            ),
            event(
                None,
                None,
                MovementKind::GroupReconciling {
                    group: "audit".to_owned(),
                    group_epoch: Some(3),
                    assignment_epoch: Some(3),
                    members: Vec::new(),
                },
            ),
            event(
                None,
                None,
                MovementKind::GroupReconciled {
                    group: "audit".to_owned(),
                    members: Vec::new(),
                },
            ),
        ];
        Timeline::receive(&mut store, Msg::Arrived(batch), clock(1_010));
        assert_eq!(store.recent, [0, 1, 2], "the growth warns, the rest inform");
        let rows = Timeline.rows(&store, &mut |key| key.contains("group_lag_trend_changed"));
        assert_eq!(rows, [0]);
        let rows = Timeline.rows(&store, &mut |key| key.contains("group_reconcil"));
        assert_eq!(rows, [1, 2]);
        let rows = Timeline.rows(&store, &mut |key| key.contains("orders"));
        assert_eq!(rows, [0], "the trend's topic is its subject's");
        assert_eq!(
            Timeline.enter(&mut store, 0),
            Some(Goto::Group("billing".to_owned()))
        );
        assert_eq!(
            Timeline.enter(&mut store, 2),
            Some(Goto::Group("audit".to_owned()))
        );
    }
}
