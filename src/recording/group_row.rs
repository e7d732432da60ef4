//! The JSON shape of one consumer-group row: `get groups -o json` prints it
//! and recordings keep it (stable field names). Here, below both, so that
//! `recording` does not import `cli`.

use serde::{Deserialize, Serialize};

use crate::groups::GroupSummary;

/// One row of `get groups -o json` (read back from recordings too).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct GroupRowJson {
    pub group: String,
    /// `classic`, `consumer`, `share`, `streams` or `unknown`.
    #[serde(rename = "type")]
    pub group_type: String,
    /// `Stable`, `Empty`, `Reconciling`, …
    pub state: String,
    /// Member count; null when the describe failed.
    pub members: Option<usize>,
    /// The coordinator's node id.
    pub coordinator: i32,
    /// Total lag; null when nothing is committed (or offsets failed).
    pub lag: Option<i64>,
    /// Partitions of its topics with no commit.
    pub uncommitted_partitions: usize,
    /// Of `lag`, records already deleted by retention (the consumer will
    /// skip them).
    pub lag_deleted_by_retention: i64,
    /// Partitions whose committed offset is past their end (not in `lag`).
    pub past_end_partitions: usize,
    /// Topics it commits to or is assigned.
    pub topics: Vec<String>,
    /// Its lag on each topic that has a lag number, in topic order (the
    /// Topics screen's LAG column in `kscope replay` reads it). Absent in
    /// recordings made before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lag_by_topic: Vec<TopicLagJson>,
    /// What failed for this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One topic's lag in a group row.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TopicLagJson {
    pub topic: String,
    /// Records not yet read, summed over the topic's partitions that have
    /// a lag number.
    pub lag: i64,
}

impl From<&GroupSummary> for GroupRowJson {
    fn from(g: &GroupSummary) -> Self {
        GroupRowJson {
            group: g.listing.group.clone(),
            group_type: g.listing.group_type.to_string(),
            state: g.state.to_string(),
            members: g.members,
            coordinator: g.listing.coordinator,
            lag: g.lag.as_ref().and_then(|l| l.totals.total()),
            uncommitted_partitions: g.lag.as_ref().map_or(0, |l| l.totals.uncommitted),
            lag_deleted_by_retention: g.lag.as_ref().map_or(0, |l| l.totals.deleted),
            past_end_partitions: g.lag.as_ref().map_or(0, |l| l.totals.past_end),
            topics: g.topics.iter().map(ToString::to_string).collect(),
            lag_by_topic: g.lag.as_ref().map_or_else(Vec::new, |l| {
                l.per_topic
                    .iter()
                    .filter(|(_, totals)| totals.counted > 0)
                    .map(|(topic, totals)| TopicLagJson {
                        topic: topic.to_string(),
                        lag: totals.records,
                    })
                    .collect()
            }),
            error: g.error.clone(),
        }
    }
}
