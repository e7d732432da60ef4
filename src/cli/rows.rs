//! The rows `get` prints, with their stable field names.

use serde::Serialize;

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
    /// Name.
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
    /// Leader epoch.
    pub leader_epoch: i32,
    /// Replica set, preferred leader first.
    pub replicas: Vec<i32>,
    /// In-sync replicas.
    pub isr: Vec<i32>,
    /// Offline replicas.
    pub offline_replicas: Vec<i32>,
    /// Whether the leader is the preferred replica.
    pub preferred_leader: bool,
    /// Log start offset, null when it could not be read (offline).
    pub low_watermark: Option<i64>,
    /// High watermark, null when it could not be read (offline).
    pub high_watermark: Option<i64>,
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
        replicas: p.replicas.clone(),
        isr: p.isr.clone(),
        offline_replicas: p.offline_replicas.clone(),
        preferred_leader: p.is_preferred_leader(),
        low_watermark: watermarks.map(|w| w.low),
        high_watermark: watermarks.map(|w| w.high),
    }
}

fn list(ids: &[i32]) -> String {
    if ids.is_empty() {
        return "-".to_owned();
    }
    ids.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

impl BrokerRow {
    /// Column headers.
    pub const HEADERS: &[&str] = &["ID", "HOST", "PORT", "RACK", "CONTROLLER", "LEADERS"];

    /// Table cells.
    pub fn cells(&self) -> Vec<String> {
        vec![
            self.id.to_string(),
            self.host.clone(),
            self.port.to_string(),
            opt(self.rack.as_deref()),
            self.controller.to_string(),
            self.leaders.to_string(),
        ]
    }
}

impl TopicRow {
    /// Column headers.
    pub const HEADERS: &[&str] = &[
        "NAME",
        "ID",
        "INTERNAL",
        "PARTITIONS",
        "RF",
        "UNDER-REPLICATED",
        "OFFLINE",
        "PREFERRED%",
    ];

    /// Table cells.
    pub fn cells(&self) -> Vec<String> {
        vec![
            self.name.clone(),
            self.id.clone(),
            self.internal.to_string(),
            self.partitions.to_string(),
            self.replication_factor.to_string(),
            self.under_replicated.to_string(),
            self.offline.to_string(),
            format!("{:.1}", self.preferred_leader_pct),
        ]
    }
}

impl PartitionRow {
    /// Column headers.
    pub const HEADERS: &[&str] = &[
        "TOPIC",
        "PARTITION",
        "LEADER",
        "EPOCH",
        "REPLICAS",
        "ISR",
        "OFFLINE",
        "PREFERRED",
        "LOW",
        "HIGH",
    ];

    /// Table cells.
    pub fn cells(&self) -> Vec<String> {
        vec![
            self.topic.clone(),
            self.partition.to_string(),
            opt(self.leader),
            self.leader_epoch.to_string(),
            list(&self.replicas),
            list(&self.isr),
            list(&self.offline_replicas),
            self.preferred_leader.to_string(),
            opt(self.low_watermark),
            opt(self.high_watermark),
        ]
    }
}
