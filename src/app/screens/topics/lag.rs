//! The Topics screen's LAG column: the largest lag of any group consuming
//! each topic, taken from the group list once it has been loaded (by
//! `:groups`, or by `L` on Topics, which keeps it loading there). Before
//! that the column says unknown: drawing the start screen never asks every
//! group for its offsets.
//!
//! The per-topic maximum is worked out once per group list that lands, not
//! per frame: a frame looks up only its visible rows.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use crate::groups::Overview;

/// The largest lag per topic, from one group list.
#[derive(Debug, Default)]
pub struct TopicLag {
    /// When the group list this was worked out from landed; `None`: no
    /// group list yet (the column is unknown).
    pub from: Option<Instant>,
    /// Topic → the largest lag (records) of the groups consuming it; a
    /// topic no group has a lag number for is absent.
    pub max: HashMap<Arc<str>, i64>,
}

impl TopicLag {
    /// What the LAG cell of `topic` shows: `None` while no group list was
    /// loaded, `Some(None)` when no group has a lag on it.
    pub fn of(&self, topic: &str) -> Option<Option<i64>> {
        self.from.map(|_| self.max.get(topic).copied())
    }

    /// What the LAG column waits for, in words for the Topics screen's
    /// title, while it is unknown (`?`), `follow` telling whether `L` keeps
    /// the group list loading; `None` once a group list landed.
    pub fn waiting(&self, follow: bool) -> Option<&'static str> {
        match (self.from, follow) {
            (Some(_), _) => None,
            (None, true) => Some("LAG: reading every group's lag…"),
            (None, false) => Some("LAG ?: L (or :groups) reads every group's lag"),
        }
    }

    /// Work the maxima out again from the group list `overview` that
    /// landed `at`, if it is newer than the one they came from. No time at
    /// all: the groups were forgotten (a replay's cursor went back), and
    /// the column is unknown again. (A list dropped while no screen shows
    /// it keeps its time, and the column its values.)
    pub fn refresh(&mut self, overview: Option<&Overview>, at: Option<Instant>) {
        if at.is_none() {
            *self = TopicLag::default();
            return;
        }
        if at == self.from {
            return;
        }
        let mut max: HashMap<Arc<str>, i64> = HashMap::new();
        if let Some(overview) = overview {
            for group in &overview.groups {
                let Some(lag) = &group.lag else { continue };
                for (topic, totals) in &lag.per_topic {
                    if totals.counted == 0 {
                        continue;
                    }
                    let held = max.entry(Arc::clone(topic)).or_insert(totals.records);
                    *held = (*held).max(totals.records);
                }
            }
        }
        self.max = max;
        self.from = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::{GroupLag, GroupSummary, PartitionLag};

    fn summary(name: &str, partitions: &[(&str, i64, i64)]) -> GroupSummary {
        let lag = GroupLag::new(
            partitions
                .iter()
                .enumerate()
                .map(|(p, &(topic, committed, end))| PartitionLag {
                    topic: topic.into(),
                    partition: i32::try_from(p).unwrap_or(0),
                    committed: Some(committed),
                    end: Some(end),
                    start: Some(0),
                    reported: None,
                })
                .collect(),
        );
        GroupSummary {
            listing: crate::groups::GroupListing {
                group: name.to_owned(),
                group_type: crate::groups::GroupType::Consumer,
                state: crate::groups::GroupState::Empty,
                protocol_type: "consumer".to_owned(),
                coordinator: 1,
            },
            members: Some(0),
            state: crate::groups::GroupState::Empty,
            topics: lag.topics(),
            lag: Some(lag),
            reconciling: None,
            error: None,
        }
    }

    #[test]
    fn the_largest_group_lag_per_topic_and_unknown_before_a_group_list() {
        let mut lag = TopicLag::default();
        lag.refresh(None, None);
        assert_eq!(lag.of("orders"), None, "no group list yet");
        let overview = Overview {
            groups: vec![
                // orders: 3 + 4 = 7 behind; payments 1.
                summary(
                    "a",
                    &[("orders", 7, 10), ("orders", 6, 10), ("payments", 1, 2)],
                ),
                // orders: 20 behind.
                summary("b", &[("orders", 0, 20)]),
            ],
            failed_brokers: Vec::new(),
            requests: crate::groups::RequestCounts::default(),
        };
        lag.refresh(Some(&overview), Some(Instant::now()));
        assert_eq!(lag.of("orders"), Some(Some(20)));
        assert_eq!(lag.of("payments"), Some(Some(1)));
        assert_eq!(lag.of("idle"), Some(None), "no group on it");
        // Dropped while unseen: the time is kept, and so are the values.
        let landed = lag.from;
        lag.refresh(None, landed);
        assert_eq!(lag.of("orders"), Some(Some(20)));
        // Forgotten: unknown again.
        lag.refresh(None, None);
        assert_eq!(lag.of("orders"), None);
    }

    #[test]
    fn the_title_says_what_the_lag_column_waits_for_until_a_group_list_lands() {
        let mut lag = TopicLag::default();
        assert!(lag.waiting(false).is_some_and(|w| w.contains("L (or :groups)")));
        assert!(lag.waiting(true).is_some_and(|w| w.contains("reading")));
        lag.from = Some(Instant::now());
        assert_eq!(lag.waiting(true), None);
    }
}
