//! The browse layer's error: one enum wrapping the metadata layer's, naming
//! the topic (and partition) it was about.

use crate::meta;

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
        /// The topic.
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
        /// The topic.
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

/// Why a batch's records could not be decompressed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InflateError {
    /// The records would inflate past the cap.
    #[error("{codec} records inflate past the {cap}-byte cap")]
    TooLarge {
        /// The codec's name.
        codec: &'static str,
        /// The cap.
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
