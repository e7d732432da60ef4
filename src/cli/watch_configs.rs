//! The config half of `kscope watch events` (and of `kscope record`): one
//! paced sweep of the configs ([`config_sweep`]: every topic's, 1000 a
//! request, and each broker's dynamic ones, every 30 s or four times as
//! long as the last sweep took) feeds two derivations:
//!
//! - `topic_config_changed` / `broker_config_changed` ([`ConfigWatch`]):
//!   what changed in the configs set on a topic or a broker between two
//!   sweeps, secrets masked;
//! - `under_min_isr` / `min_isr_restored` ([`MinIsrWatch`]): each new
//!   metadata snapshot's ISRs against the topics' `min.insync.replicas`,
//!   which the metadata does not carry. Each new snapshot costs one pass
//!   over the partitions of the topics whose value is known.
//!
//! A topic created between two sweeps is judged from the next one (its
//! first read is its baseline).

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use regex::Regex;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::inspect::{ConfigWatch, Sweep, config_sweep};
use crate::meta::min_isr::MinIsrWatch;
use crate::meta::{Cluster, MetadataSnapshot};

use super::watch_groups::News;

/// How often the snapshot is looked at for a new one.
const LOOK_EVERY: Duration = Duration::from_millis(500);

/// The stderr line once the first sweep (the baseline) is done.
fn note(sweep: &Sweep) -> String {
    format!(
        "watching configs of {} topic(s) and {} broker(s) for config changes and min.insync.replicas, read every {}s or more",
        sweep.topics_read(),
        sweep.brokers_read(),
        config_sweep::SWEEP_EVERY.as_secs()
    )
}

/// Sweep the configs and look for changes until the receiver of `tx`
/// goes; only the topics `only` matches, when given (`record --topics`).
pub fn spawn(cluster: &Cluster, only: Option<Regex>, tx: mpsc::Sender<News>) {
    let cluster = cluster.clone();
    tokio::spawn(async move {
        let mut min_isr = MinIsrWatch::new();
        let mut changes = ConfigWatch::new();
        let mut sweep = Sweep::default();
        let mut next_sweep = Instant::now();
        let mut seen: Option<Arc<MetadataSnapshot>> = None;
        loop {
            let mut fresh = false;
            if Instant::now() >= next_sweep {
                let started = Instant::now();
                sweep = config_sweep::read(&cluster, only.as_ref()).await;
                next_sweep = Instant::now() + config_sweep::pause(started.elapsed());
                fresh = true;
                let events = changes.observe(&sweep, SystemTime::now());
                let news = match seen {
                    None => Some(News::Note(note(&sweep))),
                    Some(_) => (!events.is_empty()).then_some(News::Events(events)),
                };
                if let Some(news) = news
                    && tx.send(news).await.is_err()
                {
                    return;
                }
            }
            let snapshot = cluster.snapshot();
            if fresh || seen.as_ref().is_none_or(|s| !Arc::ptr_eq(s, &snapshot)) {
                let events = min_isr.observe(&snapshot, |t| sweep.min_isr(t), SystemTime::now());
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
