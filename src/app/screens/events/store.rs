//! The events timeline's store: every event of the model as it
//! arrives (leader moves, ISR changes, partitions added, brokers silent or
//! back, quorum elections, folds of rate-limited kinds), kept in a bounded
//! ring, and how many of each severity came in the last
//! [`RECENT`] for the header. The header and the strips under other
//! screens read it too, as `AppState::screens.events`.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

use crate::meta::{MovementEvent, Severity};

use super::super::leaders::movement_key;
use super::columns;

/// How many events the timeline keeps (the oldest go first). Each is a few
/// dozen bytes plus its ISR or replica lists.
pub const EVENTS_KEPT: usize = 100_000;

/// The header counts the events of this last stretch of time.
pub const RECENT: Duration = Duration::from_mins(5);

/// The timeline and its recent counts.
#[derive(Debug, Default)]
pub struct EventsStore {
    /// Events, oldest first.
    pub ring: VecDeque<MovementEvent>,
    /// Events received in all (also those dropped from the front): rows
    /// are rebuilt when it moves.
    pub seen: u64,
    /// Events of the last [`RECENT`] per severity: critical, warn, info.
    pub recent: [usize; 3],
    /// What `/` matches for each event of `ring`, in step with it: made
    /// once as the event arrives, so that a keystroke over a full
    /// timeline only compares text (formatting every event again was
    /// three fifths of a keystroke's 33 ms over 100k events).
    keys: VecDeque<Box<str>>,
}

/// What `/` matches on the timeline: the leader-movement key (topic,
/// partition, kind, `bN` for each broker named), the subject, the
/// severity and the source.
fn event_key(event: &MovementEvent) -> String {
    format!(
        "{} {} {} {}",
        movement_key(event),
        columns::subject(event),
        event.kind.severity().name(),
        event.kind.source().name()
    )
}

impl EventsStore {
    /// Take a batch of events.
    pub fn push(&mut self, events: &[MovementEvent]) {
        for event in events {
            self.keys.push_back(event_key(event).into_boxed_str());
            self.ring.push_back(event.clone());
            self.seen += 1;
        }
        let over = self.ring.len().saturating_sub(EVENTS_KEPT);
        self.ring.drain(..over);
        self.keys.drain(..over);
    }

    /// What `/` matches for each event, oldest first (as `ring`).
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(AsRef::as_ref)
    }

    /// Count the events of the last [`RECENT`] before `wall` per severity.
    /// Walks back from the newest and stops at the first older one: the
    /// ring is in arrival order.
    pub fn count_recent(&mut self, wall: SystemTime) {
        let since = wall.checked_sub(RECENT).unwrap_or(SystemTime::UNIX_EPOCH);
        let mut recent = [0; 3];
        for event in self.ring.iter().rev().take_while(|e| e.time >= since) {
            let slot = match event.kind.severity() {
                Severity::Critical => 0,
                Severity::Warn => 1,
                Severity::Info => 2,
            };
            recent[slot] += 1;
        }
        self.recent = recent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::MovementKind;

    fn at(secs: u64, kind: MovementKind) -> MovementEvent {
        MovementEvent {
            time: SystemTime::UNIX_EPOCH + Duration::from_secs(secs),
            topic: None,
            partition: None,
            kind,
        }
    }

    #[test]
    fn the_ring_is_bounded_and_recent_counts_look_back_five_minutes() {
        let mut store = EventsStore::default();
        let silent = MovementKind::BrokerNotAnswering { broker: 1 };
        let left = MovementKind::BrokerLeft { broker: 1 };
        let joined = MovementKind::BrokerJoined {
            broker: 1,
            address: "h:1".to_owned(),
        };
        store.push(&[
            at(1_000, silent.clone()),
            at(1_500, left),
            at(1_600, joined),
        ]);
        store.count_recent(SystemTime::UNIX_EPOCH + Duration::from_secs(1_700));
        assert_eq!(store.recent, [0, 1, 1], "the first is older than 5 minutes");
        let many: Vec<MovementEvent> = (0..EVENTS_KEPT as u64)
            .map(|s| at(2_000 + s, silent.clone()))
            .collect();
        store.push(&many);
        assert_eq!(store.ring.len(), EVENTS_KEPT);
        assert_eq!(store.seen, EVENTS_KEPT as u64 + 3);
        // The filter's keys stay in step with the ring as its front goes.
        store.push(&[at(9_000_000, MovementKind::BrokerLeft { broker: 7 })]);
        let keys: Vec<&str> = store.keys().collect();
        assert_eq!(keys.len(), store.ring.len());
        assert_eq!(keys[0], event_key(&store.ring[0]));
        assert!(keys[keys.len() - 1].contains("b7"), "{}", keys[keys.len() - 1]);
    }
}
