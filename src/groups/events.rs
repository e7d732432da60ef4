//! Group events for the timeline: what changed between two reads of the
//! group list — a group's state, its member count (a rebalance), and
//! retention passing a group's committed offset (records it will never
//! read). Each is said once, when it changes, not on every read.

use std::time::SystemTime;

use crate::meta::{MovementEvent, MovementKind};

use super::lag::PartitionLag;
use super::refresh::{GroupSummary, Overview};

/// The events from `before` to `after` (both sorted by group name, as an
/// overview is), observed at `at`. Groups only in one of them are left
/// out: a group appears with its first commit and is gone with its last,
/// which the state change to `Empty` or `Dead` already said.
pub fn diff(before: &Overview, after: &Overview, at: SystemTime) -> Vec<MovementEvent> {
    let mut out = Vec::new();
    let mut old = before.groups.iter().peekable();
    for new in &after.groups {
        let name = new.listing.group.as_str();
        while old.next_if(|g| g.listing.group.as_str() < name).is_some() {}
        let Some(was) = old.next_if(|g| g.listing.group == name) else {
            continue;
        };
        group(was, new, at, &mut out);
    }
    out
}

fn group(was: &GroupSummary, new: &GroupSummary, at: SystemTime, out: &mut Vec<MovementEvent>) {
    let name = &new.listing.group;
    let event = |topic: Option<&PartitionLag>, kind| MovementEvent {
        time: at,
        topic: topic.map(|p| p.topic.to_string()),
        partition: topic.map(|p| p.partition),
        kind,
    };
    if was.state != new.state {
        out.push(event(
            None,
            MovementKind::GroupStateChanged {
                group: name.clone(),
                from: was.state.to_string(),
                to: new.state.to_string(),
            },
        ));
    }
    if let (Some(from), Some(to)) = (was.members, new.members)
        && from != to
    {
        out.push(event(
            None,
            MovementKind::GroupMembersChanged {
                group: name.clone(),
                from,
                to,
            },
        ));
    }
    let Some(lag) = &new.lag else { return };
    for p in lag.partitions.iter().filter(|p| lost(p)) {
        let known = was.lag.as_ref().is_some_and(|l| {
            l.partitions
                .iter()
                .any(|q| q.partition == p.partition && q.topic == p.topic && lost(q))
        });
        if let (false, Some(committed), Some(start)) = (known, p.committed, p.start) {
            out.push(event(
                Some(p),
                MovementKind::GroupRecordsLost {
                    group: name.clone(),
                    committed,
                    start,
                },
            ));
        }
    }
}

/// Whether retention deleted records the group had not read.
fn lost(p: &PartitionLag) -> bool {
    matches!((p.committed, p.start), (Some(c), Some(s)) if c < s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::{GroupLag, GroupListing, GroupState, GroupType, RequestCounts};

    fn summary(group: &str, state: GroupState, members: usize, committed: i64) -> GroupSummary {
        let lag = GroupLag::new(vec![PartitionLag {
            topic: "orders".into(),
            partition: 3,
            committed: Some(committed),
            end: Some(500),
            start: Some(100),
            reported: None,
        }]);
        GroupSummary {
            listing: GroupListing {
                group: group.to_owned(),
                group_type: GroupType::Consumer,
                state: state.clone(),
                protocol_type: "consumer".to_owned(),
                coordinator: 1,
            },
            members: Some(members),
            state,
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

    #[test]
    fn state_members_and_lost_records_are_said_once_when_they_change() {
        let at = SystemTime::UNIX_EPOCH;
        let before = overview(vec![
            summary("a-gone", GroupState::Stable, 1, 200),
            summary("billing", GroupState::Stable, 3, 200),
            summary("quiet", GroupState::Stable, 2, 200),
        ]);
        let after = overview(vec![
            summary("billing", GroupState::PreparingRebalance, 2, 50),
            summary("new", GroupState::Stable, 1, 200),
            summary("quiet", GroupState::Stable, 2, 200),
        ]);
        let events = diff(&before, &after, at);
        let names: Vec<&str> = events.iter().map(|e| e.kind.name()).collect();
        assert_eq!(
            names,
            [
                "group_state_changed",
                "group_members_changed",
                "group_records_lost"
            ]
        );
        assert_eq!(events[0].group(), Some("billing"));
        let lost = &events[2];
        assert_eq!(
            (lost.topic.as_deref(), lost.partition),
            (Some("orders"), Some(3))
        );
        assert!(matches!(
            lost.kind,
            MovementKind::GroupRecordsLost {
                committed: 50,
                start: 100,
                ..
            }
        ));
        // Read again unchanged: nothing new, the loss included.
        assert!(diff(&after, &after, at).is_empty());
    }
}
