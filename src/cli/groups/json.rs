//! The JSON shapes of the headless groups output (stable field names).

use std::collections::BTreeMap;

use serde::Serialize;

use super::Verdicts;

use crate::groups::{
    Assignment, GroupDetail, Lag, Member, PartitionLag, StreamsTasks, TaskMap, Topology,
};

/// A member in `describe group -o json`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MemberJson {
    member_id: String,
    instance_id: Option<String>,
    client_id: String,
    client_host: String,
    rack: Option<String>,
    member_epoch: Option<i32>,
    subscribed_topics: Vec<String>,
    subscribed_regex: Option<String>,
    /// Streams groups: the partitions the member's active tasks read.
    assignment: BTreeMap<String, Vec<i32>>,
    target_assignment: Option<BTreeMap<String, Vec<i32>>>,
    /// Streams groups: the application instance the member runs in.
    #[serde(skip_serializing_if = "Option::is_none")]
    process_id: Option<String>,
    /// Streams groups: tasks per kind, subtopology id → partitions.
    #[serde(skip_serializing_if = "Option::is_none")]
    tasks: Option<TasksJson>,
    /// Streams groups: the tasks the coordinator wants the member to have.
    #[serde(skip_serializing_if = "Option::is_none")]
    target_tasks: Option<TasksJson>,
}

/// A streams member's tasks in `describe group -o json`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TasksJson {
    active: TaskMap,
    standby: TaskMap,
    warmup: TaskMap,
}

impl From<&StreamsTasks> for TasksJson {
    fn from(t: &StreamsTasks) -> Self {
        TasksJson {
            active: t.active.clone(),
            standby: t.standby.clone(),
            warmup: t.warmup.clone(),
        }
    }
}

/// One subtopology of a streams group in `describe group -o json`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SubtopologyJson {
    id: String,
    source_topics: Vec<String>,
    repartition_source_topics: Vec<String>,
    repartition_sink_topics: Vec<String>,
    changelog_topics: Vec<String>,
}

/// A streams group's topology in `describe group -o json`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TopologyJson {
    epoch: i32,
    subtopologies: Vec<SubtopologyJson>,
}

impl From<&Topology> for TopologyJson {
    fn from(t: &Topology) -> Self {
        TopologyJson {
            epoch: t.epoch,
            subtopologies: t
                .subtopologies
                .iter()
                .map(|s| SubtopologyJson {
                    id: s.id.clone(),
                    source_topics: s.source_topics.clone(),
                    repartition_source_topics: s.repartition_source_topics.clone(),
                    repartition_sink_topics: s.repartition_sink_topics.clone(),
                    changelog_topics: s.changelog_topics.clone(),
                })
                .collect(),
        }
    }
}

impl From<&Member> for MemberJson {
    fn from(m: &Member) -> Self {
        MemberJson {
            member_id: m.member_id.clone(),
            instance_id: m.instance_id.clone(),
            client_id: m.client_id.clone(),
            client_host: m.client_host.clone(),
            rack: m.rack.clone(),
            member_epoch: m.member_epoch,
            subscribed_topics: m.subscribed_topics.clone(),
            subscribed_regex: m.subscribed_regex.clone(),
            assignment: m.assignment.0.clone(),
            target_assignment: m
                .target_assignment
                .as_ref()
                .map(|a: &Assignment| a.0.clone()),
            process_id: m.process_id.clone(),
            tasks: m.tasks.as_ref().map(TasksJson::from),
            target_tasks: m.target_tasks.as_ref().map(TasksJson::from),
        }
    }
}

/// One partition in `describe group -o json`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct OffsetJson {
    topic: String,
    partition: i32,
    /// Null: the group never committed here. Share groups: the
    /// share-partition start offset (null: no state for it yet).
    committed: Option<i64>,
    /// Null: the end offset could not be read.
    end: Option<i64>,
    /// `end - committed`, as Kafka's `ConsumerGroupCommand` gives it
    /// (negative when the commit is past the end). Null when there is no
    /// commit (see `committed`) or no end offset.
    lag: Option<i64>,
    /// Set when the committed offset is past the end: by how many offsets.
    #[serde(skip_serializing_if = "Option::is_none")]
    past_end_by: Option<i64>,
    /// True when `lag` is the broker's own number (share groups on Kafka
    /// 4.2+), which leaves out records above the start offset already
    /// acknowledged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    lag_from_broker: bool,
    /// Of `lag`, records already deleted by retention (below the log start
    /// offset); null when the log start offset was not read.
    deleted_by_retention: Option<i64>,
    /// Age in ms of the oldest unconsumed record (lagging partitions only).
    #[serde(skip_serializing_if = "Option::is_none")]
    oldest_unconsumed_age_ms: Option<i64>,
    /// Ms until retention may delete records the group has not read, 0
    /// when due: the earlier of the topic's `retention.ms` minus
    /// `oldest_unconsumed_age_ms` and, with `retention.bytes` set and
    /// `--stuck-over`, the time until the log has grown by
    /// `retention.bytes` minus the unread bytes (lower bounds: see the
    /// README). Absent without lag or with unlimited or unread retention.
    #[serde(skip_serializing_if = "Option::is_none")]
    data_loss_in_ms: Option<i64>,
    /// True when the partition is STUCK (`--stuck-over`: its commit stood
    /// still over every read while records arrived, lag left, the group
    /// has members); null when not judged (no `--stuck-over`).
    stuck: Option<bool>,
    /// The client id of the member whose assignment holds the partition;
    /// null when no member holds it.
    owner: Option<String>,
    /// That member's id.
    owner_member_id: Option<String>,
}

