//! The Clients screen, who touches a topic (`w` on Topics or Partitions,
//! `:clients TOPIC`): the producers writing it now, the groups reading it
//! with their members, and the principals its ACLs allow or deny —
//! `inspect::clients` read every [`INTERVAL`] while shown, flattened into
//! one table ([`flatten`]) when it lands; Enter on a group's row opens its
//! offsets.

pub mod columns;
mod draw;
pub mod flatten;

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::app::failure::Failure;
use crate::inspect::clients::TopicClients;
use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Goto, Module, Seen};
use super::requests::{RequestIds, Requests};
use columns::ClientRow;

/// How often the answer is read again while shown.
pub const INTERVAL: Duration = Duration::from_secs(10);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(30);

/// The topic the screen shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    /// Its name.
    pub topic: String,
}

/// A request for the worker: read who touches the topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Request id.
    pub request: u64,
    /// The topic.
    pub topic: String,
}

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The answer to the [`Query`] with this request id.
    Answer {
        /// The request id it answers.
        request: u64,
        /// Who touches the topic, or why it could not be read.
        answer: Result<TopicClients, Failure>,
    },
}

/// The rows of the topic asked for.
pub type Store = Requests<String, Vec<ClientRow>>;

impl Store {
    /// Row `index` of the answer held for `topic`.
    pub fn row(&self, topic: &str, index: usize) -> Option<&ClientRow> {
        self.held_for(&topic.to_owned())?.get(index)
    }
}

impl Module for Topic {
    type Store = Store;
    type Query = Query;
    type Msg = Msg;
    type Source = Cluster;
    const DRILLABLE: bool = true;

    fn title(&self) -> String {
        format!("who touches '{}'", crate::anonymize::name(crate::anonymize::Kind::Topic, &self.topic))
    }

    fn headers(&self) -> Vec<&'static str> {
        crate::columns::headers(&columns::table())
    }

    fn plan(&self, store: &mut Store, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let now = seen.now;
        let request = store.ask(ids, &self.topic, now, (INTERVAL, GIVE_UP))?;
        Some(Query {
            request,
            topic: self.topic.clone(),
        })
    }

    /// Take an answer (flattened into rows; a failure is one problem row
    /// read now); a stale one is dropped.
    fn receive(store: &mut Store, msg: Msg, clock: Clock) {
        let Msg::Answer { request, answer } = msg;
        let rows = match answer {
            Ok(clients) => flatten::rows(&clients),
            Err(error) => vec![ClientRow {
                role: "?",
                who: "-".to_owned(),
                detail: error.message,
                read_at_ms: clock.now_ms,
                problem: true,
                group: None,
            }],
        };
        store.receive(request, Arc::new(rows), clock.now);
    }

    fn expire(_: &mut Store) {
        // Read every interval only: `r` refreshes the metadata, not this.
    }

    fn answers(store: &Store) -> u64 {
        store.answers
    }

    /// The rows `/` keeps (role, who and detail).
    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        store
            .held_for(&self.topic)
            .map(|rows| {
                rows.iter()
                    .enumerate()
                    .filter(|(_, r)| keep(&format!("{} {} {}", r.role, r.who, r.detail)))
                    .map(|(i, _)| i)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn sort(&self, _: &Store, _: Clock, _: usize, _: &mut Vec<usize>) {
        // Writers, readers, principals: the order they are read in.
    }

    fn visible(
        &self,
        store: &Store,
        (_, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(window.filter_map(|i| store.row(&self.topic, i)), theme)
    }

    fn status(&self, _: &Store, _: Instant) -> String {
        String::new()
    }

    /// A group reading the topic (its row or a member's): its offsets.
    fn enter(&self, store: &mut Store, index: usize) -> Option<Goto<Self>> {
        let group = store.row(&self.topic, index)?.group.clone()?;
        Some(Goto::Group(group))
    }

    async fn fetch(cluster: Cluster, query: Query) -> Msg {
        let Query { request, topic } = query;
        let answer = crate::inspect::clients::topic_clients(&cluster, &topic)
            .await
            .map_err(Failure::from);
        Msg::Answer { request, answer }
    }
}
