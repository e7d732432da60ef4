//! What reading or writing a recording can fail with: every damage names
//! the file's byte offset where it was found.

use std::path::PathBuf;

/// A recording that could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be opened, read or written.
    #[error("recording '{path}': {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file does not start with the recording magic: not a recording.
    #[error("recording '{path}': not a kscope recording (no magic bytes at byte offset 0)")]
    NotARecording {
        /// The file.
        path: PathBuf,
    },
    /// A format version this kscope does not read (a newer kscope wrote it).
    #[error(
        "recording '{path}': format version {version} is newer than this kscope reads (up to {supported})"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        version: u16,
        /// The newest version this build reads.
        supported: u16,
    },
    /// The file ends inside the header or a chunk (a recording that was
    /// killed, or a copy cut short).
    #[error("recording '{path}': truncated at byte offset {offset}: {what}")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Where the cut piece starts.
        offset: u64,
        /// What was cut.
        what: String,
    },
    /// Bytes that do not decode: a bad checksum, length or frame.
    #[error("recording '{path}': corrupt at byte offset {offset}: {what}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Where the damaged piece starts.
        offset: u64,
        /// What is wrong with it.
        what: String,
    },
}

impl Error {
    /// The byte offset of the damage, for truncated or corrupt files.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Error::Truncated { offset, .. } | Error::Corrupt { offset, .. } => Some(*offset),
            Error::NotARecording { .. } => Some(0),
            Error::Io { .. } | Error::Version { .. } => None,
        }
    }
}

/// This module's result.
pub type Result<T> = std::result::Result<T, Error>;
