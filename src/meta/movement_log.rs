//! [`MovementLog`]: the recent movement events, bounded, and a feed of new ones.
//!
//! The feed carries one batch per refresh (however many events the diff
//! found: a rolling restart at scale moves 10 000 leaders in one refresh), and
//! every event has a sequence number, so a follower that falls behind learns
//! exactly how many events it missed instead of losing them unseen.
//!
//! What is kept is bounded by count and by approximate bytes, and each kind
//! is rate limited: events over a kind's limit are folded into one counted
//! `events_suppressed` record per batch, which the feed carries like any
//! other event (see [`super::event_limits`] for the sizing).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

pub use super::event_limits::{DEFAULT_CAPACITY, Limits};
use super::event_limits::{RateLimiter, approx_bytes};
use super::movement::MovementEvent;

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
    /// The approximate bytes of `events`.
    bytes: usize,
    /// How many events were ever published (the next sequence number).
    published: u64,
    limiter: RateLimiter,
}

impl Retained {
    /// Keep `batch` (already admitted), dropping the oldest beyond `limits`.
    fn keep(&mut self, batch: &[MovementEvent], limits: &Limits) {
        // The newest that fit on their own: a batch larger than the bounds
        // keeps its tail.
        let (mut from, mut count, mut bytes) = (batch.len(), 0, 0);
        while let Some(event) = from.checked_sub(1).and_then(|i| batch.get(i)) {
            let size = approx_bytes(event);
            if count + 1 > limits.max_events || (count > 0 && bytes + size > limits.max_bytes) {
                break;
            }
            (from, count, bytes) = (from - 1, count + 1, bytes + size);
        }
        while !self.events.is_empty()
            && (self.events.len() + count > limits.max_events
                || self.bytes + bytes > limits.max_bytes)
        {
            if let Some(old) = self.events.pop_front() {
                self.bytes -= approx_bytes(&old);
            }
        }
        self.events.extend(batch[from..].iter().cloned());
        self.bytes += bytes;
    }
}

/// A bounded in-memory log of movement events plus a broadcast feed.
///
/// Appending never waits on a follower: one that falls more than
/// `FEED_BATCHES` refreshes behind skips the oldest batches and is told the
/// exact count ([`Received::missed`]).
#[derive(Debug)]
pub struct MovementLog {
    limits: Limits,
    retained: Mutex<Retained>,
    feed: broadcast::Sender<Batch>,
}

impl MovementLog {
    /// A log keeping at most `capacity` events (at least one), with the
    /// default byte bound and rate limits.
    pub fn new(capacity: usize) -> Self {
        Self::with_limits(Limits::with_capacity(capacity))
    }

    /// A log bounded by `limits`.
    pub fn with_limits(limits: Limits) -> Self {
        Self::with_feed(limits, FEED_BATCHES)
    }

    /// A log whose feed holds `batches` refreshes for a slow follower.
    fn with_feed(limits: Limits, batches: usize) -> Self {
        let limits = Limits {
            max_events: limits.max_events.max(1),
            ..limits
        };
        let (feed, _) = broadcast::channel(batches.max(1));
        Self {
            limits,
            retained: Mutex::new(Retained {
                events: VecDeque::with_capacity(limits.max_events.min(1024)),
                bytes: 0,
                published: 0,
                limiter: RateLimiter::default(),
            }),
            feed,
        }
    }

