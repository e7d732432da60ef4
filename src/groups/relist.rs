//! The groups list between its whole reads: every broker's listing read
//! again (one `ListGroups` per broker: cheap at any number of groups) with
//! only the visible rows described and with lag, merged into the list held.
//! New groups appear and deleted ones go within one interval, and a visible
//! group's state and members are as fresh as its lag, while describing and
//! lag cost only what is on screen.

use std::collections::{BTreeMap, BTreeSet};

use super::absorb::{Joined, join_by_name};

use super::client::GroupsClient;
use super::error::Result;
use super::kind::GroupState;
use super::listing::GroupList;
use super::listing::GroupListing;
use super::refresh::{GroupSummary, Overview};

/// Every group as listed now, and the rows asked about in full.
#[derive(Debug, Clone)]
pub struct Relisted {
    /// Every broker's listing (and the brokers that could not answer).
    pub list: GroupList,
    /// The groups asked about, described and with lag.
    pub rows: Vec<GroupSummary>,
}

impl GroupsClient {
    /// List every group again and describe `visible` with lag, both at
    /// once. `known_topics` as for [`GroupsClient::summaries`].
    pub async fn relist(
        &self,
        visible: Vec<GroupListing>,
        known_topics: &BTreeMap<String, BTreeSet<String>>,
    ) -> Result<Relisted> {
        let (list, rows) = tokio::join!(self.list_groups(), self.summaries(visible, known_topics));
        Ok(Relisted {
            list: list?,
            rows: rows?,
        })
    }
}

