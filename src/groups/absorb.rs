//! Taking a fresh read into the list held on screen, in place.
//!
//! The groups list is read again every few seconds, on a worker, while the
//! list it replaces is still shown: at 10,000 groups a read is ~100,000
//! small heap objects (names, per-partition lag, topic lists). Installing
//! it whole and freeing the held one leaves the two interleaved in the
//! allocator's pages, and the holes keep the pages: twice the list's memory,
//! held for good. So a fresh read is absorbed instead: where a group's
//! listing, topics or partitions are unchanged, the held objects stay and
//! only the numbers are copied over; the fresh read is then freed whole.
//! Usually nothing but numbers changed, and the held heap does not move.

use std::cmp::Ordering;

use super::lag::GroupLag;
use super::refresh::{GroupSummary, Overview};

impl GroupLag {
    /// Become `fresh`. When it covers the same partitions in the same order
    /// (the usual case), the offsets and totals are copied into the held
    /// lists; otherwise it replaces them.
    pub fn absorb(&mut self, fresh: GroupLag) {
        let same_partitions = self.partitions.len() == fresh.partitions.len()
            && self
                .partitions
                .iter()
                .zip(&fresh.partitions)
                .all(|(held, new)| held.partition == new.partition && held.topic == new.topic);
        if !same_partitions {
            *self = fresh;
            return;
        }
        for (held, new) in self.partitions.iter_mut().zip(fresh.partitions) {
            held.committed = new.committed;
            held.end = new.end;
            held.start = new.start;
        }
        self.totals = fresh.totals;
        // The same partitions: the same topics, in the same order.
        self.per_topic.absorb(fresh.per_topic);
    }
}

impl GroupSummary {
    /// Become `fresh`, keeping whatever held heap is equal to its part of it.
    pub fn absorb(&mut self, fresh: GroupSummary) {
        let GroupSummary {
            listing,
            members,
            state,
            lag,
            topics,
            reconciling,
            error,
        } = fresh;
        if self.listing != listing {
            self.listing = listing;
        }
        self.members = members;
        if self.state != state {
            self.state = state;
        }
        match (&mut self.lag, lag) {
            (Some(held), Some(new)) => held.absorb(new),
            (held, new) => *held = new,
        }
        if self.topics != topics {
            self.topics = topics;
        }
        self.reconciling = reconciling;
        if self.error != error {
            self.error = error;
        }
    }
}

impl Overview {
    /// Become `fresh` (a whole read of every group), absorbing each group's
    /// summary into the held one of the same name ([`GroupSummary::absorb`]):
    /// groups no longer listed go, new ones come in, and the order is
    /// `fresh`'s (by name).
    pub fn absorb(&mut self, fresh: Overview) {
        let Overview {
            groups,
            failed_brokers,
            requests,
        } = fresh;
        self.failed_brokers = failed_brokers;
        self.requests = requests;
        let same_groups = self.groups.len() == groups.len()
            && self
                .groups
                .iter()
                .zip(&groups)
                .all(|(held, new)| held.listing.group == new.listing.group);
        if same_groups {
            for (held, new) in self.groups.iter_mut().zip(groups) {
                held.absorb(new);
            }
            return;
        }
        let held = std::mem::take(&mut self.groups);
        self.groups = join_by_name(held, groups)
            .filter_map(|pair| match pair {
                Joined::Both(mut held, new) => {
                    held.absorb(new);
                    Some(held)
                }
                Joined::Fresh(new) => Some(new),
                Joined::Held(_) => None,
            })
            .collect();
    }
}

/// A name of one side of [`join_by_name`], or of both.
pub(super) enum Joined<H, F> {
    /// Only held.
    Held(H),
    /// Only in the fresh read.
    Fresh(F),
    /// Both, the held one first.
    Both(H, F),
}

/// Something with a group name, by which the lists are sorted.
pub(super) trait Named {
    fn name(&self) -> &str;
}

impl Named for GroupSummary {
    fn name(&self) -> &str {
        &self.listing.group
    }
}

impl Named for super::listing::GroupListing {
    fn name(&self) -> &str {
        &self.group
    }
}

