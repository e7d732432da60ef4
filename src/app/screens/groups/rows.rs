//! The group screens' rows: the row lists (filtered here, sorted by the
//! screen's column table), the row each index shows, and what identifies a
//! row across answers, so the selection follows the group, partition or
//! member it was on when a refresh reorders the list.

use std::time::Duration;

use crate::groups::{LagHistory, Member, PartitionLag};
use crate::inspect::ClusterSizes;

use super::Which;
use super::columns::{list, members, offsets};
use super::store::{Around, GroupsStore};

/// Indices into the screen's source, in source order, filtered by `keep`
/// (given each row's filter text).
pub fn build(store: &GroupsStore, which: Which, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
    match which {
        Which::List { topic } => groups(store, topic, keep),
        Which::Offsets(group) => store.detail(group).map_or_else(Vec::new, |d| {
            filtered(&d.lag.partitions, partition_text, keep)
        }),
        Which::Members(group) => store.detail(group).map_or_else(Vec::new, |d| {
            filtered(&d.description.members, member_text, keep)
        }),
    }
}

/// Sort `rows` of `which` by `column` of its table (ascending).
pub fn sort(
    store: &GroupsStore,
    around: &Around,
    which: Which,
    column: usize,
    rows: &mut Vec<usize>,
) {
    use crate::columns::sort_indices;
    match which {
        Which::List { .. } => {
            sort_indices(rows, list::table().get(column), |i| group(store, i));
        }
        Which::Offsets(g) => {
            sort_indices(rows, offsets::table().get(column), |i| {
                offset(store, around, g, i)
            });
        }
        Which::Members(g) => {
            sort_indices(rows, members::table().get(column), |i| member(store, g, i));
        }
    }
}

/// What identifies the row at `index` of `which`'s source.
pub fn identity(store: &GroupsStore, which: Which, index: usize) -> Option<String> {
    match which {
        Which::List { .. } => store.group_name(index),
        Which::Offsets(group) => store
            .detail(group)?
            .lag
            .partitions
            .get(index)
            .map(partition_text),
        Which::Members(group) => store
            .detail(group)?
            .description
            .members
            .get(index)
            .map(|m| m.member_id.clone()),
    }
}

fn groups(
    store: &GroupsStore,
    topic: Option<&str>,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    let Some(overview) = &store.overview else {
        return Vec::new();
    };
    overview
        .groups
        .iter()
        .enumerate()
        .filter(|(_, g)| !(store.hide_inactive && g.state.is_inactive()))
        .filter(|(_, g)| {
            store
                .only_type
                .as_ref()
                .is_none_or(|t| g.listing.group_type == *t)
        })
        .filter(|(_, g)| topic.is_none_or(|t| g.topics.iter().any(|x| **x == *t)))
        .filter(|(_, g)| keep(&g.listing.group))
        .map(|(i, _)| i)
        .collect()
}

/// The indices of `items` whose `text` `keep` lets through.
fn filtered<T>(
    items: &[T],
    text: fn(&T) -> String,
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| keep(&text(item)))
        .map(|(i, _)| i)
        .collect()
}

/// A partition's filter text and identity: `topic partition`.
fn partition_text(p: &PartitionLag) -> String {
    format!("{} {}", p.topic, p.partition)
}

/// A member's filter text: its id, client id and host.
fn member_text(m: &Member) -> String {
    format!("{} {} {}", m.member_id, m.client_id, m.client_host)
}

/// Group `index` of the list.
pub fn group(store: &GroupsStore, index: usize) -> Option<list::Row<'_>> {
    let summary = store.overview.as_ref()?.groups.get(index)?;
    Some(list::Row {
        summary,
        history: store.histories.get(&summary.listing.group),
    })
}

/// Partition row `index` of `group`'s offsets.
pub fn offset<'a>(
    store: &'a GroupsStore,
    around: &Around,
    group: &str,
    index: usize,
) -> Option<offsets::Row<'a>> {
    let (view, detail) = store.held(group)?;
    let p = detail.lag.partitions.get(index)?;
    let oldest_age = detail
        .oldest_unconsumed_age_ms(&p.topic, p.partition, around.now_ms)
        .map(|ms| Duration::from_millis(u64::try_from(ms).unwrap_or(0)));
    let owner = view
        .owners
        .get(&(p.topic.to_string(), p.partition))
        .and_then(|&m| detail.description.members.get(m))
        .map(|m| m.client_id.as_str());
    let history = view.partitions.get(&p.topic, p.partition);
    let has_members = !detail.description.members.is_empty();
    let summary = around.summaries.get(p.topic.as_ref());
    let by_time = offsets::data_loss_in(summary.and_then(|s| s.retention_ms), oldest_age);
    let by_size = summary
        .and_then(|s| s.retention_bytes)
        .and_then(|limit| size_trend(around.sizes, p, history, limit))
        .and_then(|trend| offsets::bytes_loss_in(&trend));
    Some(offsets::Row {
        lag: p,
        oldest_age,
        owner,
        history,
        stuck: has_members && history.is_some_and(|h| h.stuck(offsets::STUCK_READS)),
        loss_in: offsets::earliest(by_time, by_size),
    })
}

/// What the size-based LOSS IN needs of `p`: its topic's
/// `retention.bytes` (`limit`), its size on disk (the largest replica in
/// the latest log dirs answer) and its records a second over the group's
/// reads. `None` while one of them is unknown.
fn size_trend(
    sizes: Option<&ClusterSizes>,
    p: &PartitionLag,
    history: Option<&LagHistory>,
    limit: i64,
) -> Option<offsets::SizeTrend> {
    if limit < 0 {
        return None;
    }
    let size = sizes?
        .replicas(&p.topic, p.partition)
        .iter()
        .filter(|r| !r.future)
        .map(|r| r.size)
        .max()?;
    let end = p.end?;
    Some(offsets::SizeTrend {
        retention_bytes: limit,
        size,
        records: end - p.start?,
        unread: end - p.committed?,
        records_per_sec: history?.production_rate()?,
    })
}

/// Member `index` of `group`.
pub fn member<'a>(store: &'a GroupsStore, group: &str, index: usize) -> Option<&'a Member> {
    store.detail(group)?.description.members.get(index)
}
