//! Why a context has no row of numbers: one error type for the fleet, and
//! [`Reason`], the few words a user can act on (refused, DNS, TLS, auth,
//! timed out, needs login) mapped from the connection layer's typed errors.

use std::time::Duration;

use serde::Serialize;

use crate::config::ConfigError;
use crate::conn::{self, ErrorCode};
use crate::meta;

/// A context that could not be polled. Messages name the context and never
/// carry a secret (the layers below redact theirs; a password command's
/// output is never quoted).
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// Connecting or reading the metadata failed.
    #[error("context '{context}': {source}")]
    Cluster {
        context: String,
        /// What the metadata layer said.
        #[source]
        source: meta::Error,
    },
    /// The context's settings could not be resolved (a missing
    /// `${env:VAR}`, a bad TLS file, …).
    #[error("context '{context}': {message}")]
    Config {
        context: String,
        /// What is wrong, from the config layer.
        message: String,
    },
    /// Its `password_command` could not give a password without a terminal.
    #[error(
        "context '{context}': its password_command needs a terminal; open the context once to log in"
    )]
    NeedsLogin { context: String },
    /// The poll's own deadline passed (a hung broker, a black-holed port).
    #[error("context '{context}': no answer within {after:?}")]
    Deadline {
        context: String,
        /// The deadline.
        after: Duration,
    },
}

/// The kind of failure, as a stable word for JSON and a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Nothing listens on the port (connection refused).
    Refused,
    /// The host name does not resolve.
    Dns,
    /// The TLS handshake failed (wrong CA, plaintext port, expired cert).
    Tls,
    /// SASL authentication failed (wrong user or password).
    AuthFailed,
    /// Authenticated, but the principal may not describe the cluster.
    NotAuthorized,
    /// No answer in time: a hung broker, a firewall dropping packets.
    TimedOut,
    /// The password command needs a terminal.
    NeedsLogin,
    /// The context's settings are wrong.
    Config,
    /// Anything else (the message says what).
    Other,
}

impl Reason {
    /// The words shown before the detail.
    pub fn words(self) -> &'static str {
        match self {
            Reason::Refused => "connection refused",
            Reason::Dns => "host not found",
            Reason::Tls => "tls failed",
            Reason::AuthFailed => "authentication failed",
            Reason::NotAuthorized => "not authorized",
            Reason::TimedOut => "timed out",
            Reason::NeedsLogin => "needs login",
            Reason::Config => "bad config",
            Reason::Other => "failed",
        }
    }
}

impl Error {
    /// The kind of failure, from the typed error underneath.
    pub fn reason(&self) -> Reason {
        match self {
            Error::Cluster { source, .. } => meta_reason(source),
            Error::Config { .. } => Reason::Config,
            Error::NeedsLogin { .. } => Reason::NeedsLogin,
            Error::Deadline { .. } => Reason::TimedOut,
        }
    }

    /// What a row shows: the reason's words, then the detail without the
    /// context's name (the row names it).
    pub fn row_text(&self) -> String {
        let detail = match self {
            Error::Cluster { source, .. } => source.to_string(),
            Error::Config { message, .. } => message.clone(),
            Error::NeedsLogin { .. } => {
                "its password_command needs a terminal; open the context once to log in".to_owned()
            }
            Error::Deadline { after, .. } => format!("no answer within {after:?}"),
        };
        format!("{}: {detail}", self.reason().words())
    }

    /// The error for a context whose settings did not resolve: a password
    /// command that failed or waited for input (its process group cannot
    /// read the terminal) means the user must log in interactively.
    pub fn from_config(context: &str, error: &ConfigError) -> Error {
        if error.is_password_command() {
            Error::NeedsLogin {
                context: context.to_owned(),
            }
        } else {
            Error::Config {
                context: context.to_owned(),
                message: error.to_string(),
            }
        }
    }
}

fn meta_reason(error: &meta::Error) -> Reason {
    match error {
        meta::Error::Conn(conn) => conn_reason(conn),
        meta::Error::NotAnswering(_) => Reason::TimedOut,
        _ => Reason::Other,
    }
}

fn conn_reason(error: &conn::Error) -> Reason {
    if error.is_authentication() {
        return Reason::AuthFailed;
    }
    match error {
        conn::Error::Io { source, .. } => io_reason(source),
        conn::Error::Timeout { .. } => Reason::TimedOut,
        conn::Error::Tls { .. } => Reason::Tls,
        conn::Error::Kafka { code, .. } => match code {
            ErrorCode::ClusterAuthorizationFailed
            | ErrorCode::TopicAuthorizationFailed
            | ErrorCode::GroupAuthorizationFailed => Reason::NotAuthorized,
            ErrorCode::RequestTimedOut => Reason::TimedOut,
            _ => Reason::Other,
        },
        _ => Reason::Other,
    }
}

fn io_reason(error: &std::io::Error) -> Reason {
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::ConnectionRefused => Reason::Refused,
        ErrorKind::TimedOut => Reason::TimedOut,
        // A failed name lookup is the one socket failure that carries no OS
        // error number (getaddrinfo's codes are not errno values).
        _ if error.raw_os_error().is_none() && error.get_ref().is_some() => Reason::Dns,
        _ => Reason::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn io(error: std::io::Error) -> Error {
        Error::Cluster {
            context: "prod".to_owned(),
            source: meta::Error::Conn(conn::Error::Io {
                broker: "broker 1 (h:1)".to_owned(),
                source: Arc::new(error),
            }),
        }
    }

    #[test]
    fn socket_failures_map_to_words_a_user_can_act_on() {
        let refused = io(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert_eq!(refused.reason(), Reason::Refused);
        assert!(refused.row_text().starts_with("connection refused: "));
        let dns = io(std::io::Error::other(
            "failed to lookup address information",
        ));
        assert_eq!(dns.reason(), Reason::Dns);
        let sasl = Error::Cluster {
            context: "prod".to_owned(),
            source: meta::Error::Conn(conn::Error::Sasl {
                broker: "b".to_owned(),
                mechanism: "PLAIN".to_owned(),
                message: "bad".to_owned(),
            }),
        };
        assert_eq!(sasl.reason(), Reason::AuthFailed);
    }

    #[test]
    fn a_failed_password_command_is_needs_login_and_says_nothing_of_its_output() {
        let error = ConfigError::Secret {
            key: "contexts.prod.sasl.password_command".to_owned(),
            message: "exited 1: hunter2".to_owned(),
        };
        let fleet = Error::from_config("prod", &error);
        assert_eq!(fleet.reason(), Reason::NeedsLogin);
        assert!(!fleet.row_text().contains("hunter2"));
    }
}