/// Walk two lists sorted by group name side by side, pairing equal names
/// (no map, no name copied). Each list is sorted first if it is not
/// (a no-op on the sorted lists reads produce).
pub(super) fn join_by_name<H: Named, F: Named>(
    mut held: Vec<H>,
    mut fresh: Vec<F>,
) -> impl Iterator<Item = Joined<H, F>> {
    if !held.is_sorted_by(|a, b| a.name() <= b.name()) {
        held.sort_by(|a, b| a.name().cmp(b.name()));
    }
    if !fresh.is_sorted_by(|a, b| a.name() <= b.name()) {
        fresh.sort_by(|a, b| a.name().cmp(b.name()));
    }
    let mut held = held.into_iter().peekable();
    let mut fresh = fresh.into_iter().peekable();
    std::iter::from_fn(move || {
        let order = match (held.peek(), fresh.peek()) {
            (None, None) => return None,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(h), Some(f)) => h.name().cmp(f.name()),
        };
        Some(match order {
            Ordering::Less => Joined::Held(held.next()?),
            Ordering::Greater => Joined::Fresh(fresh.next()?),
            Ordering::Equal => Joined::Both(held.next()?, fresh.next()?),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::{GroupListing, GroupState, GroupType, PartitionLag, RequestCounts};

    fn summary(group: &str, parts: &[(&str, i32, i64)]) -> GroupSummary {
        let lag = GroupLag::new(
            parts
                .iter()
                .map(|(topic, partition, end)| PartitionLag {
                    topic: (*topic).into(),
                    partition: *partition,
                    committed: Some(0),
                    end: Some(*end),
                    start: Some(0),
                    reported: None,
                })
                .collect(),
        );
        GroupSummary {
            listing: GroupListing {
                group: group.to_owned(),
                group_type: GroupType::Consumer,
                state: GroupState::Stable,
                protocol_type: "consumer".to_owned(),
                coordinator: 1,
            },
            members: Some(1),
            state: GroupState::Stable,
            topics: lag.topics(),
            lag: Some(lag),
            reconciling: None,
            error: None,
        }
    }

    fn overview(groups: Vec<GroupSummary>) -> Overview {
        Overview {
            groups,
            failed_brokers: Vec::new(),
            requests: RequestCounts::default(),
        }
    }

    /// Where the held heap of a summary is: its name, partitions, topics.
    fn addresses(summary: &GroupSummary) -> (usize, usize, usize) {
        let lag = summary
            .lag
            .as_ref()
            .map_or(0, |l| l.partitions.as_ptr() as usize);
        (
            summary.listing.group.as_ptr() as usize,
            lag,
            summary.topics.as_ptr() as usize,
        )
    }

    #[test]
    fn unchanged_groups_keep_their_heap_and_take_the_new_numbers() {
        let mut held = overview(vec![
            summary("a", &[("t", 0, 5), ("t", 1, 5)]),
            summary("b", &[("u", 0, 7)]),
        ]);
        let before: Vec<_> = held.groups.iter().map(addresses).collect();
        held.absorb(overview(vec![
            summary("a", &[("t", 0, 50), ("t", 1, 60)]),
            summary("b", &[("u", 0, 70)]),
        ]));
        let after: Vec<_> = held.groups.iter().map(addresses).collect();
        assert_eq!(before, after, "nothing but numbers changed: nothing moved");
        let totals: Vec<Option<i64>> = held
            .groups
            .iter()
            .map(|g| g.lag.as_ref().and_then(|l| l.totals.total()))
            .collect();
        assert_eq!(totals, [Some(110), Some(70)]);
        let per_topic = held.groups[0]
            .lag
            .as_ref()
            .map(|l| l.per_topic.get("t").copied());
        assert_eq!(per_topic.flatten().and_then(|t| t.total()), Some(110));
    }

    #[test]
    fn a_changed_shape_is_replaced_and_the_list_follows_the_fresh_read() {
        let mut held = overview(vec![
            summary("a", &[("t", 0, 5)]),
            summary("b", &[("u", 0, 7)]),
            summary("c", &[("v", 0, 9)]),
        ]);
        let kept_c = addresses(&held.groups[2]);
        held.absorb(overview(vec![
            summary("a", &[("t", 0, 5), ("t", 1, 8)]),
            summary("aa", &[("w", 0, 1)]),
            summary("c", &[("v", 0, 10)]),
        ]));
        let names: Vec<&str> = held.groups.iter().map(Named::name).collect();
        assert_eq!(names, ["a", "aa", "c"]);
        let a = held.groups[0].lag.as_ref().map(|l| l.partitions.len());
        assert_eq!(a, Some(2), "a partition joined: the lag is the fresh one");
        assert_eq!(addresses(&held.groups[2]), kept_c);
        let c = held.groups[2].lag.as_ref().and_then(|l| l.totals.total());
        assert_eq!(c, Some(10));
    }

    #[test]
    fn a_lag_that_could_not_be_read_is_gone_after_a_whole_read() {
        let mut held = overview(vec![summary("a", &[("t", 0, 5)])]);
        let mut fresh = summary("a", &[("t", 0, 5)]);
        fresh.lag = None;
        fresh.error = Some("offsets: timed out".to_owned());
        held.absorb(overview(vec![fresh]));
        assert!(held.groups[0].lag.is_none());
        assert_eq!(held.groups[0].error.as_deref(), Some("offsets: timed out"));
    }

    #[test]
    fn the_join_pairs_names_even_when_a_side_is_unsorted() {
        let held = vec![summary("b", &[]), summary("a", &[])];
        let fresh = vec![summary("c", &[]), summary("b", &[])];
        let pairs: Vec<String> = join_by_name(held, fresh)
            .map(|j| match j {
                Joined::Held(h) => format!("held {}", h.name()),
                Joined::Fresh(f) => format!("fresh {}", f.name()),
                Joined::Both(h, f) => format!("both {} {}", h.name(), f.name()),
            })
            .collect();
        assert_eq!(pairs, ["held a", "both b b", "fresh c"]);
    }
}
