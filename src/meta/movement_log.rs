//! [`MovementLog`]: the recent movement events, bounded, and a feed of new ones.

use std::collections::VecDeque;
use std::sync::Mutex;

use tokio::sync::broadcast;

use super::movement::MovementEvent;

/// How many events the log keeps by default.
pub const DEFAULT_CAPACITY: usize = 10_000;

/// How far a subscriber may fall behind before it sees `Lagged`.
const FEED_CAPACITY: usize = 4096;

/// A bounded in-memory log of movement events plus a broadcast feed.
///
/// Appending never waits on a subscriber: a subscriber that falls more than
/// the channel's capacity behind gets `RecvError::Lagged` and can re-read
/// [`MovementLog::recent`].
#[derive(Debug)]
pub struct MovementLog {
    capacity: usize,
    events: Mutex<VecDeque<MovementEvent>>,
    feed: broadcast::Sender<MovementEvent>,
}

impl MovementLog {
    /// A log keeping at most `capacity` events (at least one).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        let (feed, _) = broadcast::channel(FEED_CAPACITY);
        Self {
            capacity,
            events: Mutex::new(VecDeque::with_capacity(capacity.min(1024))),
            feed,
        }
    }

    /// Append events, dropping the oldest beyond the capacity, and publish them.
    pub fn extend(&self, events: Vec<MovementEvent>) {
        if events.is_empty() {
            return;
        }
        if let Ok(mut log) = self.events.lock() {
            for event in &events {
                if log.len() == self.capacity {
                    log.pop_front();
                }
                log.push_back(event.clone());
            }
        }
        for event in events {
            // No subscriber is not an error: the log still has it.
            let _ = self.feed.send(event);
        }
    }

    /// The retained events, oldest first.
    pub fn recent(&self) -> Vec<MovementEvent> {
        self.events
            .lock()
            .map(|log| log.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Follow new events from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<MovementEvent> {
        self.feed.subscribe()
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

    #[test]
    fn the_log_is_bounded_and_subscribers_see_new_events() {
        let log = MovementLog::new(2);
        let mut feed = log.subscribe();
        log.extend(vec![event(1), event(2), event(3)]);
        let kept: Vec<MovementKind> = log.recent().into_iter().map(|e| e.kind).collect();
        assert_eq!(
            kept,
            [
                MovementKind::BrokerLeft { broker: 2 },
                MovementKind::BrokerLeft { broker: 3 }
            ]
        );
        assert!(
            feed.try_recv()
                .is_ok_and(|e| e.kind == MovementKind::BrokerLeft { broker: 1 })
        );
    }
}