impl OffsetJson {
    fn new(p: &PartitionLag, age_ms: Option<i64>, verdicts: &Verdicts) -> Self {
        let age = age_ms.map(|ms| std::time::Duration::from_millis(u64::try_from(ms).unwrap_or(0)));
        let retention_ms = verdicts.retention.get(p.topic.as_ref()).copied();
        let by_time =
            crate::app::screens::groups::columns::offsets::data_loss_in(retention_ms, age);
        let loss_in = verdicts
            .loss_in(&p.topic, p.partition, by_time)
            .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        OffsetJson {
            topic: p.topic.to_string(),
            partition: p.partition,
            committed: p.committed,
            end: p.end,
            lag: match p.lag() {
                Lag::Records(n) => Some(n),
                Lag::PastEnd(n) => Some(-n),
                Lag::NoCommit | Lag::UnknownEnd => None,
            },
            past_end_by: match p.lag() {
                Lag::PastEnd(n) => Some(n),
                _ => None,
            },
            lag_from_broker: p.committed.is_some() && p.reported.is_some(),
            deleted_by_retention: p.deleted(),
            oldest_unconsumed_age_ms: age_ms,
            data_loss_in_ms: loss_in,
            stuck: None,
            owner: None,
            owner_member_id: None,
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Milliseconds since the epoch, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `describe group -o json`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct GroupDetailJson {
    group: String,
    #[serde(rename = "type")]
    group_type: String,
    state: String,
    coordinator: i32,
    protocol_type: String,
    assignor: String,
    group_epoch: Option<i32>,
    assignment_epoch: Option<i32>,
    lag: Option<i64>,
    uncommitted_partitions: usize,
    lag_deleted_by_retention: i64,
    past_end_partitions: usize,
    /// Lagging partitions whose record age was not looked at (a cap).
    #[serde(skip_serializing_if = "is_zero")]
    oldest_unconsumed_left_out: usize,
    members: Vec<MemberJson>,
    /// Streams groups only.
    #[serde(skip_serializing_if = "Option::is_none")]
    topology: Option<TopologyJson>,
    offsets: Vec<OffsetJson>,
}

impl GroupDetailJson {
    /// `detail`, with what `verdicts` says of its partitions (LOSS IN where
    /// the topic's `retention.ms` was read, STUCK where judged).
    pub fn new(detail: &GroupDetail, verdicts: &Verdicts) -> Self {
        let d = &detail.description;
        GroupDetailJson {
            group: d.group.clone(),
            group_type: d.group_type.to_string(),
            state: d.state.to_string(),
            coordinator: d.coordinator,
            protocol_type: d.protocol_type.clone(),
            assignor: d.assignor.clone(),
            group_epoch: d.group_epoch,
            assignment_epoch: d.assignment_epoch,
            lag: detail.lag.totals.total(),
            uncommitted_partitions: detail.lag.totals.uncommitted,
            lag_deleted_by_retention: detail.lag.totals.deleted,
            past_end_partitions: detail.lag.totals.past_end,
            oldest_unconsumed_left_out: detail.oldest_unconsumed_left_out,
            members: d.members.iter().map(MemberJson::from).collect(),
            topology: d.topology.as_ref().map(TopologyJson::from),
            offsets: {
                let now = now_ms();
                detail
                    .lag
                    .partitions
                    .iter()
                    .map(|p| {
                        let age = detail.oldest_unconsumed_age_ms(&p.topic, p.partition, now);
                        let owner = super::stuck::owner(d, &p.topic, p.partition);
                        OffsetJson {
                            stuck: verdicts.stuck(&p.topic, p.partition),
                            owner: owner.map(|m| m.client_id.clone()),
                            owner_member_id: owner.map(|m| m.member_id.clone()),
                            ..OffsetJson::new(p, age, verdicts)
                        }
                    })
                    .collect()
            },
        }
    }
}
