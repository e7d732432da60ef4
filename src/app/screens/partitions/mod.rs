//! The Partitions screen (`:partitions TOPIC`, Enter on a topic): one
//! topic's partitions with their leader, replicas, ISR, watermarks, sizes
//! and rates, the eligible leader replicas (KIP-966) and, for a tiered
//! topic (KIP-405), the local log start; Enter opens a partition's
//! records. Its own fetch is what the metadata does not say ([`extras`]:
//! the ELR and local log starts, asked for the topic on screen every
//! [`extras::INTERVAL`]). The snapshot, the watermarks, the disk sizes, the
//! config summaries (asked by the session for the visible rows, shared
//! with other screens) and the partitions that just changed leader reach
//! its store ([`store`]) as [`Msg`]s that `update` forwards when they land,
//! so the rows are built from the store alone. The column table is in
//! [`columns`], the drawing in `draw.rs`.

pub mod columns;
mod draw;
pub mod extras;
pub mod store;

use std::time::Instant;

use crate::meta::{Cluster, TopicPartition};
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module, Seen};
use super::requests::RequestIds;

pub use extras::{Answer, Asked};
pub use store::{MOVED_HIGHLIGHT, Msg, Store};

/// What the screen shows: the partitions of one topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    /// Its name.
    pub topic: String,
}

/// What the screen asks the worker: the extras of a topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// The request id.
    pub request: u64,
    /// The topic, and whether it is tiered.
    pub asked: Asked,
}

impl Topic {
    /// Partition `index` of the topic as the table shows it.
    fn row<'a>(&'a self, store: &'a Store, index: usize) -> Option<columns::Row<'a>> {
        let topic = self.topic.as_str();
        let p = store.snap.topic(topic)?.partitions.get(index)?;
        let key = TopicPartition::new(topic, p.partition);
        let throughput = store.rates.get(&key);
        let bytes = store.bytes.get(&key);
        Some(columns::Row {
            topic,
            partition: p,
            marks: store.marks.get(&key).copied(),
            min_isr: store.summaries.get(topic).and_then(|s| s.min_isr),
            rate: throughput.and_then(|r| r.rate),
            rates: throughput.map(|r| &r.history),
            bytes_rate: bytes.and_then(|r| r.rate),
            bytes_rates: bytes.map(|r| &r.history),
            sizes: store.sizes.as_deref(),
            elr: store.extras.elr(topic, p.partition),
            local_start: store.extras.local_start(topic, p.partition),
        })
    }
}

impl Module for Topic {
    type Store = Store;
    type Query = Query;
    type Msg = Msg;
    type Source = Cluster;
    const DRILLABLE: bool = true;

    fn title(&self) -> String {
        format!("partitions of '{}'", crate::anonymize::name(crate::anonymize::Kind::Topic, &self.topic))
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    /// The extras of the topic on screen, when due.
    fn plan(&self, store: &mut Store, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let now = seen.now;
        let asked = Asked {
            topic: self.topic.clone(),
            tiered: store
                .summaries
                .get(&self.topic)
                .is_some_and(|s| s.remote_storage),
        };
        let request = store
            .extras
            .ask(ids, &asked, now, (extras::INTERVAL, extras::GIVE_UP))?;
        Some(Query { request, asked })
    }

    fn receive(store: &mut Store, msg: Msg, clock: Clock) {
        store.receive(msg, clock.now);
    }

    fn take_notice(store: &mut Store) -> Option<String> {
        store.notice.take()
    }

    /// `r` does not hurry the extras (they follow the metadata refresh).
    fn expire(_: &mut Store) {}

    fn answers(store: &Store) -> u64 {
        store.taken
    }

    /// Partitions are matched on their number.
    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        store.snap.topic(&self.topic).map_or_else(Vec::new, |t| {
            t.partitions
                .iter()
                .enumerate()
                .filter(|(_, p)| keep(&p.partition.to_string()))
                .map(|(i, _)| i)
                .collect()
        })
    }

    fn sort(&self, store: &Store, _: Clock, column: usize, rows: &mut Vec<usize>) {
        crate::columns::sort_indices(rows, columns::table().get(column), |i| {
            self.row(store, i)
        });
    }

    /// Nothing on the rows counts time (a fading highlight is the
    /// session's to watch).
    fn counts_seconds(&self, _: &Store) -> bool {
        false
    }

    fn visible(
        &self,
        store: &Store,
        (clock, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        let rows = window.filter_map(|i| {
            let row = self.row(store, i)?;
            let moved = store.recently_moved(&self.topic, row.partition.partition, clock.now);
            Some((row, moved))
        });
        draw::visible(rows, theme)
    }

    /// The topic's size on disk.
    fn status(&self, store: &Store, _: Instant) -> String {
        draw::topic_size(store.sizes.as_deref(), &self.topic)
    }

    /// The partition's records.
    fn enter(&self, store: &mut Store, index: usize) -> Option<Goto<Self>> {
        let p = store.snap.topic(&self.topic)?.partitions.get(index)?;
        Some(Goto::Messages {
            topic: self.topic.clone(),
            partition: Some(p.partition),
        })
    }

    async fn fetch(cluster: Cluster, query: Query) -> Msg {
        let Query { request, asked } = query;
        let answer = extras::fetch(&cluster, &asked).await;
        Msg::Extras { request, answer }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::Error;
    use std::time::Duration;

    fn failed() -> Answer {
        Answer {
            elr: Err(Error::Unsupported {
                what: "eligible leader replicas".to_owned(),
                needs: "Kafka 4.0 or newer",
            }),
            local_starts: None,
        }
    }

    #[test]
    fn a_move_is_highlighted_for_a_while_and_a_failure_said_once() {
        let mut store = Store::default();
        let t0 = Instant::now();
        store.receive(Msg::Moved(vec![("orders".to_owned(), 1)]), t0);
        assert!(store.recently_moved("orders", 1, t0 + Duration::from_secs(29)));
        assert!(!store.recently_moved("orders", 1, t0 + MOVED_HIGHLIGHT));
        assert!(!store.recently_moved("orders", 0, t0));

        let shown = Topic {
            topic: "orders".to_owned(),
        };
        let mut ids = RequestIds::default();
        let query = shown.plan(&mut store, &mut ids, &Seen::at(t0)).expect("asked at once");
        assert!(!query.asked.tiered, "no summary: not known to be tiered");
        let answer = Msg::Extras {
            request: query.request,
            answer: failed(),
        };
        Topic::receive(&mut store, answer, clock(t0));
        assert!(Topic::take_notice(&mut store).is_some(), "said when new");
        let later = t0 + extras::INTERVAL;
        let query = shown.plan(&mut store, &mut ids, &Seen::at(later)).expect("due again");
        let answer = Msg::Extras {
            request: query.request,
            answer: failed(),
        };
        Topic::receive(&mut store, answer, clock(later));
        assert_eq!(Topic::take_notice(&mut store), None, "not every interval");
        assert!(store.extras.elr("orders", 0).is_none());
    }

    fn clock(now: Instant) -> Clock {
        Clock {
            now,
            now_ms: 0,
            wall: std::time::SystemTime::UNIX_EPOCH,
        }
    }
}
