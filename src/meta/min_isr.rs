//! `under_min_isr` / `min_isr_restored`: a partition whose ISR is smaller
//! than its topic's `min.insync.replicas` refuses `acks=all` writes. The
//! metadata carries the ISR, not the config, so whoever reads the configs
//! hands this tracker the topics' `min.insync.replicas` with each snapshot;
//! it says when a partition goes under and when it is back, once each.
//!
//! A topic's first look is its baseline (a partition already under when
//! kscope starts is state, not news), as a first snapshot is for the
//! movement diff. Memory: the partitions under min ISR, and the names of
//! the topics looked at. Work per call: one pass over the partitions of
//! the topics with a known `min.insync.replicas`, allocating only for
//! topics with a partition under it (and their events).
//!
//! Rate limited as the movement log is ([`EventGate`]): a broker holding
//! the ISR of many min-ISR topics takes them all under at once, and past
//! the kind's limit the rest arrive as one counted `events_suppressed`
//! record per kind and call.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::SystemTime;

use super::event_limits::{EventGate, Limits};
use super::movement::{MovementEvent, MovementKind};
use super::snapshot::MetadataSnapshot;

/// The partitions under min ISR, across snapshots.
#[derive(Debug, Default)]
pub struct MinIsrWatch {
    /// Topic → its partitions under min ISR (topics with none absent).
    under: HashMap<String, BTreeSet<i32>>,
    /// Topics whose baseline was taken.
    looked: HashSet<String>,
    /// The per-kind rate limit of what is said.
    gate: EventGate,
}

impl MinIsrWatch {
    /// Nothing known yet; the movement log's default rate limits.
    pub fn new() -> MinIsrWatch {
        MinIsrWatch::default()
    }

    /// Nothing known yet; `limits`' rate limit.
    pub fn with_limits(limits: Limits) -> MinIsrWatch {
        MinIsrWatch {
            gate: EventGate::new(limits),
            ..MinIsrWatch::default()
        }
    }

    /// Compare `snapshot`'s ISRs with `min_isr` (a topic's
    /// `min.insync.replicas`, when known); the events since the last call,
    /// at `at`, rate limited. Topics without a known value are skipped
    /// (never judged on a guessed one); a deleted topic's partitions are
    /// forgotten without an event (`topic_deleted` says it). Nothing is
    /// allocated for a topic that has no partition under min ISR and had
    /// none.
    pub fn observe(
        &mut self,
        snapshot: &MetadataSnapshot,
        min_isr: impl Fn(&str) -> Option<usize>,
        at: SystemTime,
    ) -> Vec<MovementEvent> {
        let mut events = Vec::new();
        let mut under = HashMap::with_capacity(self.under.len());
        for topic in snapshot.topics() {
            let Some(min) = min_isr(&topic.name) else {
                continue;
            };
            let baseline = !self.looked.contains(&topic.name);
            if baseline {
                self.looked.insert(topic.name.clone());
            }
            let held = self.under.get(&topic.name);
            let mut now_under = BTreeSet::new();
            for p in &topic.partitions {
                let now = p.isr.len() < min;
                let was = held.is_some_and(|set| set.contains(&p.partition));
                let kind = match (was, now) {
                    (false, true) => Some(MovementKind::UnderMinIsr {
                        isr: p.isr.to_vec(),
                        min_isr: min,
                    }),
                    (true, false) => Some(MovementKind::MinIsrRestored {
                        isr: p.isr.to_vec(),
                        min_isr: min,
                    }),
                    (true, true) | (false, false) => None,
                };
                if let Some(kind) = kind.filter(|_| !baseline) {
                    events.push(MovementEvent {
                        time: at,
                        topic: Some(topic.name.clone()),
                        partition: Some(p.partition),
                        kind,
                    });
                }
                if now {
                    now_under.insert(p.partition);
                }
            }
            if !now_under.is_empty() {
                under.insert(topic.name.clone(), now_under);
            }
        }
        self.under = under;
        if self.looked.len() > snapshot.topics().len() {
            self.looked.retain(|name| snapshot.topic(name).is_some());
        }
        self.gate.admit(events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::fixtures::snapshot_with_isr;

    #[test]
    fn under_and_back_are_said_once_each_and_the_first_look_is_a_baseline() {
        let known = HashMap::from([("orders".to_owned(), 3)]);
        let min = |t: &str| known.get(t).copied();
        let at = SystemTime::UNIX_EPOCH;
        let mut watch = MinIsrWatch::new();
        // Already under at the start: the baseline, no event.
        assert!(
            watch
                .observe(
                    &snapshot_with_isr("orders", &[&[1, 2], &[1, 2, 3]]),
                    min,
                    at
                )
                .is_empty()
        );
        let events = watch.observe(&snapshot_with_isr("orders", &[&[1, 2], &[1, 2]]), min, at);
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(events[0].partition, Some(1));
        assert_eq!(
            events[0].kind,
            MovementKind::UnderMinIsr {
                isr: vec![1, 2],
                min_isr: 3
            }
        );
        let same = watch.observe(&snapshot_with_isr("orders", &[&[1, 2], &[1, 2]]), min, at);
        assert!(same.is_empty(), "said once: {same:?}");
        let back = watch.observe(
            &snapshot_with_isr("orders", &[&[1, 2, 3], &[1, 2, 3]]),
            min,
            at,
        );
        let partitions: Vec<Option<i32>> = back.iter().map(|e| e.partition).collect();
        assert_eq!(partitions, [Some(0), Some(1)]);
        assert!(back.iter().all(|e| e.kind.name() == "min_isr_restored"));
        // Unknown min ISR: nothing said.
        let unknown = watch.observe(
            &snapshot_with_isr("orders", &[&[1], &[1]]),
            |_: &str| None,
            at,
        );
        assert!(unknown.is_empty());
    }

    #[test]
    fn a_storm_over_the_kind_limit_is_folded_into_one_counted_record() {
        let limits = Limits {
            per_kind: 3,
            ..Limits::default()
        };
        let mut watch = MinIsrWatch::with_limits(limits);
        let at = SystemTime::UNIX_EPOCH;
        let min = |_: &str| Some(2);
        let healthy: Vec<&[i32]> = vec![&[1, 2, 3]; 10];
        let under: Vec<&[i32]> = vec![&[1]; 10];
        assert!(
            watch
                .observe(&snapshot_with_isr("orders", &healthy), min, at)
                .is_empty()
        );
        let events = watch.observe(&snapshot_with_isr("orders", &under), min, at);
        let names: Vec<&str> = events.iter().map(|e| e.kind.name()).collect();
        assert_eq!(
            names,
            [
                "under_min_isr",
                "under_min_isr",
                "under_min_isr",
                "events_suppressed"
            ]
        );
        assert_eq!(
            events[3].kind,
            MovementKind::EventsSuppressed {
                suppressed: "under_min_isr",
                count: 7,
                severity: events[0].kind.severity(),
            },
            "the seven over the limit are counted, not dropped"
        );
        // The window is per kind: the restores still have their own three.
        let back = watch.observe(&snapshot_with_isr("orders", &healthy), min, at);
        assert_eq!(back.len(), 4);
        assert!(matches!(
            back[3].kind,
            MovementKind::EventsSuppressed {
                suppressed: "min_isr_restored",
                count: 7,
                ..
            }
        ));
    }
}
