//! The security screens — every ACL (`:acls`), the ACLs that apply to one
//! topic (`A` on Topics or Partitions, `:acls TOPIC`), SCRAM users
//! (`:users`), client quotas (`:quotas`) — one screen module whose
//! [`Listing`] says which. The listing on screen is asked for every
//! [`INTERVAL`] while shown and kept with its age. A refusal or a cluster
//! without an authorizer is kept as the answer (the notice says so once),
//! never retried faster than the interval. The column tables are in
//! [`columns`], the drawing (rows, age, notice) in `draw.rs`.

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

pub use store::{Answer, Listing, Store};

/// How often a security screen's data is re-read while shown.
pub const INTERVAL: Duration = Duration::from_secs(10);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// A request for the worker: describe the ACLs, users or quotas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Request id.
    pub request: u64,
    /// Which listing.
    pub what: Listing,
}

/// What reaches the store.
#[derive(Debug, Clone)]
pub enum Msg {
    /// The answer to the [`Query`] with this request id.
    Answer {
        /// The request id it answers.
        request: u64,
        /// The listing, or why the cluster gave none.
        answer: Arc<Answer>,
    },
}

impl Module for Listing {
    type Store = Store;
    type Query = Query;
    type Msg = Msg;
    type Source = Cluster;
    const PANEL_ROWS: u16 = draw::PANEL_ROWS;

    fn title(&self) -> String {
        match self {
            Listing::Acls => "ACLs".to_owned(),
            Listing::TopicAcls(topic) => format!(
                "ACLs that apply to topic '{}'",
                crate::anonymize::name(crate::anonymize::Kind::Topic, topic)
            ),
            Listing::Users => "SCRAM users".to_owned(),
            Listing::Quotas => "client quotas".to_owned(),
        }
    }

    fn headers(&self) -> Vec<&'static str> {
        use crate::columns::headers;
        match self {
            Listing::Acls | Listing::TopicAcls(_) => headers(&columns::acl_columns()),
            Listing::Users => headers(&columns::user_columns()),
            Listing::Quotas => headers(&columns::quota_columns()),
        }
    }

    fn plan(&self, store: &mut Store, ids: &mut RequestIds, seen: &Seen) -> Option<Query> {
        let now = seen.now;
        let request = store.ask(ids, self, now, (INTERVAL, GIVE_UP))?;
        Some(Query {
            request,
            what: self.clone(),
        })
    }

    fn receive(store: &mut Store, msg: Msg, clock: Clock) {
        let Msg::Answer { request, answer } = msg;
        store.receive(request, answer, clock.now);
    }

    fn expire(store: &mut Store) {
        store.expire();
    }

    fn answers(store: &Store) -> u64 {
        store.answers
    }

    fn rows(&self, store: &Store, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
        let Some(answer) = store.held_for(self) else {
            return Vec::new();
        };
        answer
            .texts()
            .iter()
            .enumerate()
            .filter(|(_, text)| keep(text))
            .map(|(i, _)| i)
            .collect()
    }

    fn sort(&self, store: &Store, _: Clock, column: usize, rows: &mut Vec<usize>) {
        use crate::columns::sort_indices;
        let Some(answer) = store.held_for(self) else {
            return;
        };
        match answer {
            Answer::Acls(_) => sort_indices(rows, columns::acl_columns().get(column), |i| {
                answer.acls().get(i)
            }),
            Answer::Users(_) => sort_indices(rows, columns::user_columns().get(column), |i| {
                answer.credentials().get(i)
            }),
            Answer::Quotas(_) => sort_indices(rows, columns::quota_columns().get(column), |i| {
                answer.quotas().get(i)
            }),
        }
    }

    fn visible(
        &self,
        store: &Store,
        (_, theme): (Clock, &Theme),
        window: impl Iterator<Item = usize>,
    ) -> Grid {
        draw::visible(self, store.held_for(self), theme, window)
    }

    fn status(&self, store: &Store, now: Instant) -> String {
        draw::status(store.at, now)
    }

    fn draw_panel(
        &self,
        frame: &mut Frame,
        area: Rect,
        store: &Store,
        (_, theme): (Clock, &Theme),
    ) {
        draw::panel(frame, area, self, store.held_for(self), theme);
    }

    async fn fetch(cluster: Cluster, query: Query) -> Msg {
        use crate::inspect::{quotas, security};
        let Query { request, what } = query;
        let answer = match what {
            Listing::Acls => Answer::Acls(security::describe_acls(&cluster).await),
            Listing::TopicAcls(topic) => {
                Answer::Acls(security::describe_topic_acls(&cluster, &topic).await)
            }
            Listing::Users => Answer::users(security::describe_users(&cluster).await),
            Listing::Quotas => Answer::Quotas(quotas::describe_quotas(&cluster).await),
        };
        Msg::Answer {
            request,
            answer: Arc::new(answer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::ScramUser;

    fn store_asking(what: &Listing, id: u64) -> Store {
        Store {
            in_flight: Some((id, what.clone(), Instant::now())),
            ..Store::default()
        }
    }

    fn answered(request: u64, answer: Answer) -> Msg {
        Msg::Answer {
            request,
            answer: Arc::new(answer),
        }
    }

    #[test]
    fn only_the_answer_asked_for_last_is_kept() {
        let clock = Clock {
            now: Instant::now(),
            now_ms: 0,
            wall: std::time::SystemTime::UNIX_EPOCH,
        };
        let mut store = store_asking(&Listing::Users, 2);
        let stale = answered(1, Answer::Quotas(Ok(Vec::new())));
        Listing::receive(&mut store, stale, clock);
        assert!(store.answer.is_none(), "request 1 is stale");
        let users = Answer::users(Ok(vec![ScramUser {
            name: "alice".to_owned(),
            credentials: vec![("SCRAM-SHA-256", 4096), ("SCRAM-SHA-512", 4096)],
        }]));
        Listing::receive(&mut store, answered(2, users), clock);
        let held = store.held_for(&Listing::Users).expect("held");
        assert_eq!(held.credentials().len(), 2, "one row per mechanism");
        assert!(store.held_for(&Listing::Quotas).is_none());
        let mut all = |_: &str| true;
        assert_eq!(Listing::Users.rows(&store, &mut all), [0, 1]);
        let mut sha512 = |text: &str| text.contains("512");
        assert_eq!(Listing::Users.rows(&store, &mut sha512), [1]);
    }
}
