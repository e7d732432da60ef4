//! The browse layer's error: one enum wrapping the metadata layer's, naming
//! the topic (and partition) it was about.

use crate::conn::ErrorCode;
use crate::meta::{self, Disposition};

/// Shorthand for results of this layer.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What stops browsing a topic as a whole. What goes wrong with one
/// partition or one batch is a [`super::Notice`] instead.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Talking to the cluster failed.
    #[error(transparent)]
    Meta(#[from] meta::Error),

    /// The topic does not exist (it is never created).
    #[error("topic '{0}' not found")]
    TopicNotFound(String),

    /// The partition asked for does not exist.
    #[error("topic '{topic}' has no partition {partition}")]
    NoSuchPartition {
        topic: String,
        /// The partition asked for.
        partition: i32,
    },

    /// A starting point that could not be read.
    #[error("cannot start from '{given}': {why}")]
    BadStart {
        /// What was given.
        given: String,
        /// What is wrong with it.
        why: String,
    },

    /// A fetch for the topic failed as a whole.
    #[error("topic '{topic}': {source}")]
    Fetch {
        topic: String,
        /// What failed.
        #[source]
        source: meta::Error,
    },

    /// A background task of this layer failed to finish.
    #[error("browse task failed: {0}")]
    Task(String),
}

impl From<crate::conn::Error> for Error {
    fn from(error: crate::conn::Error) -> Self {
        Error::Meta(error.into())
    }
}

/// What a failed fetch calls for: the one classifier's answer
/// ([`meta::Error::disposition`]), except that an error asking for fresh
/// metadata is [`Disposition::RefreshMetadata`] even where that classifier
/// calls it final (`BROKER_NOT_AVAILABLE`, `UNKNOWN_CONTROLLER_ID` and
/// `REBOOTSTRAP_REQUIRED` are not retriable): a browser re-reads the topic
/// and asks again, bounded by its own count of failures in a row.
pub(super) fn fetch_disposition(error: &meta::Error) -> Disposition {
    match error.disposition(false) {
        Disposition::Fatal if error.needs_metadata_refresh() => Disposition::RefreshMetadata,
        disposition => disposition,
    }
}

/// [`fetch_disposition`] of an error code in a partition's fetch answer.
pub(super) fn code_disposition(code: ErrorCode) -> Disposition {
    fetch_disposition(&meta::Error::from_code(code, None))
}

/// The stronger of two outcomes of a round: a metadata refresh over a plain
/// retry, either over nothing.
pub(super) fn stronger(a: Option<Disposition>, b: Option<Disposition>) -> Option<Disposition> {
    if a == Some(Disposition::RefreshMetadata) {
        a
    } else {
        b.or(a)
    }
}

/// Why a batch's records could not be decompressed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InflateError {
    /// The records would inflate past the cap.
    #[error("{codec} records inflate past the {cap}-byte cap")]
    TooLarge {
        /// The codec's name.
        codec: &'static str,
        cap: usize,
    },
    /// The compressed bytes are corrupt.
    #[error("{codec} records are corrupt: {message}")]
    Corrupt {
        /// The codec's name.
        codec: &'static str,
        /// What the decompressor said.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetch_retries_what_asks_for_fresh_metadata_even_when_not_retriable() {
        let of = code_disposition;
        assert_eq!(
            of(ErrorCode::NotLeaderOrFollower),
            Disposition::RefreshMetadata
        );
        assert_eq!(
            of(ErrorCode::BrokerNotAvailable),
            Disposition::RefreshMetadata
        );
        assert_eq!(of(ErrorCode::RequestTimedOut), Disposition::Retry);
        assert_eq!(of(ErrorCode::TopicAuthorizationFailed), Disposition::Fatal);
    }

    #[test]
    fn a_metadata_refresh_is_stronger_than_a_retry_and_either_than_nothing() {
        let (refresh, retry) = (Some(Disposition::RefreshMetadata), Some(Disposition::Retry));
        assert_eq!(stronger(refresh, retry), refresh);
        assert_eq!(stronger(retry, refresh), refresh);
        assert_eq!(stronger(None, retry), retry);
        assert_eq!(stronger(retry, None), retry);
        assert_eq!(stronger(None, None), None);
    }
}
