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

use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::Rect;

use crate::inspect::security::{Acl, Acls, Credential, ScramUser};
use crate::inspect::{Error, Quota};
use crate::meta::Cluster;
use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

use super::module::{Clock, Module, Seen};
use super::requests::{RequestIds, Requests};

/// How often a security screen's data is re-read while shown.
pub const INTERVAL: Duration = Duration::from_secs(10);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// Which security listing the screen shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Listing {
    /// Every ACL (`:acls`).
    Acls,
    /// The ACLs that apply to a topic (pattern type MATCH).
    TopicAcls(String),
    /// SCRAM users and their mechanisms (`:users`).
    Users,
    /// Client quotas (`:quotas`).
    Quotas,
}

/// What the cluster answered for one listing.
#[derive(Debug, Clone)]
pub enum Answer {
    /// ACL bindings (all, or those of a topic), or no authorizer.
    Acls(Result<Acls, Error>),
    /// SCRAM credentials, one per user and mechanism.
    Users(Result<Vec<Credential>, Error>),
    /// Client quotas, one per entity and key.
    Quotas(Result<Vec<Quota>, Error>),
}

impl Answer {
    /// The SCRAM users as one row per credential.
    pub fn users(result: Result<Vec<ScramUser>, Error>) -> Answer {
        Answer::Users(result.map(crate::inspect::security::credentials))
    }

    /// The failure, if the cluster refused or failed.
    pub fn error(&self) -> Option<&Error> {
        match self {
            Answer::Acls(Err(e)) | Answer::Users(Err(e)) | Answer::Quotas(Err(e)) => Some(e),
            _ => None,
        }
    }

    /// The ACL bindings, if this is a listing of them.
    pub fn acls(&self) -> &[Acl] {
        match self {
            Answer::Acls(Ok(Acls::Listed(acls))) => acls,
            _ => &[],
        }
    }

    /// The credentials, if this is the users' listing.
    pub fn credentials(&self) -> &[Credential] {
        match self {
            Answer::Users(Ok(rows)) => rows,
            _ => &[],
        }
    }

    /// The quotas, if this is their listing.
    pub fn quotas(&self) -> &[Quota] {
        match self {
            Answer::Quotas(Ok(rows)) => rows,
            _ => &[],
        }
    }

    /// Each row's filter text, in source order.
    fn texts(&self) -> Vec<String> {
        match self {
            Answer::Acls(_) => self
                .acls()
                .iter()
                .map(|a| {
                    format!(
                        "{} {} {} {} {} {} {}",
                        a.principal,
                        a.host,
                        a.operation,
                        a.permission,
                        a.resource_type,
                        a.pattern_type,
                        a.resource_name
                    )
                })
                .collect(),
            Answer::Users(_) => self
                .credentials()
                .iter()
                .map(|c| format!("{} {}", c.user, c.mechanism))
                .collect(),
            Answer::Quotas(_) => self
                .quotas()
                .iter()
                .map(|q| format!("{} {}", q.entity, q.key))
                .collect(),
        }
    }
}

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

/// What the security screens show: the listing asked for and its answer
/// (one store for the four listings: one is on screen at a time).
pub type Store = Requests<Listing, Answer>;

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
