//! What the security screens list and hold: which listing (ACLs, SCRAM
//! users, quotas), the cluster's answer for it, under the shared request
//! bookkeeping.

use crate::app::screens::requests::Requests;
use crate::inspect::security::{Acl, Acls, Credential, ScramUser};
use crate::inspect::{Error, Quota};

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
    pub(super) fn texts(&self) -> Vec<String> {
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

/// What the security screens show: the listing asked for and its answer
/// (one store for the four listings: one is on screen at a time).
pub type Store = Requests<Listing, Answer>;
