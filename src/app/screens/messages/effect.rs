//! The Messages screen's work for the effect worker (inside
//! `app::Effect::Messages`): one browse session and one `:find` scan at a
//! time, and records saved or copied. The worker's match over it lists
//! every kind, so one added here cannot be dropped unnoticed.

/// What the Messages screen asks of the worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Read `topic` (one partition, or all) from `start`, following, into
    /// a bounded ring; answers with [`super::Msg::Browsed`]. Replaces the
    /// session running, if any.
    Browse {
        /// Session id.
        session: u64,
        /// The topic.
        topic: String,
        /// Only this partition.
        partition: Option<i32>,
        /// Where to start.
        start: crate::browse::Start,
        /// `read_committed` (aborted records hidden) or `read_uncommitted`.
        isolation: crate::browse::Isolation,
        /// Only records with this key (`:key`): the worker drops the others
        /// before they are staged.
        key: Option<bytes::Bytes>,
    },
    /// Stop the browse session running, if any.
    StopBrowse,
    /// Write `records` of `topic` to `path` as JSON lines (the fields of
    /// `kscope consume -o json`); an existing file only when `force`.
    /// Answers with [`crate::app::Action::Notice`].
    Save {
        /// The path as typed (`~/` is the home directory).
        path: String,
        /// The topic the records are of.
        topic: String,
        /// The records, oldest first.
        records: Vec<crate::browse::Record>,
        /// Overwrite an existing file.
        force: bool,
    },
    /// Read `topic` from `start` to the end (not following) until a record
    /// whose key or value matches `pattern`, within a budget; answers with
    /// [`crate::app::Action::Finding`]. Replaces the scan running, if any.
    Find {
        /// Scan id.
        id: u64,
        /// The topic.
        topic: String,
        /// Only this partition.
        partition: Option<i32>,
        /// Where to start.
        start: crate::browse::Start,
        /// Committed or uncommitted records.
        isolation: crate::browse::Isolation,
        /// A regex (checked by `update`), or the text of `jq`.
        pattern: String,
        /// The jq expression compiled by `update`, when the pattern is one.
        jq: Option<crate::browse::jq::JqFilter>,
    },
    /// Stop the `:find` scan running, if any.
    StopFind,
    /// Put these bytes on the clipboard (OSC 52 through the terminal);
    /// answers with [`crate::app::Action::Notice`].
    Copy(bytes::Bytes),
}
