//! The paced lag sweep: each poll reads the lag of only a few groups, the
//! next few in name order after the last poll's, and remembers what it
//! read; the worst lag shown is the worst remembered. A cluster of 2,000
//! groups is covered in a few hundred polls, never by asking all of them at
//! once. Groups that are no longer listed are forgotten.

use std::collections::BTreeMap;

use crate::groups::GroupListing;

/// What the sweep remembers of one context's groups.
#[derive(Debug, Clone, Default)]
pub struct Sweep {
    /// The last group asked; the next poll starts after it.
    last: Option<String>,
    /// Total lag in records of each group read so far (`None`: no lag number).
    lags: BTreeMap<String, Option<i64>>,
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
        read: BTreeMap<String, Option<i64>>,
    ) {
        self.lags
            .retain(|group, _| listed.binary_search_by(|g| g.group.cmp(group)).is_ok());
        if let Some(last) = asked.last() {
            self.last = Some(last.group.clone());
        }
        self.lags.extend(read);
    }

    /// The group with the largest lag remembered, and the lag.
    pub fn worst(&self) -> Option<(&str, i64)> {
        self.lags
            .iter()
            .filter_map(|(group, lag)| Some((group.as_str(), (*lag)?)))
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
            [("a".into(), Some(5)), ("b".into(), None)].into(),
        );
        let second = sweep.next(&list, 2);
        assert_eq!(names(&second), ["c", "d"]);
        sweep.record(
            &list,
            &second,
            [("c".into(), Some(9)), ("d".into(), Some(1))].into(),
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
}
