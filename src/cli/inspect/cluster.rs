//! `kscope get cluster`: the cluster id and controller, the `KRaft` quorum
//! (voters and observers), the features and reassignments in progress. One
//! JSON object; a part that could not be read is null, with a stderr line.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::rows::{number, opt, text};
use crate::cli::table::write_columns;
use crate::columns::Column;
use crate::columns::format::ids;
use crate::inspect::cluster_info::{self, ClusterInfo};
use crate::inspect::quorum::{Quorum, QuorumReplica};
use crate::inspect::{Feature, Reassignment};
use crate::meta::Cluster;
use crate::untrusted::escaped;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuorumJson {
    /// The leader (the active controller).
    pub leader_id: i32,
    pub leader_epoch: i32,
    /// The metadata log's high watermark.
    pub high_watermark: i64,
    /// Voters, the leader first.
    pub voters: Vec<QuorumReplica>,
    /// Observers (brokers that are not voters).
    pub observers: Vec<QuorumReplica>,
}

/// One feature.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeatureJson {
    pub name: String,
    /// Lowest version supported by the answering broker.
    pub supported_min: i16,
    /// Highest version supported by the answering broker.
    pub supported_max: i16,
    /// The version in effect; null when not finalized.
    pub finalized: Option<i16>,
}

/// One partition being reassigned.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReassignmentJson {
    pub topic: String,
    pub partition: i32,
    /// The replica set now.
    pub replicas: Vec<i32>,
    /// Being added.
    pub adding: Vec<i32>,
    /// Being removed.
    pub removing: Vec<i32>,
}

/// What `get cluster -o json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClusterJson {
    pub cluster_id: Option<String>,
    /// The controller the metadata names.
    pub controller_id: Option<i32>,
    /// `kraft`, or `zookeeper` when the brokers offer no `DescribeQuorum`.
    pub metadata_mode: &'static str,
    /// The quorum; null when it could not be read (or in `ZooKeeper` mode).
    pub quorum: Option<QuorumJson>,
    /// The features; null when they could not be read.
    pub features: Option<Vec<FeatureJson>>,
    /// The epoch of the finalized features.
    pub finalized_features_epoch: Option<i64>,
    /// Reassignments in progress; null when they could not be read.
    pub reassignments: Option<Vec<ReassignmentJson>>,
}

fn quorum(q: &Quorum) -> QuorumJson {
    let (observers, voters): (Vec<_>, Vec<_>) =
        q.replicas.iter().partition(|r| r.role == "observer");
    QuorumJson {
        leader_id: q.leader_id,
        leader_epoch: q.leader_epoch,
        high_watermark: q.high_watermark,
        voters: voters.into_iter().cloned().collect(),
        observers: observers.into_iter().cloned().collect(),
    }
}

fn feature(f: &Feature) -> FeatureJson {
    FeatureJson {
        name: f.name.clone(),
        supported_min: f.supported_min,
        supported_max: f.supported_max,
        finalized: f.finalized,
    }
}

fn reassignment(r: &Reassignment) -> ReassignmentJson {
    ReassignmentJson {
        topic: r.topic.clone(),
        partition: r.partition,
        replicas: r.replicas.clone(),
        adding: r.adding.clone(),
        removing: r.removing.clone(),
    }
}

/// The JSON of `info`, and a line per part that could not be read.
pub fn json(info: &ClusterInfo) -> (ClusterJson, Vec<String>) {
    let mut problems = Vec::new();
    let mut keep = |part: &str, error: &crate::inspect::Error| {
        problems.push(format!("{part}: {error}"));
    };
    let quorum_json = info.quorum.as_ref().map(quorum);
    let features = info
        .features
        .as_ref()
        .map(|f| f.iter().map(feature).collect());
    let reassignments = info
        .reassignments
        .as_ref()
        .map(|r| r.iter().map(reassignment).collect());
    let zookeeper = matches!(&quorum_json, Err(crate::inspect::Error::NoKraftQuorum));
    if let Err(e) = &quorum_json
        && !zookeeper
    {
        keep("quorum", e);
    }
    if let Err(e) = &features {
        keep("features", e);
    }
    if let Err(e) = &reassignments {
        keep("reassignments", e);
    }
    let json = ClusterJson {
        cluster_id: info.cluster_id.clone(),
        controller_id: info.controller_id,
        metadata_mode: if zookeeper { "zookeeper" } else { "kraft" },
        quorum: quorum_json.ok(),
        features: features.ok(),
        finalized_features_epoch: info.finalized_epoch,
        reassignments: reassignments.ok(),
    };
    (json, problems)
}

fn replica_table() -> [Column<QuorumReplica>; 6] {
    [
        number("NODE", |r| r.node_id.to_string()),
        text("ROLE", |r| r.role.to_owned()),
        number("LOG-END", |r| r.log_end_offset.to_string()),
        number("LAG", |r| r.lag.to_string()),
        number("LAST-FETCH-MS", |r| opt(r.last_fetch_ms)),
        number("LAST-CAUGHT-UP-MS", |r| opt(r.last_caught_up_ms)),
    ]
}

fn feature_table() -> [Column<FeatureJson>; 3] {
    [
        text("FEATURE", |r| r.name.clone()),
        text("SUPPORTED", |r| {
            format!("{}-{}", r.supported_min, r.supported_max)
        }),
        number("FINALIZED", |r| opt(r.finalized)),
    ]
}

fn reassignment_table() -> [Column<ReassignmentJson>; 5] {
    [
        text("TOPIC", |r| r.topic.clone()),
        number("PARTITION", |r| r.partition.to_string()),
        text("REPLICAS", |r| ids(&r.replicas)),
        text("ADDING", |r| ids(&r.adding)),
        text("REMOVING", |r| ids(&r.removing)),
    ]
}

fn write_table(out: &mut impl Write, c: &ClusterJson) -> std::io::Result<()> {
    writeln!(out, "cluster id: {}", escaped(opt(c.cluster_id.as_deref())))?;
    writeln!(out, "controller: {}", opt(c.controller_id))?;
    if c.metadata_mode == "zookeeper" {
        writeln!(out, "quorum: none (ZooKeeper mode: no KRaft quorum)")?;
    }
    if let Some(q) = &c.quorum {
        writeln!(
            out,
            "quorum: leader {}, epoch {}, high watermark {}",
            q.leader_id, q.leader_epoch, q.high_watermark
        )?;
        let replicas: Vec<QuorumReplica> = q.voters.iter().chain(&q.observers).cloned().collect();
        write_columns(out, &replica_table(), &replicas)?;
    }
    if let Some(features) = &c.features {
        writeln!(out)?;
        write_columns(out, &feature_table(), features)?;
    }
    if let Some(moving) = &c.reassignments {
        writeln!(out)?;
        if moving.is_empty() {
            writeln!(out, "no partition reassignments in progress")?;
        } else {
            write_columns(out, &reassignment_table(), moving)?;
        }
    }
    Ok(())
}

/// Print the cluster.
pub async fn run(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let info = cluster_info::describe(cluster).await;
    let (json, problems) = json(&info);
    for problem in &problems {
        crate::cli::partial::missing(format_args!(
            "warning: {}; it is null",
            escaped(problem.clone())
        ));
    }
    match format {
        OutputFormat::Json => {
            crate::cli::output::json(&mut *out, &json, false)?;
            writeln!(out)?;
        }
        OutputFormat::Table | OutputFormat::Raw | OutputFormat::Csv => write_table(out, &json)?,
    }
    out.flush()?;
    Ok(())
}
