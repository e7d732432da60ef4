//! Lag arithmetic: per partition `end − committed` (what Kafka's
//! `ConsumerGroupCommand` calls LAG), and totals per group and per topic.
//! A partition without a commit has no lag number — it is reported as
//! uncommitted, never as 0 (which would read as "caught up"). A commit past
//! the end is reported as such, never as 0 either. Of the lagging offsets,
//! those below the log start offset were already deleted by retention: they
//! are counted apart ([`PartitionLag::deleted`]), as the consumer will never
//! read them.

use std::sync::Arc;

/// One partition's offsets as far as they are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionLag {
    /// The topic (shared by every partition of it: see `topic_names.rs`).
    pub topic: Arc<str>,
    pub partition: i32,
    /// The group's committed offset; `None`: the group never committed here.
    pub committed: Option<i64>,
    /// The partition's end offset (high watermark); `None`: not available
    /// (leaderless, or its `ListOffsets` failed).
    pub end: Option<i64>,
    /// The partition's log start offset (records below it were deleted by
    /// retention); `None`: not read.
    pub start: Option<i64>,
    /// The lag the broker itself reports, where it does (share groups from
    /// Kafka 4.2: records above the start offset already acknowledged are
    /// not lag, so it can be less than `end − committed`).
    pub reported: Option<i64>,
}

/// What a partition's lag is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lag {
    /// `end − committed` (0 or more).
    Records(i64),
    /// The committed offset is this many offsets past the end (the topic
    /// was recreated or truncated under the group): no lag number.
    PastEnd(i64),
    /// The group has no committed offset for the partition.
    NoCommit,
    /// Committed, but the end offset is unknown.
    UnknownEnd,
}

impl std::fmt::Display for Lag {
    /// The number of records, `no commit`, or `unknown` (never 0 for "no
    /// number").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lag::Records(n) => write!(f, "{n}"),
            Lag::PastEnd(n) => write!(f, "past end +{n}"),
            Lag::NoCommit => f.write_str("no commit"),
            Lag::UnknownEnd => f.write_str("unknown"),
        }
    }
}

impl PartitionLag {
    /// The partition's lag.
    pub fn lag(&self) -> Lag {
        if let (Some(_), Some(reported)) = (self.committed, self.reported) {
            return Lag::Records(reported.max(0));
        }
        match (self.committed, self.end) {
            (None, _) => Lag::NoCommit,
            (Some(_), None) => Lag::UnknownEnd,
            (Some(committed), Some(end)) if committed > end => {
                Lag::PastEnd(committed.saturating_sub(end))
            }
            (Some(committed), Some(end)) => Lag::Records(end.saturating_sub(committed)),
        }
    }

    /// How many of the lagging offsets were already deleted by retention
    /// (below the log start offset), when the start offset is known.
    pub fn deleted(&self) -> Option<i64> {
        let (committed, end, start) = (self.committed?, self.end?, self.start?);
        (committed <= end).then(|| start.min(end).saturating_sub(committed).max(0))
    }

    /// The lag in records, if there is a number.
    pub fn records(&self) -> Option<i64> {
        match self.lag() {
            Lag::Records(n) => Some(n),
            Lag::PastEnd(_) | Lag::NoCommit | Lag::UnknownEnd => None,
        }
    }
}

/// Totals over a set of partitions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LagTotals {
    /// Sum of the partitions with a lag number.
    pub records: i64,
    /// Partitions counted in `records`.
    pub counted: usize,
    /// Partitions without a commit.
    pub uncommitted: usize,
    /// Committed partitions whose end offset is unknown.
    pub unknown_end: usize,
    /// Partitions whose commit is past the end.
    pub past_end: usize,
    /// Of `records`, how many were already deleted by retention.
    pub deleted: i64,
}

impl LagTotals {
    fn add(&mut self, partition: &PartitionLag) {
        self.deleted = self
            .deleted
            .saturating_add(partition.deleted().unwrap_or(0));
        match partition.lag() {
            Lag::Records(n) => {
                self.records = self.records.saturating_add(n);
                self.counted += 1;
            }
            Lag::PastEnd(_) => self.past_end += 1,
            Lag::NoCommit => self.uncommitted += 1,
            Lag::UnknownEnd => self.unknown_end += 1,
        }
    }

    /// The total lag, or `None` when no partition has a number (nothing
    /// committed, or nothing known): such a group shows no lag, not 0.
    pub fn total(&self) -> Option<i64> {
        (self.counted > 0).then_some(self.records)
    }
}

