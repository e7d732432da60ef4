//! The headless CLI's error: what goes on the one stderr line.

use crate::{conn, meta};

/// Why a headless command failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No `-b` and no `KSCOPE_BOOTSTRAP`.
    #[error("no bootstrap servers: pass -b HOST:PORT[,HOST:PORT] or set KSCOPE_BOOTSTRAP")]
    NoBootstrap,
    /// The command line is wrong in a way clap cannot see.
    #[error("{0}")]
    Usage(String),
    /// A `--filter`/`--project` expression that does not compile: the
    /// option, the message with the column, then the expression with a
    /// caret under the column (lines printed one by one, each escaped).
    #[error("{0}")]
    Expression(String),
    /// The named topic is not in the cluster (and was not created).
    #[error("topic '{0}' does not exist")]
    UnknownTopic(String),
    /// The principal may not read what was asked for (one line saying
    /// which permission is missing, not the error of every broker).
    #[error("not authorised to {what} (needs {needs}): {source}")]
    NotAuthorised {
        /// What was asked (`list ACLs`).
        what: &'static str,
        /// The permission it needs (`DESCRIBE on the cluster`).
        needs: &'static str,
        /// The broker's answer.
        source: Box<crate::inspect::Error>,
    },
    /// Talking to Kafka failed.
    #[error(transparent)]
    Kafka(#[from] meta::Error),
    /// Reading configs, sizes, ACLs, quotas, users or the quorum failed.
    #[error(transparent)]
    Inspect(#[from] crate::inspect::Error),
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Output(#[from] std::io::Error),
    /// Encoding JSON failed.
    #[error("encoding json: {0}")]
    Json(#[from] serde_json::Error),
    /// A consumer-groups command failed.
    #[error(transparent)]
    Groups(#[from] crate::cli::groups::error::CliError),
    /// Reading a topic's records failed.
    #[error(transparent)]
    Browse(crate::browse::Error),
    /// Talking to the schema registry failed.
    #[error(transparent)]
    Schema(#[from] crate::schema::Error),
    /// A command needs a schema registry and none is configured.
    #[error(
        "no schema registry: set [contexts.NAME.schema_registry] url or pass -X schema.registry.url=URL"
    )]
    NoRegistry,
    /// Writing or reading a recording failed (the message names the file
    /// and, for damage, the byte offset).
    #[error(transparent)]
    Recording(#[from] crate::recording::Error),
    /// The async runtime could not start.
    #[error("starting the runtime: {0}")]
    Runtime(std::io::Error),
}

impl From<conn::Error> for Error {
    fn from(error: conn::Error) -> Self {
        Error::Kafka(error.into())
    }
}

impl Error {
    /// The process exit code: 2 for usage errors, 1 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::NoBootstrap | Error::Usage(_) | Error::Expression(_) | Error::NoRegistry => 2,
            _ => 1,
        }
    }

    /// Whether this is stdout going away (`| head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            Error::Output(e) => e.kind() == std::io::ErrorKind::BrokenPipe,
            Error::Json(e) => e.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe),
            Error::Groups(e) => e.is_broken_pipe(),
            _ => false,
        }
    }
}
