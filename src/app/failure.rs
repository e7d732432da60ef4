//! What failed, as it reaches the model: a [`Failure`] is the words the
//! status line shows (the lower layer's own message, unchanged) and its
//! [`Kind`], transient or final, decided once where the worker still holds
//! the typed error. The model never reads a message to decide anything: a
//! store that retries (the schema cache, the watermarks) or a screen that
//! says "not retrying" asks the kind.
//!
//! Each lower layer's error says its kind through [`Classify`]; the rules
//! are the retry driver's ([`meta::Error::disposition`]) for whatever came
//! off the wire, and per variant for what a layer concludes itself (a group
//! or topic that does not exist, an API the brokers lack, a bad config).

use std::fmt;

use crate::config::ConfigError;
use crate::conn::ErrorCode;
use crate::meta::{self, Disposition};

/// Whether asking the same question again may get another answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// It may: a timeout, a lost connection, a coordinator that moved or is
    /// still loading, a broker not available or not answering, a registry
    /// that was down. Asking again at the usual pace is right.
    Transient,
    /// It will not until someone changes something (an ACL, the context,
    /// the cluster): an authorization or authentication failure, a group or
    /// topic that does not exist, an API version the brokers do not offer,
    /// a config that does not parse, an answer that could not be read.
    Final,
}

/// A failure handed to the model: what the user reads, and whether it may
/// go away by itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    /// Transient or final.
    pub kind: Kind,
    /// What the status line (or the panel) shows, the lower layer's own
    /// words: it names what was asked (`group 'billing'`, `topic 'orders'
    /// partition 3`) and what went wrong, and carries no credential.
    pub message: String,
}

/// A lower layer's error that knows whether asking again may help.
pub trait Classify: fmt::Display {
    /// Transient or final (see [`Kind`]).
    fn failure_kind(&self) -> Kind;
}

impl Failure {
    /// A failure of `kind` saying `message` (for what the worker concludes
    /// itself: a task that died, a deadline it set, a recording that lacks
    /// the answer).
    pub fn new(kind: Kind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }

    /// `error`'s kind and its own words.
    pub fn of(error: &impl Classify) -> Failure {
        Failure::new(error.failure_kind(), error.to_string())
    }

    /// `error`'s kind in the caller's words (a schema id's marker, what the
    /// commit history needs to be read).
    pub fn worded(error: &impl Classify, message: impl Into<String>) -> Failure {
        Failure::new(error.failure_kind(), message)
    }

    /// A failure to connect. The connect loop is not the retry driver: it
    /// keeps trying through everything a cluster still starting or a network
    /// coming back can cause (refused, no brokers in the answer, an API not
    /// offered yet), which a request would call final, and gives up only on
    /// what no number of attempts fixes: failed authentication or TLS
    /// ([`meta::Error::needs_user_action`]), which `r` or `:ctx` tries again.
    pub fn connecting(error: &meta::Error) -> Failure {
        let kind = if error.needs_user_action() {
            Kind::Final
        } else {
            Kind::Transient
        };
        Failure::new(kind, error.to_string())
    }

    /// Whether asking again may get another answer.
    pub fn is_transient(&self) -> bool {
        self.kind == Kind::Transient
    }
}

/// Transient when `transient`, else final.
fn kind(transient: bool) -> Kind {
    if transient {
        Kind::Transient
    } else {
        Kind::Final
    }
}

/// A Kafka error code a layer found in an answer, classified as the same
/// code from the wire would be.
fn code_kind(code: ErrorCode) -> Kind {
    meta::Error::from_code(code, None).failure_kind()
}

/// What the retry driver would retry is transient: its
/// [`disposition`](meta::Error::disposition) is not [`Disposition::Fatal`]
/// (timeouts, lost connections, a leader or coordinator that moved, a
/// coordinator loading). So is an error asking for fresh metadata that the
/// driver calls final (`BROKER_NOT_AVAILABLE`, `UNKNOWN_CONTROLLER_ID`: a
/// later read routes elsewhere, as the browse layer reads them too), and a
/// broker that did not answer the last liveness check (it is asked again
/// once a check hears it). The rest is final: authentication, TLS,
/// authorization codes, an unsupported version, a frame too large, no
/// bootstrap server.
impl Classify for meta::Error {
    fn failure_kind(&self) -> Kind {
        kind(
            self.disposition(false) != Disposition::Fatal
                || self.needs_metadata_refresh()
                || matches!(self, meta::Error::NotAnswering(_)),
        )
    }
}

