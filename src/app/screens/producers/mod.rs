//! The Producers screen (`T` on a partition): the partition's active
//! producers and the open transactions writing to it, asked while the
//! screen shows, every [`INTERVAL`], kept with their age. Everything the
//! screen is lives here: the store, the query and its answer, planning and
//! receiving, the column table ([`columns`]) and the drawing (`draw.rs`).

pub mod columns;
mod draw;
mod store;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Module, Seen};
use super::requests::RequestIds;

pub use store::{Answer, Store};

/// How often the producers and transactions are re-read while shown.
pub const INTERVAL: Duration = Duration::from_secs(5);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// The partition the screen shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// Its topic.
    pub topic: String,
    /// Its number.
    pub partition: i32,
}

/// A request for the worker: describe the partition's producers and list
/// the open transactions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Request id.
    pub request: u64,
    /// The topic.
    pub topic: String,
    /// The partition.
    pub partition: i32,
}

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The answer to the [`Query`] with this request id.
    Answer {
        /// The request id it answers.
        request: u64,
        /// The producers and open transactions.
        answer: Arc<Answer>,
    },
}

impl Partition {
    /// Producer `index` of this partition as a table row, aged to `now_ms`.
    fn row<'a>(&self, store: &'a Store, now_ms: i64, index: usize) -> Option<columns::Row<'a>> {
        Some(columns::Row {
            producer: store.producers(&self.topic, self.partition).get(index)?,
            now_ms,
        })
    }

    /// The held answer, if it is for this partition.
    fn answer<'a>(&self, store: &'a Store) -> Option<&'a Answer> {
        store.answer_for(&self.topic, self.partition)
    }
}

impl Module for Partition {
    type Store = Store;
    type Query = Query;
    type Msg = Msg;
    type Source = Cluster;
    const PANEL_ROWS: u16 = 4;

    fn title(&self) -> String {
        format!(
            "producers and transactions of '{}' partition {}",
            crate::anonymize::name(crate::anonymize::Kind::Topic, &self.topic),
            self.partition
        )
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    fn plan(&self, store: &mut Store, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let now = seen.now;
        let what = (self.topic.clone(), self.partition);
        let request = store.ask(ids, &what, now, (INTERVAL, GIVE_UP))?;
        Some(Query {
            request,
            topic: what.0,
            partition: what.1,
        })
    }

    fn receive(store: &mut Store, msg: Msg, clock: Clock) {
        match msg {
            Msg::Answer { request, answer } => {
                store.receive(request, answer, clock.now);
            }
        }
    }

    fn expire(store: &mut Store) {
        store.expire();
    }

    fn answers(store: &Store) -> u64 {
        store.answers
    }

    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        store
            .producers(&self.topic, self.partition)
            .iter()
            .enumerate()
            .filter(|(_, p)| keep(&p.producer_id.to_string()))
            .map(|(i, _)| i)
            .collect()
    }

    fn sort(&self, store: &Store, clock: Clock, column: usize, rows: &mut Vec<usize>) {
        crate::columns::sort_indices(rows, columns::table().get(column), |i| {
            self.row(store, clock.now_ms, i)
        });
    }

    fn visible(
        &self,
        store: &Store,
        (clock, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(window.filter_map(|i| self.row(store, clock.now_ms, i)), theme)
    }

    fn status(&self, store: &Store, now: Instant) -> String {
        draw::status(store.at, now)
    }

    fn draw_panel(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &Store,
        (clock, theme): (Clock, &Theme),
    ) {
        draw::panel(frame, area, self.answer(store), (clock, theme));
    }

    async fn fetch(cluster: Cluster, query: Query) -> Msg {
        use crate::inspect::transactions;
        let Query {
            request,
            topic,
            partition,
        } = query;
        let (producers, (open, failed)) = tokio::join!(
            transactions::describe_producers(&cluster, &topic, partition),
            transactions::open_transactions(&cluster),
        );
        let answer = Arc::new(Answer {
            producers,
            transactions: open
                .into_iter()
                .filter(|t| t.touches(&topic, partition))
                .collect(),
            failed,
        });
        Msg::Answer { request, answer }
    }
}
