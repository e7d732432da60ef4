//! What the Messages screen holds: the browse session on screen, its
//! records in a bounded ring (and those held while paused), the filter and
//! how far the rows were built, the record open on the detail screen.
//!
//! A view's `rows` hold record sequence numbers: the ring's record `i` has
//! sequence `dropped + i`, so a row stays valid while older records go.

use crate::browse::{Format, Isolation, Record, Ring, Start};

use super::decoded::DecodedCells;
use super::detail::Detail;
use super::filter::RecordFilter;
use super::schema_cache::SchemaCache;
use crate::app::screens::module::Kept;

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
    /// Schemas of the framed records met, from the registry, and the
    /// context's topic mappings.
    pub schemas: SchemaCache,
    /// The decoded cells of the rows on screen (made in `update`, read by
    /// the view).
    pub decoded: DecodedCells,
    /// What the status line should say after a batch (a notice of the
    /// session, why it stopped), taken once.
    pub notice: Option<String>,
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
            schemas: SchemaCache::default(),
            decoded: DecodedCells::default(),
            notice: None,
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

    /// Whether the record with sequence `seq` is held and passes the
    /// filter.
    fn passes(&self, seq: usize) -> bool {
        self.record(seq).is_some_and(|r| {
            self.filter
                .as_ref()
                .is_none_or(|f| f.passes(r, &self.topic, self.format, &self.schemas))
        })
    }

    /// The sequences of `range` whose records are held and pass the filter.
    pub fn passing(&self, range: std::ops::Range<u64>) -> impl Iterator<Item = usize> + '_ {
        range
            .map_while(|seq| usize::try_from(seq).ok())
            .filter(|&seq| self.passes(seq))
    }

    /// Filter with `filter` from now on: one that narrows the last
    /// re-checks only the `rows` it had; any other empties them, to be
    /// built again from the ring's oldest record.
    pub fn refilter(&mut self, filter: Option<RecordFilter>, rows: &mut Vec<usize>) {
        let narrows = match (&filter, &self.filter) {
            (Some(new), Some(old)) => new.narrows(old),
            (Some(_), None) => true,
            (None, _) => false,
        };
        self.filter = filter;
        if narrows {
            rows.retain(|&seq| self.passes(seq));
        } else {
            rows.clear();
            self.built_upto = self.first_seq();
        }
    }

    /// Take what session `session` read (another session's batch is
    /// dropped); a notice or the failure waits in `notice`.
    pub fn take_batch(
        &mut self,
        session: u64,
        records: &[Record],
        dropped: u64,
        notices: Vec<String>,
        failed: Option<String>,
    ) {
        if session != self.session {
            return;
        }
        for record in records {
            if self.paused {
                self.held.push(record);
                self.arrived += 1;
            } else {
                self.ring.push(record);
            }
        }
        self.upstream_dropped = dropped;
        if let Some(notice) = notices.into_iter().last() {
            self.notice = Some(format!(
                "topic '{}' {notice}",
                crate::anonymize::name(crate::anonymize::Kind::Topic, &self.topic)
            ));
        }
        if let Some(error) = failed {
            self.notice = Some(error.clone());
            self.failed = Some(error);
        }
    }

    /// Bring the session's rows up to date with the ring: rows of dropped
    /// records go, new records that pass the filter come. A selection on
    /// the last row stays on the last row (the tail is followed); the
    /// anchor, when it arrives, is selected (and held, when asked).
    pub fn follow(&mut self, kept: Kept<'_>) {
        let Kept {
            rows,
            selected,
            offset,
        } = kept;
        let first = self.first_seq();
        let end = self.end_seq();
        let from = self.built_upto.max(first);
        self.built_upto = end;
        let gone = rows.iter().take_while(|&&s| (s as u64) < first).count();
        if gone > 0 {
            rows.drain(..gone);
            *selected = selected.saturating_sub(gone);
            *offset = offset.saturating_sub(gone);
        }
        let at_tail = selected.saturating_add(1) >= rows.len();
        let before = rows.len();
        rows.extend(self.passing(from..end));
        if at_tail && rows.len() > before {
            *selected = rows.len() - 1;
        }
        if let Some((partition, offset)) = self.anchor {
            let found = rows[before..].iter().position(|&seq| {
                self.record(seq)
                    .is_some_and(|r| r.partition == partition && r.offset == offset)
            });
            if let Some(index) = found {
                *selected = before + index;
                self.anchor = None;
                // Held still on it: following would carry the selection off
                // to the newest record within seconds.
                if self.hold_at_anchor.is_some() {
                    self.paused = true;
                }
            }
        }
    }
}
