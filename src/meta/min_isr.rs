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

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::SystemTime;

use super::movement::{MovementEvent, MovementKind};
use super::snapshot::MetadataSnapshot;

/// The partitions under min ISR, across snapshots.
#[derive(Debug, Default)]
pub struct MinIsrWatch {
    /// Topic → its partitions under min ISR (topics with none absent).
    under: HashMap<String, BTreeSet<i32>>,
    /// Topics whose baseline was taken.
    looked: HashSet<String>,
}

impl MinIsrWatch {
    /// Nothing known yet.
    pub fn new() -> MinIsrWatch {
        MinIsrWatch::default()
    }

    /// Compare `snapshot`'s ISRs with `min_isr` (topic → its
    /// `min.insync.replicas`); the events since the last call, at `at`.
    /// Topics without a known value are skipped; a deleted topic's
    /// partitions are forgotten without an event (`topic_deleted` says it).
    /// Nothing is allocated for a topic that has no partition under min
    /// ISR and had none.
    pub fn observe(
        &mut self,
        snapshot: &MetadataSnapshot,
        min_isr: &HashMap<String, usize>,
        at: SystemTime,
    ) -> Vec<MovementEvent> {
        let mut events = Vec::new();
        let mut under = HashMap::with_capacity(self.under.len());
        for topic in snapshot.topics() {
            let Some(&min) = min_isr.get(&topic.name) else {
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
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::fixtures::snapshot_with_isr;

    #[test]
    fn under_and_back_are_said_once_each_and_the_first_look_is_a_baseline() {
        let min = HashMap::from([("orders".to_owned(), 3)]);
        let at = SystemTime::UNIX_EPOCH;
        let mut watch = MinIsrWatch::new();
        // Already under at the start: the baseline, no event.
        assert!(
            watch
                .observe(
                    &snapshot_with_isr("orders", &[&[1, 2], &[1, 2, 3]]),
                    &min,
                    at
                )
                .is_empty()
        );
        let events = watch.observe(&snapshot_with_isr("orders", &[&[1, 2], &[1, 2]]), &min, at);
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(events[0].partition, Some(1));
        assert_eq!(
            events[0].kind,
            MovementKind::UnderMinIsr {
                isr: vec![1, 2],
                min_isr: 3
            }
        );
        let same = watch.observe(&snapshot_with_isr("orders", &[&[1, 2], &[1, 2]]), &min, at);
        assert!(same.is_empty(), "said once: {same:?}");
        let back = watch.observe(
            &snapshot_with_isr("orders", &[&[1, 2, 3], &[1, 2, 3]]),
            &min,
            at,
        );
        let partitions: Vec<Option<i32>> = back.iter().map(|e| e.partition).collect();
        assert_eq!(partitions, [Some(0), Some(1)]);
        assert!(back.iter().all(|e| e.kind.name() == "min_isr_restored"));
        // Unknown min ISR: nothing said.
        let unknown = watch.observe(
            &snapshot_with_isr("orders", &[&[1], &[1]]),
            &HashMap::new(),
            at,
        );
        assert!(unknown.is_empty());
    }
}
