//! What the Messages screen holds: the browse session on screen, its
//! records in a bounded ring (and those held while paused), the filter and
//! how far the rows were built, the record open on the detail screen.
//!
//! A view's `rows` hold record sequence numbers: the ring's record `i` has
//! sequence `dropped + i`, so a row stays valid while older records go.

use crate::browse::{Format, Isolation, Record, Ring, Start};

use super::detail::Detail;
use super::filter::RecordFilter;
use crate::app::screen::Screen;

/// Where a Messages screen starts: this many records before each
/// partition's end, then it follows.
pub const DEFAULT_START: Start = Start::FromEnd(500);

/// The browse session on screen and what it read.
#[derive(Debug)]
pub struct MessagesStore {
    /// The session id (0: none started).
    pub session: u64,
    /// Its topic.
    pub topic: String,
    /// Its partition (`None`: every partition, merged by timestamp).
    pub partition: Option<i32>,
    /// Where it started.
    pub start: Start,
    /// The records shown.
    pub ring: Ring,
    /// Records that arrived while paused.
    pub held: Ring,
    /// The view is kept still; arrivals are counted.
    pub paused: bool,
    /// Records that arrived since the pause.
    pub arrived: u64,
    /// Records the session dropped before the UI took them.
    pub upstream_dropped: u64,
    /// The `/` filter.
    pub filter: Option<RecordFilter>,
    /// Rows were built from the records before this sequence number.
    pub built_upto: u64,
    /// How values are shown.
    pub format: Format,
    /// Why the session ended, if it did.
    pub failed: Option<String>,
    /// The session is running (not stopped by leaving the screen).
    pub live: bool,
    /// The record open on the detail screen.
    pub detail: Option<Detail>,
    /// The local time zone's offset from UTC, in seconds (injected).
    pub utc_offset: i32,
    /// The ring's bounds: records and bytes.
    pub bounds: (usize, usize),
    /// Which records the session reads (aborted ones only uncommitted).
    pub isolation: Isolation,
    /// The `:find` scan running, if any.
    pub find: Option<super::finding::Finding>,
    /// The id of the last `:find` scan started.
    pub finds: u64,
    /// `:key`: only records with this key are read into the view.
    pub key: Option<bytes::Bytes>,
    /// Select this record (partition, offset) when it arrives: the
    /// selection kept across a restart of the session.
    pub anchor: Option<(i32, i64)>,
    /// Pause when the anchor arrives, and what the title says of it until
    /// then and after (`v` from a group: the record the group reads next).
    pub hold_at_anchor: Option<String>,
}

impl Default for MessagesStore {
    fn default() -> Self {
        MessagesStore {
            session: 0,
            topic: String::new(),
            partition: None,
            start: DEFAULT_START,
            ring: Ring::default(),
            held: Ring::default(),
            paused: false,
            arrived: 0,
            upstream_dropped: 0,
            filter: None,
            built_upto: 0,
            format: Format::Auto,
            failed: None,
            live: false,
            detail: None,
            utc_offset: 0,
            bounds: (
                crate::browse::ring::DEFAULT_RECORDS,
                crate::browse::ring::DEFAULT_BYTES,
            ),
            isolation: Isolation::default(),
            anchor: None,
            hold_at_anchor: None,
            find: None,
            finds: 0,
            key: None,
        }
    }
}

impl MessagesStore {
    /// An empty ring with this store's bounds.
    pub(in crate::app) fn new_ring(&self) -> Ring {
        Ring::new(
            self.bounds.0,
            self.bounds.1,
            crate::browse::ring::DEFAULT_VALUE_CAP,
        )
    }

    /// The sequence number of the ring's oldest record.
    pub fn first_seq(&self) -> u64 {
        self.ring.dropped()
    }

    /// The sequence number the next record gets.
    pub fn end_seq(&self) -> u64 {
        self.ring.dropped() + self.ring.records().len() as u64
    }

    /// The record with sequence number `seq`, while the ring holds it.
    pub fn record(&self, seq: usize) -> Option<&Record> {
        let index = (seq as u64).checked_sub(self.first_seq())?;
        self.ring.records().get(usize::try_from(index).ok()?)
    }

    /// Whether `screen` shows this store's session.
    pub fn shows(&self, screen: &Screen) -> bool {
        matches!(screen, Screen::Messages { topic, partition }
            if *topic == self.topic && *partition == self.partition && self.live)
    }
}
