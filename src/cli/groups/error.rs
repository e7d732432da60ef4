//! The groups commands' error (reading the groups, writing their output),
//! in a file of its own: the CLI's error wraps it without importing the
//! commands, which import the CLI's error.

use std::io;

use crate::groups;

/// What a headless groups command can fail with.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Reading the groups failed.
    #[error(transparent)]
    Groups(#[from] groups::Error),
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Io(#[from] io::Error),
    /// Serialising JSON failed.
    #[error("writing json: {0}")]
    Json(#[from] serde_json::Error),
}

impl CliError {
    /// Whether this is stdout going away (`| head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            CliError::Io(e) => e.kind() == io::ErrorKind::BrokenPipe,
            CliError::Json(e) => e.io_error_kind() == Some(io::ErrorKind::BrokenPipe),
            CliError::Groups(_) => false,
        }
    }
}
