//! `kscope get brokers|topics|partitions [TOPIC]`.

use std::io::Write;

use std::collections::BTreeMap;

use crate::columns::Column;
use crate::inspect::{elr, tiered};
use crate::meta::{Cluster, MetadataSnapshot, TopicInfo, TopicPartition};

use super::args::{GetWhat, OutputFormat};
use super::error::Error;
use super::output::emit;
use super::rows;

/// Print what was asked for, once.
pub async fn run(
    cluster: &Cluster,
    what: GetWhat,
    topic: Option<&str>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    match what {
        // Routed to `cli::groups` by `run` before it gets here.
        GetWhat::Groups => Err(Error::Usage(
            "get groups is handled by cli::groups".to_owned(),
        )),
        GetWhat::Brokers => {
            if topic.is_some() {
                return Err(Error::Usage("get brokers takes no topic".to_owned()));
            }
            let rows = rows::brokers(&cluster.snapshot());
            emit(out, format, &rows, &rows::BrokerRow::table())
        }
        GetWhat::Topics => {
            let snapshot = scoped(cluster, topic).await?;
            let rows = rows::topics(&snapshot, selected(&snapshot, topic));
            emit(out, format, &rows, &rows::TopicRow::table())
        }
        GetWhat::Partitions => partitions(cluster, topic, format, out).await,
    }
}

/// `get partitions [TOPIC]`: every partition with its watermarks; for a
/// named topic also its eligible leader replicas and, where it has tiered
/// storage, each partition's local log start, as columns (and JSON fields)
/// that appear only where there is something to show.
async fn partitions(
    cluster: &Cluster,
    topic: Option<&str>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let snapshot = scoped(cluster, topic).await?;
    let topics: Vec<&TopicInfo> = selected(&snapshot, topic).collect();
    let led: Vec<TopicPartition> = topics
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .filter(|p| p.leader.is_some())
                .map(|p| TopicPartition::new(t.name.clone(), p.partition))
        })
        .collect();
    let (marks, (elr, local)) =
        tokio::join!(cluster.watermarks(&led), extras(cluster, topic, &led));
    let marks = marks?;
    let mut rows: Vec<rows::PartitionRow> = topics
        .iter()
        .flat_map(|t| {
            let marks = &marks;
            t.partitions.iter().map(move |p| {
                let key = TopicPartition::new(t.name.clone(), p.partition);
                rows::partition(&t.name, p, marks.get(&key))
            })
        })
        .collect();
    let mut table: Vec<Column<rows::PartitionRow>> =
        rows::PartitionRow::table().into_iter().collect();
    if let Some(local) = local {
        for row in &mut rows {
            row.local_log_start_offset = Some(local.get(&row.partition).copied());
        }
        table.push(rows::PartitionRow::local_start_column());
    }
    // Shown only where there is something to show: a healthy topic
    // (every ELR empty) prints as it always did.
    if elr
        .values()
        .any(|e| !e.eligible.is_empty() || !e.last_known.is_empty())
    {
        for row in &mut rows {
            let found = elr.get(&row.partition).cloned().unwrap_or_default();
            row.eligible_leader_replicas = Some(found.eligible);
            row.last_known_elr = Some(found.last_known);
        }
        table.extend(rows::PartitionRow::elr_columns());
    }
    emit(out, format, &rows, &table)
}

/// A named topic's ELR (one paged request) and, if it is tiered, its local
/// log starts; nothing for all topics. Neither holds the answer back when
/// it fails: the ELR is then left out, and a tiered topic on a broker too
/// old for the local log start is said on stderr.
async fn extras(
    cluster: &Cluster,
    topic: Option<&str>,
    led: &[TopicPartition],
) -> (BTreeMap<i32, elr::Elr>, Option<BTreeMap<i32, i64>>) {
    let Some(name) = topic else {
        return (BTreeMap::new(), None);
    };
    let partitions: Vec<i32> = led.iter().map(|tp| tp.partition).collect();
    let (elr, local) = tokio::join!(
        elr::describe(cluster, name),
        tiered::local_log_starts_if_tiered(cluster, name, &partitions)
    );
    let elr = elr.unwrap_or_else(|error| {
        tracing::debug!(%error, "eligible leader replicas unavailable");
        BTreeMap::new()
    });
    let local = local.unwrap_or_else(|error| {
        eprintln!("kscope: {error}");
        None
    });
    (elr, local)
}

/// The snapshot to print from; for a named topic, freshly fetched, and an
/// error when it does not exist (the request never creates it).
async fn scoped(
    cluster: &Cluster,
    topic: Option<&str>,
) -> Result<std::sync::Arc<MetadataSnapshot>, Error> {
    let Some(name) = topic else {
        return Ok(cluster.snapshot());
    };
    let snapshot = cluster.refresh_topics(&[name]).await?;
    if snapshot.topic(name).is_none() {
        return Err(Error::UnknownTopic(name.to_owned()));
    }
    Ok(snapshot)
}

fn selected<'a>(
    snapshot: &'a MetadataSnapshot,
    topic: Option<&'a str>,
) -> impl Iterator<Item = &'a TopicInfo> {
    snapshot
        .topics()
        .iter()
        .map(AsRef::as_ref)
        .filter(move |t: &&TopicInfo| topic.is_none_or(|name| t.name == name))
}
