//! The connection layer's error: one enum for every way talking to a broker fails.
//!
//! Messages are lower case, quote values, and name the broker (and the API
//! where one is involved) so they read well on their own in a status line.
//! `Error` is `Clone` because one failure of a shared connection is handed to
//! every request that was in flight on it.

use std::sync::Arc;
use std::time::Duration;

use super::ApiKey;
use super::budget::human_bytes;
use super::error_code::ErrorCode;

/// Shorthand for results of this layer.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong between kscope and a broker.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A socket-level failure: refused, reset, closed by the broker.
    #[error("{broker}: {source}")]
    Io {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        /// The underlying failure.
        #[source]
        source: Arc<std::io::Error>,
    },

    /// Nothing came back in time.
    #[error("{broker}: {what} timed out after {after:?}")]
    Timeout {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        /// What was waited for: `connecting`, `Metadata v12`, …
        what: String,
        /// How long was waited.
        after: Duration,
    },

    /// The TLS configuration or handshake failed.
    #[error("tls with {broker}: {message}")]
    Tls {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        /// What went wrong.
        message: String,
    },

    /// SASL authentication failed or could not be attempted.
    #[error("sasl {mechanism} authentication with {broker} failed: {message}")]
    Sasl {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        /// The mechanism's registered name.
        mechanism: String,
        /// What went wrong (never contains a credential).
        message: String,
    },

    /// The broker and kscope share no version of an API.
    #[error(
        "{broker} does not support {api} at any version kscope speaks ({ours}; broker: {theirs})"
    )]
    UnsupportedVersion {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        api: ApiKey,
        /// The versions kscope can encode, e.g. `v0-v13`.
        ours: String,
        /// The versions the broker advertised, or `none`.
        theirs: String,
    },

    /// A response frame exceeded the configured maximum; nothing was allocated.
    #[error("{broker} sent a {size}-byte frame, larger than the {max}-byte maximum")]
    FrameTooLarge {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        /// The length the frame claimed.
        size: u64,
        /// The configured maximum.
        max: usize,
    },

    /// A request could not be encoded or a response could not be decoded.
    #[error("{broker}: {message}")]
    Codec {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        /// What failed, naming the API and version.
        message: String,
    },

    /// A response would need more memory to decode than its budget (8× its
    /// size, at most 1 GiB; see `conn/budget.rs`). The frame was read whole,
    /// so the connection stays usable.
    #[error(
        "{broker} sent a {api} v{version} response of {} that needs more than {} of memory to decode (kscope allows 8× a response's size, at most 1 GiB), so it was refused; a Kafka broker does not answer like this: check that {broker} is a Kafka broker and not a proxy or another service",
        human_bytes(*frame_bytes),
        human_bytes(*budget)
    )]
    ResponseOverBudget {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        /// The API answered.
        api: ApiKey,
        /// The version decoded.
        version: i16,
        /// The frame's size, without its length prefix.
        frame_bytes: usize,
        /// The memory budget that was exceeded.
        budget: usize,
    },

    /// The connection failed earlier and must be replaced.
    #[error("connection to {broker} is broken: {reason}")]
    Broken {
        /// The broker, as `broker 1 (host:port)`.
        broker: String,
        /// The failure that broke it.
        reason: String,
    },

    /// The broker answered with a Kafka error code.
    #[error("{}", kafka_message(*code, context.as_deref()))]
    Kafka {
        code: ErrorCode,
        /// What it was about: `topic 'orders' partition 3`, a broker message, …
        context: Option<String>,
    },

    /// The caller asked for something this layer cannot send.
    #[error("invalid request: {0}")]
    InvalidRequest(String),

    /// The request would change the cluster, and this context is read-only.
    #[error("refused {api}: this cluster context is read-only")]
    ReadOnly {
        /// The refused API.
        api: ApiKey,
    },

    /// The API only reads, but this particular request would change the
    /// cluster (a Metadata request allowing topic auto-creation), and this
    /// context is read-only.
    #[error("refused {what}: this cluster context is read-only")]
    ReadOnlyRequest {
        /// The refused API.
        api: ApiKey,
        /// What about the request would change the cluster.
        what: &'static str,
    },
}

fn kafka_message(code: ErrorCode, context: Option<&str>) -> String {
    match context {
        Some(context) => format!("{context}: {code}"),
        None => code.to_string(),
    }
}

impl Error {
    /// The error for a Kafka error code found in a response.
    pub fn from_code(code: ErrorCode, context: Option<String>) -> Error {
        Error::Kafka { code, context }
    }

