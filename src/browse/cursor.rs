//! One partition's reading position, and what a fetch answer does to it:
//! batches decoded in order, records before the position (the batch holding
//! it starts before it; kept only when asked, `keep_from`) or at/after the
//! stop offset left out, aborted transactions and control batches hidden,
//! and the position moved past every batch seen — so a record is never
//! shown twice or skipped, whoever leads the partition next.
//!
//! An answer is decoded lazily: only as many batches as the caller has room
//! for, the rest kept compressed with the cursor ([`Remainder`]) until the
//! partition's buffered records run out. One answer of many batches that
//! each inflate to tens of MB then never holds more than about one of them
//! inflated at a time.

use tokio::time::Instant;

use crate::conn::ErrorCode;
use crate::meta::Disposition;

use super::Isolation;
use super::batch::{self, Item};
use super::error::code_disposition;
use super::fetch::Answer;
use super::notice::Notice;
use super::record::Record;
use super::txn::Aborted;

/// Where a partition stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Still reading.
    Active,
    /// Reached its stop offset.
    Done,
    /// Stopped by a problem (said in a notice).
    Stopped,
}

/// Decoding limits.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// `read_committed` or `read_uncommitted`.
    pub isolation: Isolation,
    /// The largest batch read (bytes, offset and length fields included).
    pub max_batch: usize,
    /// The most a batch may inflate to.
    pub inflate_cap: usize,
}

/// What the answer means for the partition beyond its records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Read (possibly nothing).
    Read,
    /// The leader moved or is not known yet: refresh the topic and ask again.
    Stale(ErrorCode),
    /// The position is outside the log.
    OutOfRange,
}

/// A partition's position.
#[derive(Debug, Clone)]
pub struct Cursor {
    pub partition: i32,
    /// The next offset to read.
    pub next: i64,
    /// Stop before this offset (`None`: follow).
    pub stop: Option<i64>,
    /// Where it stands.
    pub state: State,
    /// Set when the next batch is larger than the per-partition budget: the
    /// partition is asked alone with this many bytes.
    pub wide: Option<usize>,
    /// The end last seen (LSO under `read_committed`, else the high watermark).
    pub bound: i64,
    /// The (LSO, HW) while a transaction is open (said once per opening).
    pub lso_said: Option<(i64, i64)>,
    /// Rounds in a row that failed.
    pub failures: u32,
    /// The batches of the last answer not decoded yet (only while active:
    /// the partition is asked again before they are all decoded only from
    /// where they end, [`Cursor::read_ahead_from`]).
    pub rest: Option<Remainder>,
    /// Not asked again before this instant (a follow fetch came back empty
    /// at once, as if the broker ignored its wait).
    pub not_before: Option<Instant>,
    /// Until the first batch is decoded: that batch's records before the
    /// position are handed out too, from this offset on (see
    /// [`crate::browse::Options::keep_before`]).
    pub keep_from: Option<i64>,
    /// The first offset the records handed out cover: where the cursor was
    /// put, or lower when the first batch's records before it were kept
    /// (that batch's base offset, or `keep_from` if higher).
    pub from: i64,
    /// Bytes of the batches read whole (decoded, hidden as aborted or
    /// control, or partly kept): what the reading covered, without what was
    /// fetched for nothing (answers cut inside a batch, bytes past the stop).
    pub read_bytes: u64,
}

/// The undecoded rest of a fetch answer: its batches still compressed, as
/// the response holds them, and the `read_committed` state reached so far,
/// so that the aborted transactions the answer listed are hidden across the
/// split.
#[derive(Clone)]
pub struct Remainder {
    items: batch::Items,
    aborted: Aborted,
    /// A batch was decoded (or skipped as bad) since the answer came.
    progressed: bool,
    /// The answer held no batches at all.
    empty: bool,
}

impl std::fmt::Debug for Remainder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remainder")
            .field("bytes_left", &self.items.left())
            .field("progressed", &self.progressed)
            .finish_non_exhaustive()
    }
}

impl Cursor {
    /// A cursor at `next`, stopping before `stop`.
    pub fn new(partition: i32, next: i64, stop: Option<i64>) -> Cursor {
        let state = match stop {
            Some(stop) if next >= stop => State::Done,
            _ => State::Active,
        };
        Cursor {
            partition,
            next,
            stop,
            state,
            wide: None,
            bound: stop.unwrap_or(next),
            lso_said: None,
            failures: 0,
            rest: None,
            not_before: None,
            keep_from: None,
            from: next,
            read_bytes: 0,
        }
    }

    /// Where a fetch reading ahead of the kept answer starts, while that
    /// answer has at most `within` bytes left undecoded: the offset after its
    /// last whole batch (see [`batch::Items::end_offset`]). `None` when there
    /// is nothing kept, more than `within` is left, the framing is not plain,
    /// or the stop is reached first.
    pub fn read_ahead_from(&self, within: usize) -> Option<i64> {
        let rest = self.rest.as_ref()?;
        if self.state != State::Active || rest.items.left() > within {
            return None;
        }
        let from = rest.items.end_offset()?.max(self.next);
        (from < self.stop.unwrap_or(i64::MAX)).then_some(from)
    }

    /// Whether records may still be missing before the next one buffered
    /// elsewhere (merging by time waits for it).
    pub fn blocks_merge(&self, follow: bool) -> bool {
        self.state == State::Active && (!follow || self.next < self.bound)
    }

