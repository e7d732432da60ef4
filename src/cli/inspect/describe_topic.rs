//! `kscope describe topic NAME`: one topic's partitions with watermarks,
//! the configs that differ from Kafka's defaults, its size on disk, and the
//! groups consuming it with their lag on it. A part that could not be read
//! is null (JSON) or says so (table), with one stderr line.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::rows::{self, PartitionRow, number, opt, text};
use crate::cli::table;
use crate::columns::Column;
use crate::groups::{GroupsClient, Overview};
use crate::inspect::sizes::topic_sizes;
use crate::inspect::{ConfigResource, configs};
use crate::meta::{Cluster, TopicPartition};

use super::config::{ConfigRow, row as config_row};

/// A group consuming the topic.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConsumingGroup {
    pub group: String,
    /// `Stable`, `Empty`, …
    pub state: String,
    /// Its lag on this topic (records); null when no partition of it has a
    /// lag number (nothing committed, or offsets unreadable).
    pub lag: Option<i64>,
    /// Partitions of this topic without a commit by the group.
    pub uncommitted_partitions: usize,
    /// Partitions whose commit is past their end (recreated or truncated
    /// under the group): no lag number.
    pub past_end_partitions: usize,
}

/// What `describe topic` prints as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TopicDescription {
    pub topic: String,
    /// Its partitions as `get partitions` prints them.
    pub partitions: Vec<PartitionRow>,
    /// Configs whose source is not Kafka's default; null when unreadable.
    pub configs: Option<Vec<ConfigRow>>,
    /// Bytes of every replica; null when a broker holding one did not answer.
    pub size_bytes: Option<i64>,
    /// Bytes of the leader replicas; null when a leader did not answer.
    pub leader_size_bytes: Option<i64>,
    /// The groups committed to it or assigned it; null when the groups
    /// could not be listed.
    pub groups: Option<Vec<ConsumingGroup>>,
}

fn group_table() -> [Column<ConsumingGroup>; 5] {
    [
        text("GROUP", |g| g.group.clone()),
        text("STATE", |g| g.state.clone()),
        number("LAG", |g| opt(g.lag)),
        number("UNCOMMITTED", |g| g.uncommitted_partitions.to_string()),
        number("PAST-END", |g| g.past_end_partitions.to_string()),
    ]
}

/// The groups of `overview` consuming `topic`, largest lag first.
pub fn consuming(overview: &Overview, topic: &str) -> Vec<ConsumingGroup> {
    let mut groups: Vec<ConsumingGroup> = overview
        .consuming(topic)
        .map(|g| {
            let totals = g.lag.as_ref().and_then(|l| l.per_topic.get(topic));
            ConsumingGroup {
                group: g.listing.group.clone(),
                state: g.state.to_string(),
                lag: totals.filter(|t| t.counted > 0).map(|t| t.records),
                uncommitted_partitions: totals.map_or(0, |t| t.uncommitted),
                past_end_partitions: totals.map_or(0, |t| t.past_end),
            }
        })
        .collect();
    groups.sort_by(|a, b| b.lag.cmp(&a.lag).then_with(|| a.group.cmp(&b.group)));
    groups
}

/// Gather everything about `topic`; each part that fails is `None` with a
/// stderr line.
async fn describe(cluster: &Cluster, topic: &str) -> Result<TopicDescription, Error> {
    let snapshot = cluster.refresh_topics(&[topic]).await?;
    let Some(info) = snapshot.topic(topic) else {
        return Err(Error::UnknownTopic(topic.to_owned()));
    };
    let led: Vec<TopicPartition> = info
        .partitions
        .iter()
        .filter(|p| p.leader.is_some())
        .map(|p| TopicPartition::new(topic, p.partition))
        .collect();
    let resource = ConfigResource::Topic(topic.to_owned());
    let groups_client = GroupsClient::new(cluster.clone());
    let (marks, described, log_dirs, overview) = tokio::join!(
        cluster.watermarks(&led),
        configs::describe(cluster, std::slice::from_ref(&resource)),
        super::sizes::describe_all(cluster),
        groups_client.overview(),
    );
    let marks = marks?;
    let partitions = info
        .partitions
        .iter()
        .map(|p| {
            rows::partition(
                topic,
                p,
                marks.get(&TopicPartition::new(topic, p.partition)),
            )
        })
        .collect();
    let configs = match described.map(|mut d| d.pop()) {
        Ok(Some((_, Ok(entries)))) => Some(
            entries
                .iter()
                .filter(|e| !e.is_default())
                .map(config_row)
                .collect(),
        ),
        Ok(Some((_, Err(error)))) | Err(error) => {
            crate::cli::partial::missing(format_args!("configs of topic '{topic}': {error}"));
            None
        }
        Ok(None) => None,
    };
    let size = topic_sizes(&log_dirs, &snapshot)
        .get(topic)
        .copied()
        .unwrap_or_default();
    let groups = match overview {
        Ok(overview) => Some(consuming(&overview, topic)),
        Err(error) => {
            crate::cli::partial::missing(format_args!("consumer groups: {error}"));
            None
        }
    };
    Ok(TopicDescription {
        topic: topic.to_owned(),
        partitions,
        configs,
        size_bytes: size.all_replicas,
        leader_size_bytes: size.leaders_only,
        groups,
    })
}

/// Print `describe topic NAME`.
pub async fn run(
    cluster: &Cluster,
    topic: &str,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let d = describe(cluster, topic).await?;
    if format == OutputFormat::Json {
        crate::cli::output::json(&mut *out, &d, false)?;
        writeln!(out)?;
        out.flush()?;
        return Ok(());
    }
    writeln!(
        out,
        "topic {}: {} partitions, size {} (leaders {})",
        crate::untrusted::escaped(crate::anonymize::name(
            crate::anonymize::Kind::Topic,
            &d.topic
        )),
        d.partitions.len(),
        opt(d.size_bytes.map(crate::columns::format::bytes)),
        opt(d.leader_size_bytes.map(crate::columns::format::bytes)),
    )?;
    writeln!(out, "\nPARTITIONS")?;
    table::write_columns(out, &PartitionRow::table(), &d.partitions)?;
    writeln!(out, "\nCONFIGS (not Kafka's default)")?;
    match &d.configs {
        Some(configs) if configs.is_empty() => writeln!(out, "none: every config is the default")?,
        Some(configs) => table::write_columns(out, &ConfigRow::table(), configs)?,
        None => writeln!(out, "not read (see stderr)")?,
    }
    writeln!(out, "\nCONSUMER GROUPS")?;
    match &d.groups {
        Some(groups) if groups.is_empty() => writeln!(out, "none commits to it or is assigned it")?,
        Some(groups) => table::write_columns(out, &group_table(), groups)?,
        None => writeln!(out, "not read (see stderr)")?,
    }
    out.flush()?;
    Ok(())
}