    /// Whether sending again (on a new connection if need be) may succeed.
    ///
    /// Socket failures, timeouts and broken connections are: the pool builds a
    /// new connection. Authentication, TLS, version and codec failures are
    /// not: they would fail the same way again.
    pub fn retriable(&self) -> bool {
        match self {
            Error::Io { .. } | Error::Timeout { .. } | Error::Broken { .. } => true,
            Error::Kafka { code, .. } => code.retriable(),
            _ => false,
        }
    }

    /// Whether cached metadata should be refreshed before retrying.
    ///
    /// True for the Kafka codes that say so, and for a lost connection: as in
    /// the Java client, a broker that went away may have taken leadership with it.
    pub fn needs_metadata_refresh(&self) -> bool {
        match self {
            Error::Io { .. } | Error::Broken { .. } => true,
            Error::Kafka { code, .. } => code.needs_metadata_refresh(),
            _ => false,
        }
    }

    /// Whether a cached group or transaction coordinator should be forgotten.
    ///
    /// True for the coordinator codes and for a lost connection (the Java
    /// client marks the coordinator unknown on disconnect too).
    pub fn needs_coordinator_refresh(&self) -> bool {
        match self {
            Error::Io { .. } | Error::Broken { .. } => true,
            Error::Kafka { code, .. } => code.needs_coordinator_refresh(),
            _ => false,
        }
    }

    /// The Kafka error code, for errors that carry one.
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            Error::Kafka { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// The error without the broker it names, for the reason of a broken
    /// connection (whose own message names the broker once).
    pub(crate) fn cause(&self) -> String {
        match self {
            Error::Io { source, .. } => source.to_string(),
            Error::Timeout { what, after, .. } => format!("{what} timed out after {after:?}"),
            Error::Tls { message, .. } => format!("tls: {message}"),
            Error::Sasl {
                mechanism, message, ..
            } => format!("sasl {mechanism}: {message}"),
            Error::FrameTooLarge { size, max, .. } => {
                format!("a {size}-byte frame, larger than the {max}-byte maximum")
            }
            Error::Codec { message, .. } => message.clone(),
            Error::Broken { reason, .. } => reason.clone(),
            other => other.to_string(),
        }
    }

    /// Whether the error is a failed or impossible authentication.
    pub fn is_authentication(&self) -> bool {
        matches!(self, Error::Sasl { .. })
            || matches!(
                self.code(),
                Some(ErrorCode::SaslAuthenticationFailed | ErrorCode::IllegalSaslState)
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kafka_errors_read_well_and_classify_by_code() {
        let error = Error::from_code(
            ErrorCode::NotLeaderOrFollower,
            Some("topic 'orders' partition 3".to_owned()),
        );
        assert_eq!(
            error.to_string(),
            "topic 'orders' partition 3: not leader or follower"
        );
        assert!(error.retriable());
        assert!(error.needs_metadata_refresh());
        assert!(!error.needs_coordinator_refresh());
        assert_eq!(error.code(), Some(ErrorCode::NotLeaderOrFollower));
        let bare = Error::from_code(ErrorCode::CoordinatorLoadInProgress, None);
        assert_eq!(bare.to_string(), "coordinator load in progress");
        assert!(bare.needs_coordinator_refresh());
    }

    #[test]
    fn transport_errors_are_retriable_and_auth_errors_are_not() {
        let broken = Error::Broken {
            broker: "broker 1 (127.0.0.1:19092)".to_owned(),
            reason: "connection reset".to_owned(),
        };
        assert_eq!(
            broken.to_string(),
            "connection to broker 1 (127.0.0.1:19092) is broken: connection reset"
        );
        assert!(broken.retriable());
        let io = Error::Io {
            broker: "broker 1 (127.0.0.1:19092)".to_owned(),
            source: Arc::new(std::io::Error::from(std::io::ErrorKind::ConnectionRefused)),
        };
        assert!(io.retriable());
        let sasl = Error::Sasl {
            broker: "broker 1 (127.0.0.1:19102)".to_owned(),
            mechanism: "SCRAM-SHA-512".to_owned(),
            message: "invalid credentials".to_owned(),
        };
        assert!(!sasl.retriable());
        assert!(sasl.is_authentication());
        assert!(
            !Error::ReadOnly {
                api: ApiKey::CreateTopics
            }
            .retriable()
        );
        assert_eq!(
            Error::ReadOnly {
                api: ApiKey::CreateTopics
            }
            .to_string(),
            "refused CreateTopics: this cluster context is read-only"
        );
    }
}