/// A group's lag: every partition, and totals for the group and each topic.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupLag {
    /// The partitions, sorted by topic then partition.
    pub partitions: Vec<PartitionLag>,
    /// Totals over all partitions.
    pub totals: LagTotals,
    /// Totals per topic.
    pub per_topic: TopicTotals,
}

/// Totals per topic, sorted by topic: a list sized to its topics (a group
/// usually consumes one or a few), where a `BTreeMap` would take a node of
/// eleven entries (~800 bytes) for the first — per group, of thousands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopicTotals(Vec<(Arc<str>, LagTotals)>);

impl TopicTotals {
    /// The totals of `topic`.
    pub fn get(&self, topic: &str) -> Option<&LagTotals> {
        self.0
            .binary_search_by(|(t, _)| (**t).cmp(topic))
            .ok()
            .map(|i| &self.0[i].1)
    }

    /// Each topic with its totals, in topic order.
    pub fn iter(&self) -> std::slice::Iter<'_, (Arc<str>, LagTotals)> {
        self.0.iter()
    }

    /// The topics, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &Arc<str>> {
        self.0.iter().map(|(t, _)| t)
    }

    /// The totals, in topic order.
    pub fn values(&self) -> impl Iterator<Item = &LagTotals> {
        self.0.iter().map(|(_, totals)| totals)
    }

    /// How many topics.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Take `fresh`'s totals, keeping the held topic names when `fresh`
    /// has the same topics (see `absorb.rs`).
    pub(super) fn absorb(&mut self, fresh: TopicTotals) {
        if self.0.len() == fresh.0.len() && self.keys().eq(fresh.keys()) {
            for ((_, held), (_, new)) in self.0.iter_mut().zip(fresh.0) {
                *held = new;
            }
        } else {
            *self = fresh;
        }
    }
}

impl FromIterator<(Arc<str>, LagTotals)> for TopicTotals {
    /// Totals read back whole (a recording's rows): sorted by topic here,
    /// a topic named twice kept once (its last).
    fn from_iter<I: IntoIterator<Item = (Arc<str>, LagTotals)>>(items: I) -> Self {
        let mut totals: Vec<(Arc<str>, LagTotals)> = items.into_iter().collect();
        totals.reverse();
        totals.sort_by(|a, b| a.0.cmp(&b.0));
        totals.dedup_by(|a, b| a.0 == b.0);
        totals.shrink_to_fit();
        TopicTotals(totals)
    }
}

impl<'a> IntoIterator for &'a TopicTotals {
    type Item = &'a (Arc<str>, LagTotals);
    type IntoIter = std::slice::Iter<'a, (Arc<str>, LagTotals)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl GroupLag {
    /// Sort `partitions` and total them.
    pub fn new(mut partitions: Vec<PartitionLag>) -> GroupLag {
        partitions.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
        partitions.dedup_by(|a, b| a.topic == b.topic && a.partition == b.partition);
        let mut totals = LagTotals::default();
        // Partitions are sorted by topic: each topic's run is summed in turn.
        let mut per_topic: Vec<(Arc<str>, LagTotals)> = Vec::new();
        for partition in &partitions {
            totals.add(partition);
            match per_topic.last_mut() {
                Some((topic, sum)) if *topic == partition.topic => sum.add(partition),
                _ => {
                    let mut sum = LagTotals::default();
                    sum.add(partition);
                    per_topic.push((Arc::clone(&partition.topic), sum));
                }
            }
        }
        per_topic.shrink_to_fit();
        GroupLag {
            partitions,
            totals,
            per_topic: TopicTotals(per_topic),
        }
    }