/// A wire error by the metadata layer's rules; a code for one group or
/// partition as that code; a group that does not exist, an answer that
/// could not be read and a task that died are final.
impl Classify for crate::groups::Error {
    fn failure_kind(&self) -> Kind {
        use crate::groups::Error;
        match self {
            Error::Meta(error) | Error::GroupRequest { source: error, .. } => error.failure_kind(),
            Error::Group { code, .. } | Error::Partition { code, .. } => code_kind(*code),
            Error::NotFound(_) | Error::Malformed { .. } | Error::Task(_) => Kind::Final,
        }
    }
}

/// A wire error by the metadata layer's rules, a code in an answer as that
/// code; a broker that missed the deadline is transient; a cluster without
/// a quorum or the API asked for, and a task that died, are final.
impl Classify for crate::inspect::Error {
    fn failure_kind(&self) -> Kind {
        use crate::inspect::Error;
        match self {
            Error::Meta(error) | Error::Request { source: error, .. } => error.failure_kind(),
            Error::Answer { code, .. } => code_kind(*code),
            Error::Timeout { .. } => Kind::Transient,
            Error::NoKraftQuorum | Error::Unsupported { .. } | Error::Task { .. } => Kind::Final,
        }
    }
}

/// A wire error by the metadata layer's rules; a topic or partition that
/// does not exist (read from fresh metadata), a start that cannot be read
/// and a task that died are final.
impl Classify for crate::browse::Error {
    fn failure_kind(&self) -> Kind {
        use crate::browse::Error;
        match self {
            Error::Meta(error) | Error::Fetch { source: error, .. } => error.failure_kind(),
            Error::TopicNotFound(_)
            | Error::NoSuchPartition { .. }
            | Error::BadStart { .. }
            | Error::Task(_) => Kind::Final,
        }
    }
}

/// The registry layer's own reading ([`crate::schema::Error::is_transient`]):
/// unreachable, a 5xx or a 429 is transient; refused credentials, an id or
/// subject the registry does not know, a schema that does not compile and
/// a bad registry config are final.
impl Classify for crate::schema::Error {
    fn failure_kind(&self) -> Kind {
        kind(self.is_transient())
    }
}

/// A config that does not parse or hold together, a context that does not
/// exist, a secret reference that failed: final (the file or the command
/// must change). Connecting with the resolved context is classified as the
/// connection layer's error it carries.
impl Classify for ConfigError {
    fn failure_kind(&self) -> Kind {
        match self {
            ConfigError::Connect { source, .. } => {
                meta::Error::Conn((**source).clone()).failure_kind()
            }
            _ => Kind::Final,
        }
    }
}

macro_rules! failure_from {
    ($($error:ty),* $(,)?) => {$(
        impl From<$error> for Failure {
            fn from(error: $error) -> Failure {
                Failure::of(&error)
            }
        }
    )*};
}

