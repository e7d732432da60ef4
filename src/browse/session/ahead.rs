//! Reading ahead: a partition whose kept answer is nearly decoded is asked
//! for what follows it before it runs out, so the next answer is on its way
//! while the caller prints this one (on an uncompressed topic the wire, not
//! the decoding, is what a read waits for). The answer read ahead is kept
//! whole and compressed, beside the cursor, until the one before it is
//! decoded to its end; then it takes the cursor's place. At most one fetch
//! per partition is out, read ahead or not.

use std::collections::BTreeMap;

use crate::browse::Event;
use crate::browse::cursor::{Cursor, Outcome, State};
use crate::browse::in_flight::Decoded;
use crate::browse::notice::Notice;

/// A partition is read ahead once its kept answer has at most this many
/// bytes (as fetched, compressed) left to decode: about one
/// [`super::DECODE_STEP`] of an uncompressed topic, several of a compressed
/// one. So a partition holds at most this much plus one answer undecoded.
pub(super) const READ_AHEAD_WITHIN: usize = 256 * 1024;

/// An answer read ahead, waiting for the one before it.
#[derive(Debug)]
pub(super) struct Ahead {
    /// The cursor the answer moved: at the offset it was asked from, with
    /// the whole answer as its rest.
    cursor: Cursor,
    /// What the answer said (an open transaction, a partition failure),
    /// said when it takes the cursor's place.
    notices: Vec<Notice>,
}

/// The copy of `cursor` a fetch read ahead from `from` goes out with: the
/// same partition state, at `from`, nothing kept (and nothing before
/// `from` to keep).
pub(super) fn cursor_at(cursor: &Cursor, from: i64) -> Cursor {
    let mut ahead = cursor.clone();
    ahead.rest = None;
    ahead.next = from;
    ahead.keep_from = None;
    ahead
}

/// The answers read ahead, by partition: at most one each.
#[derive(Debug, Default)]
pub(super) struct ReadAhead(BTreeMap<i32, Ahead>);

impl ReadAhead {
    /// No answer is waiting.
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Partition `p` has an answer waiting.
    pub(super) fn holds(&self, p: i32) -> bool {
        self.0.contains_key(&p)
    }

    /// Keep an answer read ahead until the partition's kept answer is
    /// decoded. One that failed (a stale leader, an offset out of range) is
    /// dropped: the partition is asked again from where it is once its kept
    /// answer is decoded, and meets the failure then.
    pub(super) fn stash(&mut self, answer: Decoded) {
        let partition = answer.cursor.partition;
        if answer.outcome != Outcome::Read {
            tracing::debug!(partition, outcome = ?answer.outcome, "an answer read ahead is dropped");
            return;
        }
        debug_assert!(
            answer.records.is_empty(),
            "an answer read ahead is not decoded"
        );
        self.0.insert(
            partition,
            Ahead {
                cursor: answer.cursor,
                notices: answer.notices,
            },
        );
    }

    /// Partition `p` decoded its kept answer to the end and handed it out:
    /// the answer read ahead, if one landed, takes the cursor's place, if
    /// the cursor is still active and ends where that answer starts.
    pub(super) fn adopt(
        &mut self,
        cursors: &mut BTreeMap<i32, Cursor>,
        p: i32,
        events: &mut Vec<Event>,
    ) {
        let Some(cursor) = cursors.get_mut(&p) else {
            return;
        };
        if cursor.rest.is_some() {
            return;
        }
        let Some(ahead) = self.0.remove(&p) else {
            return;
        };
        if cursor.state != State::Active || cursor.next != ahead.cursor.next {
            tracing::debug!(
                p,
                at = cursor.next,
                ahead = ahead.cursor.next,
                "an answer read ahead no longer follows on"
            );
            return;
        }
        // What the partition's reading covered stays: the copy was made
        // before the kept answer's last batches were decoded.
        let (from, read_bytes) = (cursor.from, cursor.read_bytes);
        *cursor = ahead.cursor;
        (cursor.from, cursor.read_bytes) = (from, read_bytes);
        events.extend(ahead.notices.into_iter().map(Event::Notice));
    }
}
