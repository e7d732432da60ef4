//! The inspect layer's error: one enum wrapping the metadata layer's, with
//! what was being read (a topic's configs, broker 2's log dirs) in the message.

use std::time::Duration;

use crate::conn::{self, ErrorCode};
use crate::meta;

/// Shorthand for results of this layer.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong reading configs, log dirs, ACLs, quotas,
/// users or the quorum.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Talking to the cluster failed.
    #[error(transparent)]
    Meta(#[from] meta::Error),

    /// A request failed (context added to a `meta` error).
    #[error("{what}: {source}")]
    Request {
        /// What was asked for (`configs of topic 'orders'`).
        what: String,
        /// What failed.
        #[source]
        source: meta::Error,
    },

    /// The broker answered with an error code.
    #[error("{what}: {code}{}", message.as_deref().map(|m| format!(" ({m})")).unwrap_or_default())]
    Answer {
        /// What was asked for.
        what: String,
        code: ErrorCode,
        /// The broker's own message, when it sent one.
        message: Option<String>,
    },

    /// No answer within the deadline (a hung broker): the caller shows
    /// nothing for it rather than wait.
    #[error("{what}: no answer within {} ms", after.as_millis())]
    Timeout {
        /// What was asked for.
        what: String,
        /// The deadline.
        after: Duration,
    },

    /// The cluster has no `KRaft` quorum to describe: its brokers do not offer
    /// `DescribeQuorum` (`ZooKeeper` mode, or Kafka before 3.3). A fact about
    /// the cluster, not a failure.
    #[error(
        "no KRaft quorum: the brokers do not offer DescribeQuorum, so this cluster runs in ZooKeeper mode (or is older than Kafka 3.3)"
    )]
    NoKraftQuorum,

    /// The brokers lack what the question needs (an API version): a fact
    /// about the cluster, said once, not a failure per row.
    #[error("{what} needs {needs}; this cluster's brokers do not offer it")]
    Unsupported {
        /// What was asked for.
        what: String,
        /// What it needs, in a user's words (`Kafka 3.7 or newer`).
        needs: &'static str,
    },

    /// A concurrent request's task failed to finish.
    #[error("{what} task failed: {message}")]
    Task {
        /// What the task was doing.
        what: &'static str,
        /// Why it did not finish.
        message: String,
    },
}

impl From<conn::Error> for Error {
    fn from(error: conn::Error) -> Self {
        Error::Meta(error.into())
    }
}

impl Error {
    /// Wrap a failed request with what it was about.
    pub fn request(what: impl Into<String>, source: impl Into<meta::Error>) -> Error {
        Error::Request {
            what: what.into(),
            source: source.into(),
        }
    }

    /// The error for a non-zero code in an answer; `None` for 0.
    pub fn answer(what: impl Into<String>, code: i16, message: Option<&str>) -> Option<Error> {
        ErrorCode::from_code(code).map(|code| Error::Answer {
            what: what.into(),
            code,
            message: message.filter(|m| !m.is_empty()).map(str::to_owned),
        })
    }

    /// The Kafka error code, where there is one.
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            Error::Meta(error) | Error::Request { source: error, .. } => error.code(),
            Error::Answer { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// Whether the principal lacks the permission to ask (a notice to show,
    /// not a failure to retry).
    pub fn is_not_authorised(&self) -> bool {
        matches!(
            self.code(),
            Some(
                ErrorCode::ClusterAuthorizationFailed
                    | ErrorCode::TopicAuthorizationFailed
                    | ErrorCode::GroupAuthorizationFailed
                    | ErrorCode::TransactionalIdAuthorizationFailed
                    | ErrorCode::DelegationTokenAuthorizationFailed
            )
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_say_what_was_asked_and_read_lower_case() {
        let error = Error::answer("configs of topic 'orders'", 3, Some("")).expect("non-zero");
        assert_eq!(
            error.to_string(),
            "configs of topic 'orders': unknown topic or partition"
        );
        assert_eq!(error.code(), Some(ErrorCode::UnknownTopicOrPartition));
        assert!(Error::answer("x", 0, None).is_none(), "0 is success");
        let denied = Error::answer("acls", 31, Some("no DESCRIBE")).expect("non-zero");
        assert_eq!(
            denied.to_string(),
            "acls: cluster authorization failed (no DESCRIBE)"
        );
        assert!(denied.is_not_authorised());
        let late = Error::Timeout {
            what: "log dirs of broker 2".to_owned(),
            after: Duration::from_secs(5),
        };
        assert_eq!(
            late.to_string(),
            "log dirs of broker 2: no answer within 5000 ms"
        );
    }
}