failure_from!(
    meta::Error,
    crate::groups::Error,
    crate::inspect::Error,
    crate::browse::Error,
    crate::schema::Error,
    ConfigError,
);

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::conn::{self, ApiKey};

    const BROKER: &str = "broker 1 (localhost:9092)";

    fn timeout() -> conn::Error {
        conn::Error::Timeout {
            broker: BROKER.to_owned(),
            what: "Metadata v12".to_owned(),
            after: Duration::from_secs(5),
        }
    }

    fn sasl() -> conn::Error {
        conn::Error::Sasl {
            broker: BROKER.to_owned(),
            mechanism: "SCRAM-SHA-512".to_owned(),
            message: "invalid credentials".to_owned(),
        }
    }

    fn code(code: ErrorCode) -> meta::Error {
        meta::Error::from_code(code, Some("group 'billing'".to_owned()))
    }

    #[test]
    fn wire_errors_follow_the_retry_drivers_disposition() {
        let refused = conn::Error::Io {
            broker: BROKER.to_owned(),
            source: Arc::new(std::io::ErrorKind::ConnectionRefused.into()),
        };
        for transient in [
            meta::Error::from(timeout()),
            meta::Error::from(refused),
            code(ErrorCode::NotCoordinator),
            code(ErrorCode::CoordinatorLoadInProgress),
            code(ErrorCode::NotLeaderOrFollower),
            // Not retriable to the driver, but a later read routes elsewhere.
            code(ErrorCode::BrokerNotAvailable),
            meta::Error::NotAnswering(2),
        ] {
            assert_eq!(transient.failure_kind(), Kind::Transient, "{transient}");
        }
        let unsupported = conn::Error::UnsupportedVersion {
            broker: BROKER.to_owned(),
            api: ApiKey::ListOffsets,
            ours: "v0-v8".to_owned(),
            theirs: "none".to_owned(),
        };
        for last in [
            meta::Error::from(sasl()),
            meta::Error::from(unsupported),
            code(ErrorCode::TopicAuthorizationFailed),
            code(ErrorCode::GroupAuthorizationFailed),
            meta::Error::NoBootstrap,
        ] {
            assert_eq!(last.failure_kind(), Kind::Final, "{last}");
        }
    }

    #[test]
    fn group_errors_are_classified_per_variant_and_code() {
        use crate::groups::Error;
        let group = |code| Error::Group {
            group: "billing".to_owned(),
            code,
        };
        assert_eq!(
            group(ErrorCode::NotCoordinator).failure_kind(),
            Kind::Transient
        );
        assert_eq!(
            group(ErrorCode::GroupIdNotFound).failure_kind(),
            Kind::Final
        );
        assert_eq!(
            group(ErrorCode::GroupAuthorizationFailed).failure_kind(),
            Kind::Final
        );
        assert_eq!(
            Error::NotFound("billing".to_owned()).failure_kind(),
            Kind::Final
        );
        assert_eq!(
            Error::for_group("billing", timeout()).failure_kind(),
            Kind::Transient
        );
        assert_eq!(Error::from(sasl()).failure_kind(), Kind::Final);
    }

    #[test]
    fn inspect_registry_and_config_errors() {
        use crate::inspect::Error;
        let late = Error::Timeout {
            what: "log dirs of broker 2".to_owned(),
            after: Duration::from_secs(5),
        };
        assert_eq!(late.failure_kind(), Kind::Transient);
        let denied = Error::answer("acls", 31, None).expect("non-zero");
        assert_eq!(denied.failure_kind(), Kind::Final);
        assert_eq!(Error::NoKraftQuorum.failure_kind(), Kind::Final);
        let down = crate::schema::Error::Unreachable {
            url: "http://registry:8081".to_owned(),
            message: "connection refused".to_owned(),
        };
        assert_eq!(down.failure_kind(), Kind::Transient);
        let unknown = crate::schema::Error::NotFound {
            url: "http://registry:8081".to_owned(),
            what: "schema id 7".to_owned(),
        };
        assert_eq!(unknown.failure_kind(), Kind::Final);
        let no_context = ConfigError::NoContext {
            source_name: "no config file".to_owned(),
        };
        assert_eq!(no_context.failure_kind(), Kind::Final);
        let browse = crate::browse::Error::TopicNotFound("gone".to_owned());
        assert_eq!(browse.failure_kind(), Kind::Final);
    }

    #[test]
    fn a_failure_says_what_the_error_said() {
        let error = crate::groups::Error::NotFound("billing".to_owned());
        let failure = Failure::from(error.clone());
        assert_eq!(failure.to_string(), error.to_string());
        assert_eq!(failure.to_string(), "group 'billing' not found");
        assert!(!failure.is_transient());
        let worded = Failure::worded(
            &meta::Error::from(timeout()),
            "schema id 7: the registry timed out",
        );
        assert_eq!(worded.kind, Kind::Transient);
        assert_eq!(worded.message, "schema id 7: the registry timed out");
    }

    #[test]
    fn connecting_gives_up_only_on_what_needs_the_user() {
        // A cluster still starting: final to a request, retried by the
        // connect loop.
        assert!(Failure::connecting(&meta::Error::NoBrokers).is_transient());
        assert!(Failure::connecting(&meta::Error::from(timeout())).is_transient());
        let denied = Failure::connecting(&meta::Error::from(sasl()));
        assert_eq!(denied.kind, Kind::Final);
        assert_eq!(denied.message, meta::Error::from(sasl()).to_string());
    }
}
