//! The paced lag sweep: each poll reads the lag of only a few groups, the
//! next few in name order after the last poll's, and remembers what it
//! read (lag in records, and the timestamp of the oldest unconsumed record
//! for lag in time); the worst lag shown is the worst remembered. A cluster
//! of 2,000 groups is covered in a few hundred polls, never by asking all
//! of them at once. Groups that are no longer listed are forgotten.

use std::collections::BTreeMap;

use crate::groups::GroupListing;

/// What one read of a group's lag found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GroupRead {
    /// Total lag in records (`None`: no lag number).
    pub records: Option<i64>,
    /// The timestamp (ms since the epoch) of the oldest unconsumed record
    /// found (`None`: nothing unconsumed could be dated).
    pub oldest_ms: Option<i64>,
}

impl GroupRead {
    /// The lag in time at `now_ms` (ms since the epoch): the age of the
    /// oldest unconsumed record, 0 for a group with no lag in records.
    pub fn time_ms(&self, now_ms: i64) -> Option<i64> {
        match (self.records, self.oldest_ms) {
            (_, Some(oldest)) => Some(now_ms.saturating_sub(oldest).max(0)),
            (Some(0), None) => Some(0),
            _ => None,
        }
    }
}

/// What the sweep remembers of one context's groups.
#[derive(Debug, Clone, Default)]
pub struct Sweep {
    /// The last group asked; the next poll starts after it.
    last: Option<String>,
    /// What was read of each group so far.
    lags: BTreeMap<String, GroupRead>,
}

impl Sweep {
    /// The next `count` groups to read, in name order after the last one
    /// asked, wrapping around. `listed` is sorted by name.
    pub fn next<'a>(&self, listed: &'a [GroupListing], count: usize) -> Vec<&'a GroupListing> {
        let start = self
            .last
            .as_ref()
            .map_or(0, |last| listed.partition_point(|g| g.group <= *last));
        listed
            .iter()
            .cycle()
            .skip(start)
            .take(count.min(listed.len()))
            .collect()
    }

    /// Take in a poll: forget groups not listed, remember the lags read.
    pub fn record(
        &mut self,
        listed: &[GroupListing],
        asked: &[&GroupListing],
        read: BTreeMap<String, GroupRead>,
    ) {
        self.lags
            .retain(|group, _| listed.binary_search_by(|g| g.group.cmp(group)).is_ok());
        if let Some(last) = asked.last() {
            self.last = Some(last.group.clone());
        }
        self.lags.extend(read);
    }

    /// The group with the largest lag in records remembered, and the lag.
    pub fn worst(&self) -> Option<(&str, i64)> {
        self.lags
            .iter()
            .filter_map(|(group, read)| Some((group.as_str(), read.records?)))
            .max_by_key(|(_, lag)| *lag)
    }

    /// The group with the largest lag in time at `now_ms` (ms since the
    /// epoch) remembered, and that lag in ms.
    pub fn worst_time(&self, now_ms: i64) -> Option<(&str, i64)> {
        self.lags
            .iter()
            .filter_map(|(group, read)| Some((group.as_str(), read.time_ms(now_ms)?)))
            .max_by_key(|(_, lag)| *lag)
    }

    /// How many groups' lag is remembered.
    pub fn checked(&self) -> usize {
        self.lags.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::{GroupState, GroupType};

    fn listed(names: &[&str]) -> Vec<GroupListing> {
        names
            .iter()
            .map(|n| GroupListing {
                group: (*n).to_owned(),
                group_type: GroupType::Classic,
                state: GroupState::parse("Stable"),
                protocol_type: "consumer".to_owned(),
                coordinator: 1,
            })
            .collect()
    }

    fn lag(records: Option<i64>) -> GroupRead {
        GroupRead {
            records,
            oldest_ms: None,
        }
    }

    fn names(asked: &[&GroupListing]) -> Vec<String> {
        asked.iter().map(|g| g.group.clone()).collect()
    }

    #[test]
    fn the_sweep_walks_the_list_a_few_at_a_time_and_wraps() {
        let list = listed(&["a", "b", "c", "d", "e"]);
        let mut sweep = Sweep::default();
        let first = sweep.next(&list, 2);
        assert_eq!(names(&first), ["a", "b"]);
        sweep.record(
            &list,
            &first,
            [("a".into(), lag(Some(5))), ("b".into(), lag(None))].into(),
        );
        let second = sweep.next(&list, 2);
        assert_eq!(names(&second), ["c", "d"]);
        sweep.record(
            &list,
            &second,
            [("c".into(), lag(Some(9))), ("d".into(), lag(Some(1)))].into(),
        );
        let third = sweep.next(&list, 2);
        assert_eq!(names(&third), ["e", "a"]);
        assert_eq!(sweep.worst(), Some(("c", 9)));
        assert_eq!(sweep.checked(), 4);
        // "c" is deleted: forgotten.
        let shorter = listed(&["a", "b", "d", "e"]);
        sweep.record(&shorter, &third, BTreeMap::new());
        assert_eq!(sweep.worst(), Some(("a", 5)));
        assert!(sweep.next(&[], 3).is_empty());
    }

    #[test]
    fn the_worst_lag_in_time_is_the_oldest_unconsumed_record_and_caught_up_is_zero() {
        let list = listed(&["fast", "slow", "undated"]);
        let mut sweep = Sweep::default();
        let asked = sweep.next(&list, 3);
        let old = GroupRead {
            records: Some(3),
            oldest_ms: Some(1_000),
        };
        sweep.record(
            &list,
            &asked,
            [
                ("fast".into(), lag(Some(0))),
                ("slow".into(), old),
                ("undated".into(), lag(Some(50))),
            ]
            .into(),
        );
        assert_eq!(sweep.worst_time(61_000), Some(("slow", 60_000)));
        assert_eq!(sweep.worst(), Some(("undated", 50)), "records apart");
        assert_eq!(lag(Some(0)).time_ms(5), Some(0));
        assert_eq!(lag(Some(7)).time_ms(5), None);
        assert_eq!(
            old.time_ms(0),
            Some(0),
            "a clock behind never goes negative"
        );
    }
}
