//! The browse layer: fetching and decoding a topic's records.
//!
//! - [`Browser`] reads one partition, or all of a topic's partitions merged
//!   by timestamp, from a [`Start`] (beginning, end, offset, `-N`, a time, a
//!   group's committed offsets) to the end or following; see `session.rs`.
//! - Record batches are decoded batch by batch ([`batch`]) with bounded
//!   decompression of every codec ([`codec`]); `read_committed` hides aborted
//!   transactions ([`txn`]); control batches are never records.
//! - A live view keeps a bounded [`Ring`].
//!
//! Browsing never joins a group and never commits: `Fetch` carries no group.
//! No terminal crate is imported here.

pub mod batch;
mod buffers;
pub mod codec;
pub mod csv;
mod cursor;
mod error;
pub mod fetch;
mod fit;
pub mod format;
mod in_flight;
pub mod internal;
pub mod jq;
mod jq_read;
mod jq_record;
mod jq_reuse;
pub mod json;
mod json_text;
mod list_offsets;
mod lz4_frame;
pub mod mask;
mod notice;
mod options;
pub mod partitioner;
mod record;
pub mod ring;
mod session;
mod start;
mod txn;

pub use codec::Codec;
pub use error::{Error, Result};
pub use fit::Fit;
pub use format::Format;
pub use list_offsets::watermarks;
pub use notice::Notice;
pub use options::Options;
pub use record::{Header, Record, TimestampType};
pub use ring::Ring;
pub use session::Browser;
pub use start::Start;

/// Which records a fetch returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Isolation {
    /// Only committed records; aborted ones hidden; the end is the LSO.
    #[default]
    ReadCommitted,
    /// Every record, aborted ones too; the end is the high watermark.
    ReadUncommitted,
}

impl Isolation {
    /// The protocol's isolation level (0 uncommitted, 1 committed).
    pub fn level(self) -> i8 {
        match self {
            Isolation::ReadCommitted => 1,
            Isolation::ReadUncommitted => 0,
        }
    }
}

/// What a [`Browser`] hands out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Record(Record),
    /// Something to tell the user.
    Notice(Notice),
}