    /// Append the events of one refresh and publish them as one batch:
    /// those over their kind's rate limit folded into counted records, the
    /// oldest retained dropped beyond the count and byte bounds.
    pub fn extend(&self, events: Vec<MovementEvent>) {
        if events.is_empty() {
            return;
        }
        let Ok(mut retained) = self.retained.lock() else {
            return;
        };
        let events = retained.limiter.admit(events, &self.limits);
        retained.keep(&events, &self.limits);
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

    /// The approximate bytes of the retained events.
    pub fn retained_bytes(&self) -> usize {
        self.retained
            .lock()
            .map(|log| log.bytes)
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
        let log = MovementLog::with_limits(Limits::with_capacity(10_000).unlimited_rate());
        let mut feed = log.subscribe();
        log.extend(events(0..10_000));
        log.extend(events(10_000..25_000));
        let mut seen = Vec::new();
        while let Some(received) = feed.try_recv() {
            assert_eq!(received.missed, 0);
            seen.extend(kinds(&received.events));
        }
        assert_eq!(seen, kinds(&events(0..25_000)));
        assert_eq!(log.recent().len(), 10_000);
    }

    #[test]
    fn a_follower_that_falls_behind_is_told_exactly_how_many_it_missed() {
        let log = MovementLog::with_feed(Limits::with_capacity(100), 2);
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

    fn leader_moves(at: SystemTime, range: std::ops::Range<i32>) -> Vec<MovementEvent> {
        range
            .map(|p| MovementEvent {
                time: at,
                topic: Some("orders".to_owned()),
                partition: Some(p),
                kind: MovementKind::LeaderChanged {
                    from: 1,
                    to: 2,
                    epoch: 7,
                },
            })
            .collect()
    }

    fn shrinks(at: SystemTime, range: std::ops::Range<i32>, isr: usize) -> Vec<MovementEvent> {
        range
            .map(|p| MovementEvent {
                time: at,
                topic: Some("orders".to_owned()),
                partition: Some(p),
                kind: MovementKind::IsrShrank {
                    isr: (0..i32::try_from(isr).unwrap_or(0)).collect(),
                    removed: vec![-1],
                },
            })
            .collect()
    }

    #[test]
    fn the_log_is_bounded_by_bytes_and_a_wide_isr_counts_its_size() {
        let at = SystemTime::now();
        let small = approx_bytes(&shrinks(at, 0..1, 3)[0]);
        let wide = approx_bytes(&shrinks(at, 0..1, 1000)[0]);
        assert_eq!(wide, small + 997 * 4, "a 1000-broker ISR counts its 4 KB");
        let limits = Limits {
            max_bytes: 10 * wide,
            ..Limits::with_capacity(1_000_000).unlimited_rate()
        };
        let log = MovementLog::with_limits(limits);
        log.extend(shrinks(at, 0..100, 3));
        assert_eq!(log.recent().len(), 100, "100 small events fit");
        log.extend(shrinks(at, 100..120, 1000));
        let kept = log.recent();
        assert_eq!(kept.len(), 10, "only the newest ten wide events fit");
        assert_eq!(kept[0].partition, Some(110));
        assert!(log.retained_bytes() <= limits.max_bytes);
        assert_eq!(
            log.retained_bytes(),
            kept.iter().map(approx_bytes).sum::<usize>()
        );
        log.extend(shrinks(at, 120..121, 3));
        assert_eq!(
            log.recent().len(),
            10,
            "a small one pushes out one wide one"
        );
        assert_eq!(log.recent()[0].partition, Some(111));
    }

    /// A synthetic rolling restart: 10 000 leaders move in one refresh, the
    /// ISRs shrink in the next, with a limit of 1 000 per kind per minute.
    #[test]
    fn a_storm_over_the_rate_limit_is_folded_into_counted_records_never_dropped() {
        let limits = Limits {
            per_kind: 1_000,
            ..Limits::default()
        };
        let log = MovementLog::with_limits(limits);
        let mut feed = log.subscribe();
        let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_790_000_000);
        log.extend(leader_moves(at, 0..10_000));
        let mut storm = shrinks(at + std::time::Duration::from_secs(2), 0..3_000, 2);
        storm.extend(leader_moves(
            at + std::time::Duration::from_secs(2),
            10_000..10_500,
        ));
        log.extend(storm);
        // A minute later the window is new: the next moves pass again.
        log.extend(leader_moves(
            at + std::time::Duration::from_secs(61),
            20_000..20_010,
        ));

        let mut seen = Vec::new();
        while let Some(received) = feed.try_recv() {
            assert_eq!(received.missed, 0);
            seen.extend(received.events.iter().cloned());
        }
        let count = |name: &str| seen.iter().filter(|e| e.kind.name() == name).count() as u64;
        let folded = |name: &str| -> Vec<u64> {
            seen.iter()
                .filter_map(|e| match &e.kind {
                    MovementKind::EventsSuppressed {
                        suppressed, count, ..
                    } if *suppressed == name => Some(*count),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(count("leader_changed"), 1_000 + 10);
        assert_eq!(
            folded("leader_changed"),
            [9_000, 500],
            "one record per refresh"
        );
        assert_eq!(count("isr_shrank"), 1_000);
        assert_eq!(folded("isr_shrank"), [2_000]);
        let published = count("leader_changed") + count("isr_shrank");
        let suppressed: u64 = folded("leader_changed")
            .iter()
            .chain(&folded("isr_shrank"))
            .sum();
        assert_eq!(
            published + suppressed,
            10_000 + 3_500 + 10,
            "every event is accounted for"
        );
        let first_fold = seen
            .iter()
            .position(|e| e.kind.name() == "events_suppressed");
        assert_eq!(
            first_fold,
            Some(1_000),
            "the fold follows its batch's kept events"
        );
        assert_eq!(
            seen[1_000].kind.severity(),
            crate::meta::severity::Severity::Info
        );
        let shrink_fold = seen.iter().find(|e| {
            matches!(
                e.kind,
                MovementKind::EventsSuppressed {
                    suppressed: "isr_shrank",
                    ..
                }
            )
        });
        assert_eq!(
            shrink_fold.map(|e| e.kind.severity()),
            Some(crate::meta::severity::Severity::Warn),
            "a fold keeps its kind's severity"
        );
        assert_eq!(log.recent().len(), seen.len());
    }
}
