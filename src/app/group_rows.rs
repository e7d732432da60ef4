//! The row lists of the group screens (filtered and sorted in `update`), and
//! what identifies a row across answers, so that the selection follows the
//! group or partition it was on when a refresh reorders the list.

use std::cmp::Ordering;

use crate::groups::{GroupDetail, GroupSummary, Member, PartitionLag};

use super::groups::GroupsStore;
use super::screen::Screen;

/// Indices into the screen's source, filtered by `keep` and sorted by
/// `column` (ascending; the caller reverses). Empty for other screens.
pub fn build(
    store: &GroupsStore,
    screen: &Screen,
    column: usize,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    match screen {
        Screen::Groups { topic } => groups(store, topic.as_deref(), column, keep),
        Screen::Group { group } => detail(store, group).map_or_else(Vec::new, |d| {
            offsets(d, store.detail_of(group).map(|v| &v.owners), column, keep)
        }),
        Screen::Members { group } => {
            detail(store, group).map_or_else(Vec::new, |d| members(d, column, keep))
        }
        _ => Vec::new(),
    }
}

/// The detail of `group`, if it has arrived.
pub fn detail<'a>(store: &'a GroupsStore, group: &str) -> Option<&'a GroupDetail> {
    store.detail_of(group)?.detail.as_deref()
}

/// What identifies the row at `index` of `screen`'s source.
pub fn identity(store: &GroupsStore, screen: &Screen, index: usize) -> Option<String> {
    match screen {
        Screen::Groups { .. } => store
            .overview
            .as_ref()?
            .groups
            .get(index)
            .map(|g| g.listing.group.clone()),
        Screen::Group { group } => detail(store, group)?
            .lag
            .partitions
            .get(index)
            .map(|p| format!("{} {}", p.topic, p.partition)),
        Screen::Members { group } => detail(store, group)?
            .description
            .members
            .get(index)
            .map(|m| m.member_id.clone()),
        _ => None,
    }
}

fn sorted<T>(rows: &mut [usize], items: &[T], cmp: impl Fn(&T, &T) -> Ordering) {
    rows.sort_by(|&a, &b| match (items.get(a), items.get(b)) {
        (Some(x), Some(y)) => cmp(x, y).then(a.cmp(&b)),
        _ => a.cmp(&b),
    });
}

fn groups(
    store: &GroupsStore,
    topic: Option<&str>,
    column: usize,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    let Some(overview) = &store.overview else {
        return Vec::new();
    };
    let list = &overview.groups;
    let mut rows: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, g)| !(store.hide_inactive && g.state.is_inactive()))
        .filter(|(_, g)| topic.is_none_or(|t| g.topics.iter().any(|x| x == t)))
        .filter(|(_, g)| keep(&g.listing.group))
        .map(|(i, _)| i)
        .collect();
    let lag = |g: &GroupSummary| g.lag.as_ref().and_then(|l| l.totals.total());
    match column {
        1 => sorted(&mut rows, list, |a, b| {
            a.listing.group_type.cmp(&b.listing.group_type)
        }),
        2 => sorted(&mut rows, list, |a, b| {
            a.state.as_str().cmp(b.state.as_str())
        }),
        3 => sorted(&mut rows, list, |a, b| a.members.cmp(&b.members)),
        4 => sorted(&mut rows, list, |a, b| a.topics.len().cmp(&b.topics.len())),
        5 | 6 => sorted(&mut rows, list, |a, b| lag(a).cmp(&lag(b))),
        7 => sorted(&mut rows, list, |a, b| {
            a.listing.coordinator.cmp(&b.listing.coordinator)
        }),
        // The list arrives sorted by name.
        _ => {}
    }
    rows
}

fn offsets(
    detail: &GroupDetail,
    owners: Option<&std::collections::HashMap<(String, i32), usize>>,
    column: usize,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    let list = &detail.lag.partitions;
    let mut rows: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, p)| keep(&format!("{} {}", p.topic, p.partition)))
        .map(|(i, _)| i)
        .collect();
    let owner = |p: &PartitionLag| -> Option<&str> {
        let index = owners?.get(&(p.topic.clone(), p.partition))?;
        detail
            .description
            .members
            .get(*index)
            .map(|m| m.client_id.as_str())
    };
    let oldest = |p: &PartitionLag| {
        detail
            .oldest_unconsumed
            .get(&crate::meta::TopicPartition::new(
                p.topic.as_str(),
                p.partition,
            ))
            .map(|ts| -ts)
    };
    match column {
        1 => sorted(&mut rows, list, |a, b| a.partition.cmp(&b.partition)),
        2 => sorted(&mut rows, list, |a, b| a.committed.cmp(&b.committed)),
        3 => sorted(&mut rows, list, |a, b| a.end.cmp(&b.end)),
        4 | 7 => sorted(&mut rows, list, |a, b| a.records().cmp(&b.records())),
        5 => sorted(&mut rows, list, |a, b| oldest(a).cmp(&oldest(b))),
        6 => sorted(&mut rows, list, |a, b| owner(a).cmp(&owner(b))),
        // The partitions arrive sorted by topic, then partition.
        _ => {}
    }
    rows
}

fn members(detail: &GroupDetail, column: usize, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
    let list = &detail.description.members;
    let mut rows: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            keep(&format!(
                "{} {} {}",
                m.member_id, m.client_id, m.client_host
            ))
        })
        .map(|(i, _)| i)
        .collect();
    let target = |m: &Member| {
        m.target_assignment
            .as_ref()
            .map(crate::groups::Assignment::len)
    };
    match column {
        0 => sorted(&mut rows, list, |a, b| a.member_id.cmp(&b.member_id)),
        1 => sorted(&mut rows, list, |a, b| a.instance_id.cmp(&b.instance_id)),
        2 => sorted(&mut rows, list, |a, b| a.client_id.cmp(&b.client_id)),
        3 => sorted(&mut rows, list, |a, b| a.client_host.cmp(&b.client_host)),
        4 => sorted(&mut rows, list, |a, b| a.member_epoch.cmp(&b.member_epoch)),
        5 => sorted(&mut rows, list, |a, b| {
            a.assignment.len().cmp(&b.assignment.len())
        }),
        6 => sorted(&mut rows, list, |a, b| target(a).cmp(&target(b))),
        _ => {}
    }
    rows
}
