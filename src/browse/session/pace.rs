//! Pacing follow fetches. A broker holds a follow fetch open up to its
//! `max_wait` (`follow_wait`) until records arrive; one that answers empty
//! at once instead (a proxy, a broker ignoring the wait) would otherwise be
//! asked again at once, thousands of times a second. Such an answer holds
//! its partitions back until `follow_wait` has passed since the fetch was
//! sent, as if the broker had waited: at most one empty fetch per partition
//! per `follow_wait`, and no delay at all while records flow.

use tokio::time::Instant;

use super::{Browser, Queue};
use crate::browse::cursor::State;
use crate::browse::fetch::Ask;

impl Browser {
    /// A fetch sent at `sent` for `asks` came back without a single record
    /// batch: if that was well before `follow_wait` (under half of it), hold
    /// its partitions back until `follow_wait` after `sent`. An answer that
    /// came back early because another partition had records is not paced
    /// (the caller checks that none had).
    pub(super) fn pace(&mut self, asks: &[Ask], sent: Instant) {
        let wait = self.options.follow_wait;
        if !self.options.follow || sent.elapsed() >= wait / 2 {
            return;
        }
        let Some(at) = sent.checked_add(wait) else {
            return;
        };
        for ask in asks {
            if let Some(cursor) = self.cursors.get_mut(&ask.partition) {
                cursor.not_before = Some(at);
            }
        }
    }

    /// The earliest instant still ahead at which a partition held back
    /// would be asked again (active, nothing buffered or kept undecoded, no
    /// fetch out).
    pub(super) fn next_wake(&self) -> Option<Instant> {
        let now = Instant::now();
        self.cursors
            .iter()
            .filter(|(p, c)| {
                c.state == State::Active
                    && c.rest.is_none()
                    && !self.in_flight.asks(**p)
                    && self.queues.get(p).is_none_or(Queue::is_empty)
            })
            .filter_map(|(_, c)| c.not_before)
            .filter(|at| *at > now)
            .min()
    }
}
