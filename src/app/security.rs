//! The security screens' data — every ACL, the ACLs that apply to one
//! topic, SCRAM users, client quotas — asked while such a screen shows,
//! every [`INTERVAL`], and kept with its age. A refusal or a cluster
//! without an authorizer is kept as the answer (the screen says so once),
//! never retried faster than the interval.

use std::sync::Arc;
use std::time::Duration;

use crate::inspect::security::{Acl, Acls, Credential, ScramUser};
use crate::inspect::{Error, Quota};

use super::action::Effect;
use super::screen::Screen;
use super::screens::requests::Requests;
use super::state::{AppState, Link};

/// How often a security screen's data is re-read while shown.
pub const INTERVAL: Duration = Duration::from_secs(10);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// Which security listing a screen shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Security {
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
}

/// What the security screens show: the listing asked for and its answer.
pub type SecurityStore = Requests<Security, Answer>;

/// The listing a screen shows, if it is a security screen.
pub fn on_screen(screen: &Screen) -> Option<&Security> {
    match screen {
        Screen::Security { of } => Some(of),
        _ => None,
    }
}

/// Ask for the listing on screen if it is due.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    let Some(what) = on_screen(&state.view().screen).cloned() else {
        return;
    };
    let Some(request) =
        state
            .security
            .ask(&mut state.requests, &what, state.now, (INTERVAL, GIVE_UP))
    else {
        return;
    };
    effects.push(Effect::FetchSecurity { request, what });
}

/// Take an answer; a stale one is dropped.
pub fn receive(state: &mut AppState, request: u64, answer: Arc<Answer>) {
    state.security.receive(request, answer, state.now);
}

/// The rows of a security screen, filtered by `keep` on the row's text.
pub fn build(
    store: &SecurityStore,
    what: &Security,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    let Some(answer) = store.held_for(what) else {
        return Vec::new();
    };
    let texts: Vec<String> = match answer {
        Answer::Acls(_) => answer
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
        Answer::Users(_) => answer
            .credentials()
            .iter()
            .map(|c| format!("{} {}", c.user, c.mechanism))
            .collect(),
        Answer::Quotas(_) => answer
            .quotas()
            .iter()
            .map(|q| format!("{} {}", q.entity, q.key))
            .collect(),
    };
    texts
        .iter()
        .enumerate()
        .filter(|(_, text)| keep(text))
        .map(|(i, _)| i)
        .collect()
}

/// Sort `rows` of a security screen by `column`.
pub fn sort(store: &SecurityStore, what: &Security, column: usize, rows: &mut Vec<usize>) {
    use crate::columns::{security, sort_indices};
    let Some(answer) = store.held_for(what) else {
        return;
    };
    match answer {
        Answer::Acls(_) => sort_indices(rows, security::acl_columns().get(column), |i| {
            answer.acls().get(i)
        }),
        Answer::Users(_) => sort_indices(rows, security::user_columns().get(column), |i| {
            answer.credentials().get(i)
        }),
        Answer::Quotas(_) => sort_indices(rows, security::quota_columns().get(column), |i| {
            answer.quotas().get(i)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn store_asking(what: &Security, id: u64) -> SecurityStore {
        SecurityStore {
            in_flight: Some((id, what.clone(), Instant::now())),
            ..SecurityStore::default()
        }
    }

    #[test]
    fn only_the_answer_asked_for_last_is_kept() {
        let mut state = AppState::new("test", Vec::new(), super::super::keymap::Keymap::default());
        state.security = store_asking(&Security::Users, 2);
        receive(&mut state, 1, Arc::new(Answer::Quotas(Ok(Vec::new()))));
        assert!(state.security.answer.is_none(), "request 1 is stale");
        let users = Answer::users(Ok(vec![ScramUser {
            name: "alice".to_owned(),
            credentials: vec![("SCRAM-SHA-256", 4096), ("SCRAM-SHA-512", 4096)],
        }]));
        receive(&mut state, 2, Arc::new(users));
        let held = state.security.held_for(&Security::Users).expect("held");
        assert_eq!(held.credentials().len(), 2, "one row per mechanism");
        assert!(state.security.held_for(&Security::Quotas).is_none());
        let mut all = |_: &str| true;
        assert_eq!(build(&state.security, &Security::Users, &mut all), [0, 1]);
        let mut sha512 = |text: &str| text.contains("512");
        assert_eq!(build(&state.security, &Security::Users, &mut sha512), [1]);
    }
}
