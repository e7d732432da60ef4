//! `kscope get brokers --sizes` and `kscope get topics [TOPIC] --sizes`: the
//! plain rows plus disk usage from one `DescribeLogDirs` per broker. A
//! broker that does not answer in time gives null sizes and a stderr line.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::rows::{self, BrokerRow, TopicRow, number, opt, text};
use crate::columns::Column;
use crate::inspect::log_dirs::{self, BrokerLogDirs};
use crate::inspect::sizes::{broker_disk, topic_sizes};
use crate::meta::Cluster;

use crate::cli::output::emit;

/// A broker with its disk (`get brokers --sizes`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BrokerSizeRow {
    /// The fields of `get brokers`.
    #[serde(flatten)]
    pub broker: BrokerRow,
    /// Bytes its replicas take; null when it did not answer.
    pub disk_used_bytes: Option<i64>,
    /// Its volumes' total size; null when not reported.
    pub disk_total_bytes: Option<i64>,
    /// Its volumes' usable free space; null when not reported.
    pub disk_usable_bytes: Option<i64>,
    /// Per log dir; null when it did not answer.
    pub log_dirs: Option<Vec<LogDirRow>>,
}

/// One log dir of a broker.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogDirRow {
    pub path: String,
    /// Bytes its replicas take.
    pub used_bytes: i64,
    /// The volume's size, when reported.
    pub total_bytes: Option<i64>,
    /// The volume's usable free space, when reported.
    pub usable_bytes: Option<i64>,
    /// Why the broker could not read it, if it could not.
    pub error: Option<String>,
}

/// A topic with its size (`get topics --sizes`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopicSizeRow {
    /// The fields of `get topics`.
    #[serde(flatten)]
    pub topic: TopicRow,
    /// Bytes of every replica; null when a broker holding one did not answer.
    pub size_bytes: Option<i64>,
    /// Bytes of the leader replicas only; null when a leader did not answer.
    pub leader_size_bytes: Option<i64>,
}

impl BrokerSizeRow {
    /// The table `get brokers --sizes` prints.
    pub fn table() -> [Column<BrokerSizeRow>; 7] {
        [
            number("ID", |r| r.broker.id.to_string()),
            text("HOST", |r| r.broker.host.clone()),
            number("PORT", |r| r.broker.port.to_string()),
            number("LEADERS", |r| r.broker.leaders.to_string()),
            number("DISK-USED", |r| opt(r.disk_used_bytes)),
            number("DISK-TOTAL", |r| opt(r.disk_total_bytes)),
            number("DISK-FREE", |r| opt(r.disk_usable_bytes)),
        ]
    }
}

impl TopicSizeRow {
    /// The table `get topics --sizes` prints.
    pub fn table() -> [Column<TopicSizeRow>; 5] {
        [
            text("NAME", |r| r.topic.name.clone()),
            number("PARTITIONS", |r| r.topic.partitions.to_string()),
            number("RF", |r| r.topic.replication_factor.to_string()),
            number("SIZE", |r| opt(r.size_bytes)),
            number("LEADER-SIZE", |r| opt(r.leader_size_bytes)),
        ]
    }
}

/// Every broker's log dirs, with a stderr line for each that gave none.
pub(super) async fn describe_all(cluster: &Cluster) -> Vec<BrokerLogDirs> {
    let brokers: Vec<i32> = cluster
        .snapshot()
        .brokers()
        .iter()
        .map(|b| b.node_id)
        .collect();
    let answers = log_dirs::describe(cluster, &brokers).await;
    for (_, answer) in &answers {
        if let Err(error) = answer {
            crate::cli::partial::missing(format_args!("{error}; its sizes are null"));
        }
    }
    answers
}

/// Print `get brokers --sizes`.
pub async fn brokers(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let answers = describe_all(cluster).await;
    let rows: Vec<BrokerSizeRow> = rows::brokers(&cluster.snapshot())
        .into_iter()
        .map(|broker| {
            let answer = answers.iter().find(|(id, _)| *id == broker.id);
            let disk = answer.and_then(broker_disk);
            let dirs = answer.and_then(|(_, dirs)| dirs.as_ref().ok()).map(|dirs| {
                dirs.iter()
                    .map(|d| LogDirRow {
                        path: d.path.clone(),
                        used_bytes: d.used_bytes(),
                        total_bytes: d.total_bytes,
                        usable_bytes: d.usable_bytes,
                        error: d.error.map(|e| e.to_string()),
                    })
                    .collect()
            });
            BrokerSizeRow {
                broker,
                disk_used_bytes: disk.map(|d| d.used_bytes),
                disk_total_bytes: disk.and_then(|d| d.total_bytes),
                disk_usable_bytes: disk.and_then(|d| d.usable_bytes),
                log_dirs: dirs,
            }
        })
        .collect();
    emit(out, format, &rows, &BrokerSizeRow::table())
}

/// Print `get topics [TOPIC] --sizes`.
pub async fn topics(
    cluster: &Cluster,
    topic: Option<&str>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let snapshot = match topic {
        Some(name) => {
            let snapshot = cluster.refresh_topics(&[name]).await?;
            if snapshot.topic(name).is_none() {
                return Err(Error::UnknownTopic(name.to_owned()));
            }
            snapshot
        }
        None => cluster.snapshot(),
    };
    let answers = describe_all(cluster).await;
    let sizes = topic_sizes(&answers, &snapshot);
    let selected = snapshot
        .topics()
        .iter()
        .map(AsRef::as_ref)
        .filter(|t| topic.is_none_or(|name| t.name == name));
    let rows: Vec<TopicSizeRow> = rows::topics(&snapshot, selected)
        .into_iter()
        .map(|row| {
            let size = sizes.get(&row.name).copied().unwrap_or_default();
            TopicSizeRow {
                topic: row,
                size_bytes: size.all_replicas,
                leader_size_bytes: size.leaders_only,
            }
        })
        .collect();
    emit(out, format, &rows, &TopicSizeRow::table())
}
