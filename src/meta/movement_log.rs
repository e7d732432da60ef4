//! [`MovementLog`]: the recent movement events, bounded, and a feed of new ones.
//!
//! The feed carries one batch per refresh (however many events the diff
//! found: a rolling restart at scale moves 10 000 leaders in one refresh), and
//! every event has a sequence number, so a follower that falls behind learns
//! exactly how many events it missed instead of losing them unseen.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use super::movement::MovementEvent;

/// How many events the log keeps by default.
pub const DEFAULT_CAPACITY: usize = 10_000;

/// How many refreshes' batches a follower may fall behind before it misses
/// some (and is told how many events it missed).
const FEED_BATCHES: usize = 256;

/// The events of one refresh, as published on the feed.
#[derive(Debug, Clone)]
struct Batch {
    /// The sequence number of the first event (events are numbered from 0).
    first: u64,
    events: Arc<[MovementEvent]>,
}

/// What a follower receives: the events of one refresh, and how many events
/// published before them it never saw (0 unless it fell behind).
#[derive(Debug, Clone)]
pub struct Received {
    /// Events skipped because this follower fell more than the feed's
    /// capacity behind. Exact.
    pub missed: u64,
    /// New events, oldest first.
    pub events: Arc<[MovementEvent]>,
}

/// A follower of the movement feed (see [`MovementLog::subscribe`]).
#[derive(Debug)]
pub struct MovementFeed {
    feed: broadcast::Receiver<Batch>,
    /// The sequence number of the next event this follower expects.
    next: u64,
}

impl MovementFeed {
    /// The next batch; `None` once the log is gone.
    pub async fn recv(&mut self) -> Option<Received> {
        loop {
            match self.feed.recv().await {
                Ok(batch) => return Some(self.accept(batch)),
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
        }
    }

    /// The next batch if one is waiting.
    pub fn try_recv(&mut self) -> Option<Received> {
        loop {
            match self.feed.try_recv() {
                Ok(batch) => return Some(self.accept(batch)),
                Err(TryRecvError::Lagged(_)) => {}
                Err(TryRecvError::Empty | TryRecvError::Closed) => return None,
            }
        }
    }

    fn accept(&mut self, batch: Batch) -> Received {
        let missed = batch.first.saturating_sub(self.next);
        self.next = batch.first + batch.events.len() as u64;
        Received {
            missed,
            events: batch.events,
        }
    }
}

#[derive(Debug)]
struct Retained {
    events: VecDeque<MovementEvent>,
    /// How many events were ever published (the next sequence number).
    published: u64,
}

/// A bounded in-memory log of movement events plus a broadcast feed.
///
/// Appending never waits on a follower: one that falls more than
/// `FEED_BATCHES` refreshes behind skips the oldest batches and is told the
/// exact count ([`Received::missed`]).
#[derive(Debug)]
pub struct MovementLog {
    capacity: usize,
    retained: Mutex<Retained>,
    feed: broadcast::Sender<Batch>,
}

impl MovementLog {
    /// A log keeping at most `capacity` events (at least one).
    pub fn new(capacity: usize) -> Self {
        Self::with_feed(capacity, FEED_BATCHES)
    }

    /// A log whose feed holds `batches` refreshes for a slow follower.
    fn with_feed(capacity: usize, batches: usize) -> Self {
        let capacity = capacity.max(1);
        let (feed, _) = broadcast::channel(batches.max(1));
        Self {
            capacity,
            retained: Mutex::new(Retained {
                events: VecDeque::with_capacity(capacity.min(1024)),
                published: 0,
            }),
            feed,
        }
    }

    /// Append the events of one refresh, dropping the oldest beyond the
    /// capacity, and publish them as one batch.
    pub fn extend(&self, events: Vec<MovementEvent>) {
        if events.is_empty() {
            return;
        }
        let Ok(mut retained) = self.retained.lock() else {
            return;
        };
        let overflow = (retained.events.len() + events.len()).saturating_sub(self.capacity);
        let from_old = overflow.min(retained.events.len());
        retained.events.drain(..from_old);
        let skip_new = events.len().saturating_sub(self.capacity);
        retained.events.extend(events[skip_new..].iter().cloned());
        let first = retained.published;
        retained.published += events.len() as u64;
        // Sent under the lock so sequence numbers reach the feed in order.
        // No follower is not an error: the log still has the events.
        let _ = self.feed.send(Batch {
            first,
            events: events.into(),
        });
    }

    /// The retained events, oldest first.
    pub fn recent(&self) -> Vec<MovementEvent> {
        self.retained
            .lock()
            .map(|log| log.events.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Follow new events from now on.
    pub fn subscribe(&self) -> MovementFeed {
        let (feed, next) = match self.retained.lock() {
            Ok(retained) => (self.feed.subscribe(), retained.published),
            Err(_) => (self.feed.subscribe(), 0),
        };
        MovementFeed { feed, next }
    }
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::meta::movement::MovementKind;

    fn event(broker: i32) -> MovementEvent {
        MovementEvent {
            time: SystemTime::now(),
            topic: None,
            partition: None,
            kind: MovementKind::BrokerLeft { broker },
        }
    }

    fn events(range: std::ops::Range<i32>) -> Vec<MovementEvent> {
        range.map(event).collect()
    }

    fn kinds(events: &[MovementEvent]) -> Vec<MovementKind> {
        events.iter().map(|e| e.kind.clone()).collect()
    }

    #[test]
    fn the_log_is_bounded_and_subscribers_see_new_events() {
        let log = MovementLog::new(2);
        let mut feed = log.subscribe();
        log.extend(events(1..4));
        assert_eq!(kinds(&log.recent()), kinds(&events(2..4)));
        let received = feed.try_recv().expect("a batch");
        assert_eq!(received.missed, 0);
        assert_eq!(kinds(&received.events), kinds(&events(1..4)));
    }

    #[test]
    fn ten_thousand_moves_in_one_refresh_all_reach_a_follower() {
        let log = MovementLog::new(DEFAULT_CAPACITY);
        let mut feed = log.subscribe();
        log.extend(events(0..10_000));
        log.extend(events(10_000..25_000));
        let mut seen = Vec::new();
        while let Some(received) = feed.try_recv() {
            assert_eq!(received.missed, 0);
            seen.extend(kinds(&received.events));
        }
        assert_eq!(seen, kinds(&events(0..25_000)));
        assert_eq!(log.recent().len(), DEFAULT_CAPACITY);
    }

    #[test]
    fn a_follower_that_falls_behind_is_told_exactly_how_many_it_missed() {
        let log = MovementLog::with_feed(100, 2);
        let mut feed = log.subscribe();
        log.extend(events(0..3));
        log.extend(events(3..10));
        log.extend(events(10..12));
        log.extend(events(12..13));
        let first = feed.try_recv().expect("a batch after the gap");
        assert_eq!(first.missed, 10, "the first two batches (3 + 7 events)");
        assert_eq!(kinds(&first.events), kinds(&events(10..12)));
        let second = feed.try_recv().expect("the last batch");
        assert_eq!(second.missed, 0);
        assert!(feed.try_recv().is_none());
    }

    #[test]
    fn a_late_subscriber_starts_from_now_without_a_phantom_gap() {
        let log = MovementLog::new(10);
        log.extend(events(0..5));
        let mut feed = log.subscribe();
        log.extend(events(5..6));
        let received = feed.try_recv().expect("a batch");
        assert_eq!(received.missed, 0);
    }
}
