//! The metadata layer's error: one enum wrapping the connection layer's,
//! plus what only this layer can get wrong (no bootstrap server, a broker the
//! metadata does not name, a request it cannot route, a task that died).
//!
//! A Kafka error code this layer finds in a response is still a
//! `conn::Error::Kafka` (built with [`Error::from_code`]) so that one
//! classifier decides what every code means; the topic, partition or
//! coordinator key goes in its context.

use crate::conn::{self, ApiKey, ErrorCode};

/// What a failed attempt calls for, decided once per failure from the
/// error (`Error::disposition`) and the kind of target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// Retrying cannot help: the error goes to the caller.
    Fatal,
    /// Try again after the backoff; bounded by attempts.
    Retry,
    /// What the request was routed by is stale (a leader moved, a
    /// connection was lost): refresh it, then try again; bounded by
    /// attempts.
    RefreshMetadata,
    /// The coordinator moved or is loading: forget it and look again;
    /// bounded by the policy's
    /// [`coordinator_timeout`](super::RetryPolicy::coordinator_timeout), not attempts.
    RefreshCoordinator,
}

/// Shorthand for results of this layer.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong keeping metadata and routing requests.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Talking to a broker failed, or it answered with an error code.
    #[error(transparent)]
    Conn(#[from] conn::Error),

    /// There was no bootstrap server to try.
    #[error("no bootstrap servers given")]
    NoBootstrap,

    /// A request was aimed at a broker the cluster metadata does not name.
    #[error("broker {0} is not in the cluster metadata")]
    UnknownBroker(i32),

    /// The broker did not answer kscope's last liveness check (hung, or
    /// unreachable): requests for it fail at once instead of waiting out
    /// their timeouts, until a check gets an answer again.
    #[error("broker {0} is not answering")]
    NotAnswering(i32),

    /// A Metadata answer listed no brokers (nothing could be routed).
    #[error("the metadata response named no brokers")]
    NoBrokers,

    /// The caller used the wrong entry point for an API's routing.
    #[error("{api} {how}")]
    Unroutable {
        api: ApiKey,
        /// Where it is routed and what to call instead.
        how: &'static str,
    },

    /// A task of this layer (a concurrent request) failed to finish.
    #[error("{what} task failed: {message}")]
    Task {
        /// What the task was doing.
        what: &'static str,
        /// Why it did not finish.
        message: String,
    },

    /// A lock of this layer was poisoned by a panic elsewhere.
    #[error("the {0} lock was poisoned")]
    Poisoned(&'static str),
}

impl Error {
    /// The error for a Kafka error code found in a response, with what it
    /// was about (`topic 'orders' partition 3`).
    pub fn from_code(code: ErrorCode, context: Option<String>) -> Error {
        Error::Conn(conn::Error::from_code(code, context))
    }

    /// The connection-layer error inside, if this is one.
    pub fn conn(&self) -> Option<&conn::Error> {
        match self {
            Error::Conn(error) => Some(error),
            _ => None,
        }
    }

    /// Whether sending again may succeed (see [`conn::Error::retriable`]).
    pub fn retriable(&self) -> bool {
        self.conn().is_some_and(conn::Error::retriable)
    }

    /// Whether cached metadata should be refreshed before retrying.
    pub fn needs_metadata_refresh(&self) -> bool {
        self.conn().is_some_and(conn::Error::needs_metadata_refresh)
    }

    /// Whether a cached coordinator should be forgotten.
    pub fn needs_coordinator_refresh(&self) -> bool {
        self.conn()
            .is_some_and(conn::Error::needs_coordinator_refresh)
    }

    /// The Kafka error code, for errors that carry one.
    pub fn code(&self) -> Option<ErrorCode> {
        self.conn().and_then(conn::Error::code)
    }

    /// What this failure calls for in the retry driver, for a request
    /// routed to a coordinator (`coordinator`) or not: the one
    /// classification every retry uses. A lost connection needs both a
    /// metadata refresh and a coordinator lookup; for a coordinator-routed
    /// request the coordinator comes first (its budget is time).
    pub fn disposition(&self, coordinator: bool) -> Disposition {
        if !self.retriable() {
            Disposition::Fatal
        } else if coordinator && self.needs_coordinator_refresh() {
            Disposition::RefreshCoordinator
        } else if self.needs_metadata_refresh() {
            Disposition::RefreshMetadata
        } else {
            Disposition::Retry
        }
    }

    /// Whether only a change to the context can fix this: failed
    /// authentication or a TLS failure (an untrusted or mismatched
    /// certificate). Asking again with the same settings fails the same way.
    pub fn needs_user_action(&self) -> bool {
        self.conn()
            .is_some_and(|e| e.is_authentication() || matches!(e, conn::Error::Tls { .. }))
    }

    /// Whether the broker lacks the API (or every version kscope speaks).
    pub fn is_unsupported_version(&self) -> bool {
        matches!(self, Error::Conn(conn::Error::UnsupportedVersion { .. }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification_is_the_connection_layers_and_own_errors_are_final() {
        let moved = Error::from_code(ErrorCode::NotLeaderOrFollower, Some("topic 'a'".into()));
        assert!(moved.retriable() && moved.needs_metadata_refresh());
        assert_eq!(moved.code(), Some(ErrorCode::NotLeaderOrFollower));
        let coordinator = Error::from_code(ErrorCode::NotCoordinator, None);
        assert!(coordinator.needs_coordinator_refresh());
        for own in [
            Error::NoBootstrap,
            Error::UnknownBroker(4),
            Error::NotAnswering(4),
            Error::NoBrokers,
        ] {
            assert!(!own.retriable() && !own.needs_metadata_refresh(), "{own}");
            assert_eq!(own.code(), None);
        }
    }

    #[test]
    fn messages_read_lower_case_with_values_quoted() {
        assert_eq!(
            Error::UnknownBroker(4).to_string(),
            "broker 4 is not in the cluster metadata"
        );
        let unroutable = Error::Unroutable {
            api: ApiKey::ListOffsets,
            how: "is routed to a partition leader; use send_to_leader",
        };
        assert!(
            unroutable.to_string().ends_with("use send_to_leader"),
            "{unroutable}"
        );
        assert!(
            Error::from_code(
                ErrorCode::NotLeaderOrFollower,
                Some("topic 'a' partition 3".into())
            )
            .to_string()
            .starts_with("topic 'a' partition 3")
        );
    }
}
