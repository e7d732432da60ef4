//! The schema layer's one error type.
//!
//! Messages are lower-case and name the registry URL, the schema id or the
//! subject; never a password (the client's `Debug` and these messages hold
//! only the user name).

/// What went wrong talking to the registry or decoding with a schema.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The registry could not be reached (refused, timed out, TLS failed).
    #[error("schema registry '{url}' unreachable: {message}")]
    Unreachable {
        /// The registry's base URL.
        url: String,
        /// What the HTTP client said.
        message: String,
    },
    /// The registry refused the credentials (401/403).
    #[error("schema registry '{url}' refused {who} (HTTP {status})")]
    Unauthorized {
        /// The registry's base URL.
        url: String,
        /// `user 'NAME'` or `anonymous access`.
        who: String,
        /// 401 or 403.
        status: u16,
    },
    /// The registry does not know this schema id (or subject/version).
    #[error("schema registry '{url}': {what} not found")]
    NotFound {
        /// The registry's base URL.
        url: String,
        /// `schema id 7`, `subject 'orders-value' version 3`.
        what: String,
    },
    /// Any other answer the registry gave.
    #[error("schema registry '{url}': {what}: HTTP {status}: {message}")]
    Http {
        /// The registry's base URL.
        url: String,
        /// What was asked for.
        what: String,
        /// The HTTP status.
        status: u16,
        /// The registry's message (or the body's start).
        message: String,
    },
    /// The registry's answer or the schema it holds could not be used.
    #[error("schema {what}: {message}")]
    Schema {
        /// `id 7`, `reference 'common.proto'`.
        what: String,
        /// What was wrong.
        message: String,
    },
    /// The configuration of the registry client is unusable.
    #[error("schema registry: {0}")]
    Config(String),
}

impl Error {
    /// Whether asking again later may succeed (the registry was unreachable or
    /// answered with a server error), as opposed to a final answer.
    pub fn is_transient(&self) -> bool {
        match self {
            Error::Unreachable { .. } => true,
            Error::Http { status, .. } => *status >= 500 || *status == 429,
            _ => false,
        }
    }
}
