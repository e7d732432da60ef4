//! The rows `get` prints, with their stable field names (JSON) and their
//! column tables (text), built from the same formatters as the TUI's.

use serde::Serialize;

use crate::columns::{Column, format};
use crate::meta::{MetadataSnapshot, PartitionInfo, TopicInfo, Watermarks};

/// A broker (`get brokers`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BrokerRow {
    /// Node id.
    pub id: i32,
    /// Advertised host.
    pub host: String,
    /// Advertised port.
    pub port: i32,
    /// Rack, if configured.
    pub rack: Option<String>,
    /// Whether the metadata names it controller.
    pub controller: bool,
    /// How many partitions it leads.
    pub leaders: usize,
}

/// A topic (`get topics`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopicRow {
    pub name: String,
    /// Topic id in Kafka's text form.
    pub id: String,
    /// Whether Kafka marks it internal.
    pub internal: bool,
    /// Partition count.
    pub partitions: usize,
    /// Largest replica set.
    pub replication_factor: usize,
    /// Partitions with ISR smaller than replicas.
    pub under_replicated: usize,
    /// Partitions without a leader.
    pub offline: usize,
    /// Share of partitions led by their preferred replica, 0–100.
    pub preferred_leader_pct: f64,
}

/// A partition (`get partitions`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartitionRow {
    /// The topic (kscope adds it so rows of several topics stay apart).
    pub topic: String,
    /// Partition index.
    pub partition: i32,
    /// Leader, or null when offline.
    pub leader: Option<i32>,
    pub leader_epoch: i32,
    /// Replica set, preferred leader first.
    pub replicas: Vec<i32>,
    /// In-sync replicas.
    pub isr: Vec<i32>,
    pub offline_replicas: Vec<i32>,
    /// Whether the leader is the preferred replica.
    pub preferred_leader: bool,
    /// Log start offset, null when it could not be read (offline).
    pub low_watermark: Option<i64>,
    /// High watermark, null when it could not be read (offline).
    pub high_watermark: Option<i64>,
    /// Eligible leader replicas (KIP-966), for a named topic on a broker
    /// that reports them, when any partition of it has some (or a last known
    /// one); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eligible_leader_replicas: Option<Vec<i32>>,
    /// The last known eligible leader replicas, beside the ELR.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_known_elr: Option<Vec<i32>>,
    /// The local log start offset (tiered storage, KIP-405): present, for a
    /// named topic with `remote.storage.enable=true`, and null where the
    /// partition's leader did not answer; absent for other topics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_log_start_offset: Option<Option<i64>>,
}

/// Every broker of the snapshot.
pub fn brokers(snapshot: &MetadataSnapshot) -> Vec<BrokerRow> {
    snapshot
        .brokers()
        .iter()
        .map(|b| BrokerRow {
            id: b.node_id,
            host: b.host.clone(),
            port: b.port,
            rack: b.rack.clone(),
            controller: snapshot.controller_id() == Some(b.node_id),
            leaders: snapshot.leader_count(b.node_id),
        })
        .collect()
}

/// One row per topic given.
pub fn topics<'a>(
    snapshot: &MetadataSnapshot,
    topics: impl IntoIterator<Item = &'a TopicInfo>,
) -> Vec<TopicRow> {
    topics
        .into_iter()
        .map(|t| {
            let stats = snapshot.topic_stats(&t.name).copied().unwrap_or_default();
            TopicRow {
                name: t.name.clone(),
                id: t.topic_id.to_string(),
                internal: t.internal,
                partitions: t.partitions.len(),
                replication_factor: stats.replication_factor,
                under_replicated: stats.under_replicated,
                offline: stats.offline,
                preferred_leader_pct: (stats.preferred_leader_pct() * 10.0).round() / 10.0,
            }
        })
        .collect()
}

