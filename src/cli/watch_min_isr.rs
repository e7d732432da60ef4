//! The min-ISR half of `kscope watch events`: `under_min_isr` and
//! `min_isr_restored` ([`MinIsrWatch`]) from each new metadata snapshot and
//! the topics' `min.insync.replicas`, which the metadata does not carry.
//!
//! The configs are read with `DescribeConfigs` ([`CHUNK`] topics a
//! request, one request at a time) every [`CONFIGS_EVERY`], or four times
//! as long as the last read took, whichever is longer; a topic created
//! between two reads is judged from the next one (its first look is its
//! baseline). Each new snapshot costs one pass over the partitions of the
//! topics whose value is known.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use regex::Regex;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::inspect::{ConfigResource, TopicSummary, configs};
use crate::meta::min_isr::MinIsrWatch;
use crate::meta::{Cluster, MetadataSnapshot};

use super::watch_groups::{News, pause};

/// Between reads of the topics' configs, at least.
const CONFIGS_EVERY: Duration = Duration::from_secs(30);
/// How often the snapshot is looked at for a new one.
const LOOK_EVERY: Duration = Duration::from_millis(500);
/// Topics per `DescribeConfigs` request.
const CHUNK: usize = 1000;

/// `min.insync.replicas` of every topic of `snapshot` (those `only`
/// matches, when given) that answered.
async fn min_isr(
    cluster: &Cluster,
    snapshot: &MetadataSnapshot,
    only: Option<&Regex>,
) -> HashMap<String, usize> {
    let names: Vec<ConfigResource> = snapshot
        .topics()
        .iter()
        .filter(|t| only.is_none_or(|re| re.is_match(&t.name)))
        .map(|t| ConfigResource::Topic(t.name.clone()))
        .collect();
    let mut out = HashMap::with_capacity(names.len());
    for chunk in names.chunks(CHUNK) {
        match configs::describe(cluster, chunk).await {
            Ok(described) => {
                for (resource, entries) in described {
                    if let (ConfigResource::Topic(topic), Ok(entries)) = (resource, entries)
                        && let Some(min) = TopicSummary::of(&entries).min_isr
                    {
                        out.insert(topic, min);
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "watch events: topic configs unread"),
        }
    }
    out
}

/// Look for min-ISR changes until the receiver of `tx` goes; only in the
/// topics `only` matches, when given (`record --topics`).
pub fn spawn(cluster: &Cluster, only: Option<Regex>, tx: mpsc::Sender<News>) {
    let cluster = cluster.clone();
    tokio::spawn(async move {
        let mut watch = MinIsrWatch::new();
        let mut known = HashMap::new();
        let mut next_read = Instant::now();
        let mut seen: Option<Arc<MetadataSnapshot>> = None;
        loop {
            let mut fresh = false;
            if Instant::now() >= next_read {
                let started = Instant::now();
                let first = seen.is_none();
                known = min_isr(&cluster, &cluster.snapshot(), only.as_ref()).await;
                next_read = Instant::now() + pause(CONFIGS_EVERY, started.elapsed());
                fresh = true;
                let note = format!(
                    "watching min.insync.replicas of {} topic(s), read every {}s or more",
                    known.len(),
                    CONFIGS_EVERY.as_secs()
                );
                if first && tx.send(News::Note(note)).await.is_err() {
                    return;
                }
            }
            let snapshot = cluster.snapshot();
            if fresh || seen.as_ref().is_none_or(|s| !Arc::ptr_eq(s, &snapshot)) {
                let events = watch.observe(&snapshot, |t| known.get(t).copied(), SystemTime::now());
                seen = Some(snapshot);
                if !events.is_empty() && tx.send(News::Events(events)).await.is_err() {
                    return;
                }
            }
            if tx.is_closed() {
                return;
            }
            tokio::time::sleep(LOOK_EVERY).await;
        }
    });
}