    /// The topics the group has partitions in.
    pub fn topics(&self) -> Vec<Arc<str>> {
        self.per_topic.keys().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn part(topic: &str, partition: i32, committed: Option<i64>, end: Option<i64>) -> PartitionLag {
        PartitionLag {
            topic: topic.into(),
            partition,
            committed,
            end,
            start: None,
            reported: None,
        }
    }

    #[test]
    fn no_commit_is_not_zero_lag() {
        let lag = GroupLag::new(vec![
            part("orders", 0, Some(3), Some(10)),
            part("orders", 1, None, Some(10)),
            part("orders", 2, Some(10), Some(10)),
            part("audit", 0, Some(5), None),
        ]);
        assert_eq!(&*lag.partitions[0].topic, "audit");
        assert_eq!(lag.partitions[1].lag(), Lag::Records(7));
        assert_eq!(lag.partitions[2].lag(), Lag::NoCommit);
        assert_eq!(lag.partitions[3].lag(), Lag::Records(0));
        assert_eq!(lag.partitions[0].lag(), Lag::UnknownEnd);
        assert_eq!(lag.totals.total(), Some(7));
        assert_eq!(lag.totals.uncommitted, 1);
        assert_eq!(lag.totals.unknown_end, 1);
        assert_eq!(
            lag.per_topic.get("orders").and_then(LagTotals::total),
            Some(7)
        );
        assert_eq!(lag.per_topic.get("audit").and_then(LagTotals::total), None);
        let nothing = GroupLag::new(vec![part("t", 0, None, Some(4))]);
        assert_eq!(nothing.totals.total(), None);
    }

    #[test]
    fn a_commit_past_the_end_is_shown_as_such_not_as_zero() {
        let ahead = part("t", 0, Some(12), Some(10));
        assert_eq!(ahead.lag(), Lag::PastEnd(2));
        assert_eq!(ahead.lag().to_string(), "past end +2");
        assert_eq!(ahead.records(), None);
        let lag = GroupLag::new(vec![ahead, part("t", 1, Some(4), Some(10))]);
        assert_eq!(lag.totals.total(), Some(6));
        assert_eq!(lag.totals.past_end, 1);
    }

    #[test]
    fn records_deleted_by_retention_are_counted_apart() {
        let with_start = |committed, end, start| PartitionLag {
            start: Some(start),
            reported: None,
            ..part("t", 0, Some(committed), Some(end))
        };
        // Committed at 0, log starts at 700, ends at 1000: CGC's lag is
        // 1000, of which 700 were deleted.
        let behind = with_start(0, 1000, 700);
        assert_eq!(behind.lag(), Lag::Records(1000));
        assert_eq!(behind.deleted(), Some(700));
        assert_eq!(with_start(800, 1000, 700).deleted(), Some(0));
        // Everything deleted (start == end): all of the lag.
        assert_eq!(with_start(5, 90, 90).deleted(), Some(85));
        assert_eq!(part("t", 0, Some(5), Some(90)).deleted(), None);
        let other = PartitionLag {
            partition: 1,
            ..with_start(100, 200, 150)
        };
        let lag = GroupLag::new(vec![behind, other]);
        assert_eq!(lag.totals.total(), Some(1100));
        assert_eq!(lag.totals.deleted, 750);
    }

    fn arb_partition() -> impl Strategy<Value = PartitionLag> {
        (
            prop::sample::select(vec!["a", "b", "c"]),
            0..8i32,
            prop::option::of(0..1_000_000i64),
            prop::option::of(0..1_000_000i64),
        )
            .prop_map(|(t, p, c, e)| part(t, p, c, e))
    }

    proptest! {
        #[test]
        fn totals_are_the_sums_of_their_parts(parts in prop::collection::vec(arb_partition(), 0..64)) {
            let lag = GroupLag::new(parts);
            let by_hand: i64 = lag.partitions.iter().filter_map(PartitionLag::records).sum();
            prop_assert_eq!(lag.totals.records, by_hand);
            let topic_sum: i64 = lag.per_topic.values().map(|t| t.records).sum();
            prop_assert_eq!(topic_sum, by_hand);
            let counted: usize = lag.per_topic.values().map(|t| t.counted + t.uncommitted + t.unknown_end + t.past_end).sum();
            prop_assert_eq!(counted, lag.partitions.len());
            prop_assert_eq!(lag.totals.counted + lag.totals.uncommitted + lag.totals.unknown_end + lag.totals.past_end, lag.partitions.len());
            for p in &lag.partitions {
                match (p.committed, p.end, p.lag()) {
                    (None, _, l) => prop_assert_eq!(l, Lag::NoCommit),
                    (Some(_), None, l) => prop_assert_eq!(l, Lag::UnknownEnd),
                    (Some(c), Some(e), Lag::Records(n)) => {
                        prop_assert!(c <= e);
                        prop_assert_eq!(n, e - c);
                    }
                    (Some(c), Some(e), Lag::PastEnd(n)) => {
                        prop_assert!(c > e);
                        prop_assert_eq!(n, c - e);
                    }
                    (Some(_), Some(_), other) => prop_assert!(false, "unexpected {:?}", other),
                }
            }
        }

        #[test]
        fn partitions_are_sorted_and_unique(parts in prop::collection::vec(arb_partition(), 0..64)) {
            let lag = GroupLag::new(parts);
            for pair in lag.partitions.windows(2) {
                prop_assert!((&pair[0].topic, pair[0].partition) < (&pair[1].topic, pair[1].partition));
            }
        }
    }
}
