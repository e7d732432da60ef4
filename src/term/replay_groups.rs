//! The group lists a recording holds, turned into the answers the groups
//! module takes (a replay has no cluster to ask): the whole list, and a
//! relisting with the rows asked for.

use std::sync::Arc;

use crate::groups::{
    GroupLag, GroupList, GroupListing, GroupState, GroupSummary, GroupType, LagTotals, Overview,
    Relisted,
};
use crate::recording::GroupRowJson;

/// The group list as recorded (each row's totals and per-topic lag; no
/// per-partition lag).
pub(super) fn overview(rows: &[GroupRowJson], failed: Vec<(i32, String)>) -> Overview {
    Overview {
        groups: rows.iter().map(summary).collect(),
        failed_brokers: failed,
        requests: crate::groups::RequestCounts::default(),
    }
}

fn summary(row: &GroupRowJson) -> GroupSummary {
    let state = GroupState::parse(&row.state);
    let known = row.lag.is_some() || row.uncommitted_partitions > 0 || row.past_end_partitions > 0;
    GroupSummary {
        listing: GroupListing {
            group: row.group.clone(),
            group_type: GroupType::parse(&row.group_type),
            state: state.clone(),
            protocol_type: String::new(),
            coordinator: row.coordinator,
        },
        members: row.members,
        state,
        lag: known.then(|| GroupLag {
            partitions: Vec::new(),
            totals: LagTotals {
                records: row.lag.unwrap_or(0),
                counted: usize::from(row.lag.is_some()),
                uncommitted: row.uncommitted_partitions,
                unknown_end: 0,
                past_end: row.past_end_partitions,
                deleted: row.lag_deleted_by_retention,
            },
            per_topic: row
                .lag_by_topic
                .iter()
                .map(|t| {
                    let totals = LagTotals {
                        records: t.lag,
                        counted: 1,
                        ..LagTotals::default()
                    };
                    (Arc::from(t.topic.as_str()), totals)
                })
                .collect(),
        }),
        topics: row.topics.iter().map(|t| Arc::from(t.as_str())).collect(),
        reconciling: None,
        error: row.error.clone(),
    }
}

/// A relisting answered from the recorded list: every group listed, the
/// asked ones with their recorded rows.
pub(super) fn relisted(overview: Overview, asked: &[GroupListing]) -> Relisted {
    let list = GroupList {
        groups: overview.groups.iter().map(|g| g.listing.clone()).collect(),
        failed: overview.failed_brokers.clone(),
    };
    let rows = overview
        .groups
        .into_iter()
        .filter(|g| asked.iter().any(|a| a.group == g.listing.group))
        .collect();
    Relisted { list, rows }
}