impl Overview {
    /// Merge a relisting: the list becomes what the brokers list now. A row
    /// asked about replaces its group's summary (keeping the lag it had when
    /// this read of its lag failed); another group keeps its summary with
    /// the fresh listing (coordinator, and state where the broker reports
    /// one); a new group comes in as listed (members and lag unknown until
    /// described); a group no longer listed goes, unless its coordinator is
    /// a broker that could not answer this time. Returns the groups that
    /// went.
    pub fn merge(&mut self, relisted: Relisted) -> Vec<String> {
        let Relisted { list, rows } = relisted;
        let silent: BTreeSet<i32> = list.failed.iter().map(|(broker, _)| *broker).collect();
        let held = std::mem::take(&mut self.groups);
        let mut groups = Vec::with_capacity(list.groups.len().max(held.len()));
        let mut gone = Vec::new();
        // Held and listed groups side by side, then the asked rows into them
        // (each sorted by name; nothing is copied to key a map).
        let mut rows = rows;
        rows.sort_by(|a, b| a.listing.group.cmp(&b.listing.group));
        let mut rows = rows.into_iter().peekable();
        for joined in join_by_name(held, list.groups) {
            let mut summary = match joined {
                Joined::Both(mut before, listing) => {
                    if !matches!(&listing.state, GroupState::Unknown(s) if s.is_empty())
                        && before.state != listing.state
                    {
                        before.state = listing.state.clone();
                    }
                    // Kept in place when unchanged (see `absorb.rs`).
                    if before.listing != listing {
                        before.listing = listing;
                    }
                    before
                }
                Joined::Fresh(listing) => GroupSummary {
                    state: listing.state.clone(),
                    listing,
                    members: None,
                    lag: None,
                    topics: Vec::new(),
                    reconciling: None,
                    error: None,
                },
                Joined::Held(before) => {
                    if silent.contains(&before.listing.coordinator) {
                        groups.push(before);
                    } else {
                        gone.push(before.listing.group);
                    }
                    continue;
                }
            };
            while rows
                .peek()
                .is_some_and(|row| row.listing.group < summary.listing.group)
            {
                rows.next();
            }
            if let Some(mut row) = rows.next_if(|row| row.listing.group == summary.listing.group) {
                if row.lag.is_none() {
                    row.lag = summary.lag.take();
                }
                // The listing of this relisting, not of the rows' read.
                row.listing = summary.listing.clone();
                summary.absorb(row);
            }
            groups.push(summary);
        }
        self.groups = groups;
        self.failed_brokers = list.failed;
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::{GroupLag, GroupType, PartitionLag, RequestCounts};

    fn listing(group: &str, state: &str, coordinator: i32) -> GroupListing {
        GroupListing {
            group: group.to_owned(),
            group_type: GroupType::Consumer,
            state: GroupState::parse(state),
            protocol_type: "consumer".to_owned(),
            coordinator,
        }
    }

    fn summary(group: &str, state: &str, coordinator: i32, behind: i64) -> GroupSummary {
        GroupSummary {
            listing: listing(group, state, coordinator),
            members: Some(1),
            state: GroupState::parse(state),
            lag: Some(GroupLag::new(vec![PartitionLag {
                topic: "t".into(),
                partition: 0,
                committed: Some(0),
                end: Some(behind),
                start: Some(0),
                reported: None,
            }])),
            topics: vec!["t".into()],
            reconciling: None,
            error: None,
        }
    }

    fn held() -> Overview {
        Overview {
            groups: vec![
                summary("a", "Stable", 1, 1),
                summary("b", "Stable", 2, 2),
                summary("c", "Empty", 3, 3),
            ],
            failed_brokers: Vec::new(),
            requests: RequestCounts::default(),
        }
    }

    /// A relisting with no silent broker.
    fn relisting(groups: Vec<GroupListing>, rows: Vec<GroupSummary>) -> Relisted {
        Relisted {
            list: GroupList {
                groups,
                failed: Vec::new(),
            },
            rows,
        }
    }

    fn total(overview: &Overview, group: &str) -> Option<i64> {
        overview
            .groups
            .iter()
            .find(|g| g.listing.group == group)?
            .lag
            .as_ref()?
            .totals
            .total()
    }

    #[test]
    fn new_groups_come_in_gone_ones_go_and_asked_rows_replace_theirs() {
        let mut overview = held();
        let mut row = summary("b", "Reconciling", 2, 20);
        row.members = Some(3);
        let gone = overview.merge(relisting(
            vec![
                listing("a", "Empty", 1),
                listing("b", "Stable", 2),
                listing("new", "Stable", 1),
            ],
            vec![row],
        ));
        assert_eq!(gone, vec!["c".to_owned()]);
        let names: Vec<&str> = overview
            .groups
            .iter()
            .map(|g| g.listing.group.as_str())
            .collect();
        assert_eq!(names, ["a", "b", "new"]);
        let (a, b, new) = (
            &overview.groups[0],
            &overview.groups[1],
            &overview.groups[2],
        );
        assert_eq!(a.state, GroupState::Empty, "the listing's fresh state");
        assert_eq!(total(&overview, "a"), Some(1), "lag kept until read");
        assert_eq!(b.state, GroupState::Reconciling, "the described state");
        assert_eq!(b.members, Some(3));
        assert_eq!(total(&overview, "b"), Some(20));
        assert_eq!(new.state, GroupState::Stable);
        assert_eq!((new.members, new.lag.is_none()), (None, true));
    }

    #[test]
    fn a_silent_brokers_groups_stay_and_a_failed_lag_keeps_the_last() {
        let mut overview = held();
        let mut row = summary("a", "Stable", 1, 0);
        row.lag = None;
        row.error = Some("offsets unavailable".to_owned());
        let gone = overview.merge(Relisted {
            list: GroupList {
                groups: vec![listing("a", "", 1), listing("b", "Stable", 2)],
                failed: vec![(3, "timed out".to_owned())],
            },
            rows: vec![row],
        });
        assert!(gone.is_empty(), "c's coordinator did not answer: kept");
        assert_eq!(overview.groups.len(), 3);
        assert_eq!(total(&overview, "a"), Some(1));
        assert_eq!(
            overview.groups[0].error.as_deref(),
            Some("offsets unavailable")
        );
        assert_eq!(overview.failed_brokers, vec![(3, "timed out".to_owned())]);
    }

    #[test]
    fn unchanged_listings_and_rows_stay_where_they_are_and_rows_come_in_any_order() {
        let mut overview = held();
        let names_at: Vec<usize> = overview
            .groups
            .iter()
            .map(|g| g.listing.group.as_ptr() as usize)
            .collect();
        let lag_at = |o: &Overview| {
            o.groups[2]
                .lag
                .as_ref()
                .map(|l| l.partitions.as_ptr() as usize)
        };
        let c_lag = lag_at(&overview);
        // The rows as the screen asks them: sorted by lag, not by name.
        let gone = overview.merge(relisting(
            vec![
                listing("a", "Stable", 1),
                listing("b", "Stable", 2),
                listing("c", "Empty", 3),
            ],
            vec![summary("c", "Empty", 3, 30), summary("a", "Stable", 1, 10)],
        ));
        assert!(gone.is_empty());
        let after: Vec<usize> = overview
            .groups
            .iter()
            .map(|g| g.listing.group.as_ptr() as usize)
            .collect();
        assert_eq!(after, names_at, "the held listings were kept");
        assert_eq!(lag_at(&overview), c_lag, "c's lag updated in place");
        assert_eq!(total(&overview, "a"), Some(10));
        assert_eq!(total(&overview, "b"), Some(2));
        assert_eq!(total(&overview, "c"), Some(30));
    }
}
