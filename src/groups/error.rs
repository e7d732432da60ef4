//! The groups layer's error: one enum, wrapping the metadata layer's (which
//! wraps the connection layer's), with the group (and topic, partition) it
//! was about in the message.

use crate::conn::{self, ErrorCode};
use crate::meta;

/// Shorthand for results of this layer.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong reading consumer groups.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Talking to the cluster failed.
    #[error(transparent)]
    Meta(#[from] meta::Error),

    /// The broker answered, but with an error code for one group.
    #[error("group '{group}': {code}")]
    Group {
        group: String,
        /// The code the broker gave for it.
        code: ErrorCode,
    },

    /// A group's request failed on the wire (context added to a `meta` error).
    #[error("group '{group}': {source}")]
    GroupRequest {
        group: String,
        /// What failed.
        #[source]
        source: meta::Error,
    },

    /// The broker answered, but with an error code for one partition.
    #[error("topic '{topic}' partition {partition}: {code}")]
    Partition {
        topic: String,
        partition: i32,
        /// The code the broker gave for it.
        code: ErrorCode,
    },

    /// The group does not exist (or is `Dead`).
    #[error("group '{0}' not found")]
    NotFound(String),

    /// A response the broker sent could not be understood.
    #[error("group '{group}': {message}")]
    Malformed {
        group: String,
        /// What was wrong.
        message: String,
    },

    /// A background task of this layer failed to finish.
    #[error("groups task failed: {0}")]
    Task(String),
}

impl From<conn::Error> for Error {
    fn from(error: conn::Error) -> Self {
        Error::Meta(error.into())
    }
}

impl Error {
    /// Wrap a request's error with the group it was about.
    pub fn for_group(group: &str, source: impl Into<meta::Error>) -> Error {
        Error::GroupRequest {
            group: group.to_owned(),
            source: source.into(),
        }
    }

    /// The Kafka error code, where there is one.
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            Error::Meta(error) | Error::GroupRequest { source: error, .. } => error.code(),
            Error::Group { code, .. } | Error::Partition { code, .. } => Some(*code),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_group_and_read_lower_case() {
        let error = Error::Group {
            group: "billing".to_owned(),
            code: ErrorCode::NotCoordinator,
        };
        assert_eq!(error.to_string(), "group 'billing': not coordinator");
        assert_eq!(error.code(), Some(ErrorCode::NotCoordinator));
        let partition = Error::Partition {
            topic: "orders".to_owned(),
            partition: 3,
            code: ErrorCode::NotLeaderOrFollower,
        };
        assert_eq!(
            partition.to_string(),
            "topic 'orders' partition 3: not leader or follower"
        );
        assert_eq!(
            Error::NotFound("x".to_owned()).to_string(),
            "group 'x' not found"
        );
    }
}
