//! `kscope get brokers|topics|partitions [TOPIC]`.

use std::io::Write;

use std::collections::BTreeMap;

use crate::inspect::elr;
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
        GetWhat::Partitions => {
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
            let marks = cluster.watermarks(&led).await?;
            // ELR for a named topic only: one paged request per topic.
            let elr = match topic {
                Some(name) => elr::describe(cluster, name).await.unwrap_or_else(|error| {
                    tracing::debug!(%error, "eligible leader replicas unavailable");
                    BTreeMap::new()
                }),
                None => BTreeMap::new(),
            };
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
            // Shown only where there is something to show: a healthy topic
            // (every ELR empty) prints as it always did.
            if elr
                .values()
                .all(|e| e.eligible.is_empty() && e.last_known.is_empty())
            {
                return emit(out, format, &rows, &rows::PartitionRow::table());
            }
            for row in &mut rows {
                let found = elr.get(&row.partition).cloned().unwrap_or_default();
                row.eligible_leader_replicas = Some(found.eligible);
                row.last_known_elr = Some(found.last_known);
            }
            emit(out, format, &rows, &rows::PartitionRow::table_with_elr())
        }
    }
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