/// One row per partition, with watermarks where known.
pub fn partition(topic: &str, p: &PartitionInfo, watermarks: Option<&Watermarks>) -> PartitionRow {
    PartitionRow {
        topic: topic.to_owned(),
        partition: p.partition,
        leader: p.leader,
        leader_epoch: p.leader_epoch,
        replicas: p.replicas.to_vec(),
        isr: p.isr.to_vec(),
        offline_replicas: p.offline_replicas.to_vec(),
        preferred_leader: p.is_preferred_leader(),
        low_watermark: watermarks.map(|w| w.low),
        high_watermark: watermarks.map(|w| w.high),
        eligible_leader_replicas: None,
        last_known_elr: None,
        local_log_start_offset: None,
    }
}

fn list(ids: &[i32]) -> String {
    if ids.is_empty() {
        "-".to_owned()
    } else {
        format::ids(ids)
    }
}

/// An optional value as a cell: `-` when absent.
pub(crate) fn opt<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// A text column; rows keep the order they are printed in: no column sorts.
pub(crate) fn text<R>(header: &'static str, cell: fn(&R) -> String) -> Column<R> {
    Column::text(header, (1, usize::MAX), cell, None)
}

/// A right-aligned number column that does not sort.
pub(crate) fn number<R>(header: &'static str, cell: fn(&R) -> String) -> Column<R> {
    Column {
        sort: None,
        ..Column::number(header, cell, |_, _| std::cmp::Ordering::Equal)
    }
}

impl BrokerRow {
    /// The table `get brokers` prints.
    pub fn table() -> [Column<BrokerRow>; 6] {
        [
            number("ID", |r| r.id.to_string()),
            text("HOST", |r| r.host.clone()),
            number("PORT", |r| r.port.to_string()),
            text("RACK", |r| opt(r.rack.as_deref())),
            text("CONTROLLER", |r| r.controller.to_string()),
            number("LEADERS", |r| r.leaders.to_string()),
        ]
    }
}

impl TopicRow {
    /// The table `get topics` prints.
    pub fn table() -> [Column<TopicRow>; 8] {
        [
            text("NAME", |r| r.name.clone()),
            text("ID", |r| r.id.clone()),
            text("INTERNAL", |r| r.internal.to_string()),
            number("PARTITIONS", |r| r.partitions.to_string()),
            number("RF", |r| r.replication_factor.to_string()),
            number("UNDER-REPLICATED", |r| r.under_replicated.to_string()),
            number("OFFLINE", |r| r.offline.to_string()),
            number("PREFERRED%", |r| format!("{:.1}", r.preferred_leader_pct)),
        ]
    }
}

impl PartitionRow {
    /// The table `get partitions` prints.
    pub fn table() -> [Column<PartitionRow>; 10] {
        [
            text("TOPIC", |r| r.topic.clone()),
            number("PARTITION", |r| r.partition.to_string()),
            number("LEADER", |r| opt(r.leader)),
            number("EPOCH", |r| r.leader_epoch.to_string()),
            text("REPLICAS", |r| list(&r.replicas)),
            text("ISR", |r| list(&r.isr)),
            text("OFFLINE", |r| list(&r.offline_replicas)),
            text("PREFERRED", |r| r.preferred_leader.to_string()),
            number("LOW", |r| opt(r.low_watermark)),
            number("HIGH", |r| opt(r.high_watermark)),
        ]
    }

    /// The ELR columns, for rows where the broker reported them.
    pub fn elr_columns() -> [Column<PartitionRow>; 2] {
        [
            text("ELR", |r| {
                r.eligible_leader_replicas
                    .as_deref()
                    .map_or_else(|| "-".to_owned(), list)
            }),
            text("LAST-KNOWN-ELR", |r| {
                r.last_known_elr
                    .as_deref()
                    .map_or_else(|| "-".to_owned(), list)
            }),
        ]
    }

    /// The local log start column, for a tiered topic.
    pub fn local_start_column() -> Column<PartitionRow> {
        number("LOCAL-LOW", |r| opt(r.local_log_start_offset.flatten()))
    }
}
