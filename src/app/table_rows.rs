//! The row each screen's table shows for an index into its source: what
//! `update` sorts by (through the screen's column table) and `view` draws.

use std::time::{Duration, UNIX_EPOCH};

use crate::columns::{group_offsets, groups};
use crate::groups::{GroupDetail, Member};

use super::group_rows;
use super::groups::DetailView;
use super::state::AppState;

/// Group `index` of the overview.
pub fn group(state: &AppState, index: usize) -> Option<groups::Row<'_>> {
    let summary = state.groups.overview.as_ref()?.groups.get(index)?;
    Some(groups::Row {
        summary,
        history: state.groups.histories.get(&summary.listing.group),
    })
}

/// The detail of `group` with its view, when it has arrived.
pub fn held<'a>(state: &'a AppState, group: &str) -> Option<(&'a DetailView, &'a GroupDetail)> {
    let view = state.groups.detail_of(group)?;
    Some((view, view.detail.as_deref()?))
}

/// Milliseconds since the epoch of the state's wall clock.
pub fn now_ms(state: &AppState) -> i64 {
    state
        .wall
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Partition row `index` of `group`'s offsets.
pub fn offset<'a>(
    state: &'a AppState,
    group: &str,
    index: usize,
) -> Option<group_offsets::Row<'a>> {
    let (view, detail) = held(state, group)?;
    let p = detail.lag.partitions.get(index)?;
    let oldest_age = detail
        .oldest_unconsumed_age_ms(&p.topic, p.partition, now_ms(state))
        .map(|ms| Duration::from_millis(u64::try_from(ms).unwrap_or(0)));
    let owner = view
        .owners
        .get(&(p.topic.to_string(), p.partition))
        .and_then(|&m| detail.description.members.get(m))
        .map(|m| m.client_id.as_str());
    let history = view.partitions.get(&p.topic, p.partition);
    let has_members = !detail.description.members.is_empty();
    let summary = state
        .screens
        .configs
        .topics
        .get(p.topic.as_ref())
        .map(|(summary, _)| summary);
    let by_time = group_offsets::data_loss_in(summary.and_then(|s| s.retention_ms), oldest_age);
    let by_size = summary
        .and_then(|s| s.retention_bytes)
        .and_then(|limit| size_trend(state, p, history, limit))
        .and_then(|trend| group_offsets::bytes_loss_in(&trend));
    Some(group_offsets::Row {
        lag: p,
        oldest_age,
        owner,
        history,
        stuck: has_members && history.is_some_and(|h| h.stuck(group_offsets::STUCK_READS)),
        loss_in: group_offsets::earliest(by_time, by_size),
    })
}

/// What the size-based LOSS IN needs of `p`: its topic's
/// `retention.bytes` (`limit`), its size on disk (the largest replica in
/// the latest log dirs answer) and its records a second over the group's
/// reads. `None` while one of them is unknown.
fn size_trend(
    state: &AppState,
    p: &crate::groups::PartitionLag,
    history: Option<&crate::groups::LagHistory>,
    limit: i64,
) -> Option<group_offsets::SizeTrend> {
    if limit < 0 {
        return None;
    }
    let size = state
        .sizes
        .latest
        .as_ref()?
        .replicas(&p.topic, p.partition)
        .iter()
        .filter(|r| !r.future)
        .map(|r| r.size)
        .max()?;
    let end = p.end?;
    Some(group_offsets::SizeTrend {
        retention_bytes: limit,
        size,
        records: end - p.start?,
        unread: end - p.committed?,
        records_per_sec: history?.production_rate()?,
    })
}

/// Member `index` of `group`.
pub fn member<'a>(state: &'a AppState, group: &str, index: usize) -> Option<&'a Member> {
    group_rows::detail(&state.groups, group)?
        .description
        .members
        .get(index)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};
    use std::sync::Arc;
    use std::time::Instant;

    use super::*;
    use crate::app::groups::{DetailView, Poll};
    use crate::app::keymap::Keymap;
    use crate::groups::{
        GroupDescription, GroupLag, GroupState, GroupType, PartitionHistories, PartitionLag,
    };
    use crate::inspect::{ClusterSizes, LogDir, ReplicaSize, TopicReplicas, TopicSummary};

    fn lag(end: i64) -> GroupLag {
        GroupLag::new(vec![PartitionLag {
            topic: "orders".into(),
            partition: 0,
            committed: Some(800),
            end: Some(end),
            start: Some(end - 1_000),
            reported: None,
        }])
    }

    /// `orders` 0: 1000 records of 1 KB on disk, 200 of them unread, 10
    /// records a second over the group's reads.
    fn state(retention_bytes: i64) -> AppState {
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        let start = Instant::now();
        let mut partitions = PartitionHistories::new(10);
        partitions.record(start, &lag(900));
        partitions.record(start + Duration::from_secs(10), &lag(1_000));
        let description = GroupDescription {
            group: "billing".to_owned(),
            group_type: GroupType::Consumer,
            state: GroupState::Stable,
            coordinator: 1,
            protocol_type: "consumer".to_owned(),
            assignor: "uniform".to_owned(),
            group_epoch: None,
            assignment_epoch: None,
            topology: None,
            members: Vec::new(),
        };
        state.groups.detail = Some(DetailView {
            group: "billing".to_owned(),
            detail: Some(Arc::new(GroupDetail {
                description,
                lag: lag(1_000),
                oldest_unconsumed: BTreeMap::new(),
                oldest_unconsumed_left_out: 0,
            })),
            at: Some(start),
            error: None,
            partitions,
            owners: HashMap::new(),
            poll: Poll::default(),
        });
        let summary = TopicSummary {
            retention_bytes: Some(retention_bytes),
            ..TopicSummary::default()
        };
        state
            .screens
            .configs
            .topics
            .insert("orders".to_owned(), (summary, None));
        let dir = LogDir {
            path: "/data".to_owned(),
            error: None,
            total_bytes: None,
            usable_bytes: None,
            topics: vec![TopicReplicas {
                name: "orders".to_owned(),
                partitions: vec![ReplicaSize {
                    partition: 0,
                    size: 1_000_000,
                    offset_lag: 0,
                    future: false,
                }],
            }],
        };
        state.sizes.latest = Some(Arc::new(ClusterSizes {
            brokers: BTreeMap::new(),
            topics: HashMap::new(),
            dirs: vec![(1, vec![dir])],
        }));
        state
    }

    #[test]
    fn a_group_partition_limited_by_size_shows_the_size_estimate() {
        // 500 KB allowed, 200 KB unread: 300 KB of growth at 10 KB/s.
        let limited = state(500_000);
        let row = offset(&limited, "billing", 0).expect("a row");
        assert_eq!(row.loss_in, Some(Duration::from_secs(30)));
        let unlimited = state(-1);
        let row = offset(&unlimited, "billing", 0).expect("a row");
        assert_eq!(row.loss_in, None, "no size limit, no retention.ms read");
    }

    #[test]
    fn the_group_screen_asks_for_sizes_only_when_a_topic_is_limited_by_size() {
        use crate::app::Effect;
        use crate::app::screen::{Screen, View};
        for (limit, asks) in [(500_000, true), (-1, false)] {
            let mut state = state(limit);
            state.link = crate::app::state::Link::Connected;
            state.stack.push(View::new(Screen::Group {
                group: "billing".to_owned(),
            }));
            let mut effects = Vec::new();
            crate::app::sizes::plan(&mut state, &mut effects);
            let asked = effects
                .iter()
                .any(|e| matches!(e, Effect::FetchSizes { .. }));
            assert_eq!(asked, asks, "retention.bytes {limit}");
        }
    }
}