    /// Apply a fetch answer: its bounds and error at once, then its batches
    /// in order until the records decoded weigh `room` bytes or more (see
    /// [`Cursor::fill`]); the batches not decoded yet stay with the cursor
    /// as its [`Remainder`]. Records go to `out`, notices to `notices`. A
    /// `room` of 0 decodes nothing: the whole answer is kept (an answer read
    /// ahead waits, compressed, for the one before it to be decoded).
    pub fn apply(
        &mut self,
        answer: &Answer,
        limits: Limits,
        room: usize,
        out: &mut Vec<Record>,
        notices: &mut Vec<Notice>,
    ) -> Outcome {
        if let Some(code) = ErrorCode::from_code(answer.error_code) {
            if code == ErrorCode::OffsetOutOfRange {
                return Outcome::OutOfRange;
            }
            if code_disposition(code) != Disposition::Fatal {
                self.failures += 1;
                return Outcome::Stale(code);
            }
            self.state = State::Stopped;
            notices.push(Notice::PartitionFailed {
                partition: self.partition,
                error: code.to_string(),
            });
            return Outcome::Read;
        }
        self.failures = 0;
        self.note_bounds(answer, limits.isolation, notices);
        self.rest = Some(Remainder {
            items: batch::items(&answer.records, self.partition, limits.inflate_cap),
            aborted: Aborted::new(answer.aborted.clone()),
            progressed: false,
            empty: answer.records.is_empty(),
        });
        if room > 0 {
            self.fill(limits, room, out, notices);
        }
        Outcome::Read
    }

    /// Decode the next batches of the answer kept undecoded, each whole, until
    /// the records decoded by this call weigh `room` bytes or more
    /// ([`Record::weight`]) or the answer ends; a call with a remainder and
    /// any `room` decodes at least one batch. The position moves past every
    /// batch decoded, so it always names the first offset not yet decoded.
    pub fn fill(
        &mut self,
        limits: Limits,
        room: usize,
        out: &mut Vec<Record>,
        notices: &mut Vec<Notice>,
    ) {
        let Some(mut rest) = self.rest.take() else {
            return;
        };
        let (room, mut weighed) = (room.max(1), 0usize);
        while weighed < room {
            let Some(item) = rest.items.next() else { break };
            match item {
                Item::Batch { header, records } => {
                    if header.next_offset() <= self.next {
                        continue;
                    }
                    if header.length + 12 > limits.max_batch {
                        self.too_large(header.base_offset, header.length + 12, limits, notices);
                        return;
                    }
                    self.read_bytes = self
                        .read_bytes
                        .saturating_add(u64::try_from(header.length + 12).unwrap_or(u64::MAX));
                    let mut from = self.next;
                    if let Some(floor) = self.keep_from.take() {
                        // The batch holding the position came whole: what
                        // it holds before the position is kept, not fetched
                        // again by whoever reads that part later.
                        let head = header.base_offset.max(floor);
                        if head < from {
                            (from, self.from) = (head, self.from.min(head));
                        }
                    }
                    if !rest.aborted.hides(&header, &records) {
                        let stop = self.stop.unwrap_or(i64::MAX);
                        for record in records {
                            if record.offset >= from && record.offset < stop {
                                weighed = weighed.saturating_add(record.weight());
                                out.push(record);
                            }
                        }
                    }
                    self.next = header.next_offset();
                    rest.progressed = true;
                }
                Item::Bad {
                    base_offset,
                    next_offset,
                    error,
                } => {
                    if next_offset <= self.next {
                        continue;
                    }
                    // Nothing of a bad batch is kept.
                    self.keep_from = None;
                    notices.push(Notice::BadBatch {
                        partition: self.partition,
                        offset: base_offset,
                        error,
                    });
                    self.next = next_offset;
                    rest.progressed = true;
                }
                Item::Partial { needed, .. } => {
                    if !rest.progressed {
                        if needed == 0 || needed > limits.max_batch {
                            self.too_large(self.next, needed, limits, notices);
                            return;
                        }
                        self.wide = Some(needed);
                    }
                    rest.items.end();
                    break;
                }
            }
            if self.stop.is_some_and(|stop| self.next >= stop) {
                // Nothing past the stop is shown: the rest need not be inflated.
                rest.items.end();
                break;
            }
        }
        if rest.items.at_end() {
            self.finish(&rest);
        } else {
            self.rest = Some(rest);
        }
    }

    /// The answer is fully decoded: a partition that moved is no longer
    /// asked wide, and one at its stop (or caught up, empty) is done.
    fn finish(&mut self, rest: &Remainder) {
        if rest.progressed {
            self.wide = None;
        }
        let caught_up = !rest.progressed && rest.empty && self.next >= self.bound;
        match self.stop {
            Some(stop) if self.next >= stop || caught_up => self.state = State::Done,
            _ => {}
        }
    }

    fn too_large(&mut self, offset: i64, size: usize, limits: Limits, notices: &mut Vec<Notice>) {
        self.state = State::Stopped;
        notices.push(Notice::BatchTooLarge {
            partition: self.partition,
            offset,
            size,
            limit: limits.max_batch,
        });
    }

    fn note_bounds(&mut self, answer: &Answer, isolation: Isolation, notices: &mut Vec<Notice>) {
        let (lso, high) = (answer.last_stable_offset, answer.high_watermark);
        self.bound = match isolation {
            Isolation::ReadCommitted if lso >= 0 => lso,
            _ => high,
        };
        if isolation == Isolation::ReadCommitted && lso >= 0 && lso < high {
            if self.lso_said.is_none() {
                notices.push(Notice::OpenTransaction {
                    partition: self.partition,
                    lso,
                    high,
                });
            }
            self.lso_said = Some((lso, high));
        } else {
            self.lso_said = None;
        }
    }
}

#[cfg(test)]
#[path = "cursor_tests.rs"]
mod tests;
