//! The events timeline's store: every event of the model as it
//! arrives (leader moves, ISR changes, partitions added, brokers silent or
//! back, quorum elections, folds of rate-limited kinds), kept in a bounded
//! ring, and how many of each severity came in the last
//! [`RECENT`] for the header. The header and the strips under other
//! screens read it too, as `AppState::screens.events`.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime};

use crate::meta::{MovementEvent, Severity};

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
}

impl EventsStore {
    /// Take a batch of events.
    pub fn push(&mut self, events: &[MovementEvent]) {
        for event in events {
            self.ring.push_back(event.clone());
            self.seen += 1;
        }
        let over = self.ring.len().saturating_sub(EVENTS_KEPT);
        self.ring.drain(..over);
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
    }
}
