//! Disk usage for what is on screen (`DescribeLogDirs`): asked while the
//! Topics, Partitions or Brokers screen shows it, at most every
//! [`INTERVAL`]; one request per broker, each with its own deadline (a
//! broker that does not answer shows as unknown). Kept with its age; each
//! topic's bytes/s comes from the change between two answers, and the
//! visible rows (topics, or a topic's partitions) keep theirs over the
//! session for a sparkline.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::inspect::ClusterSizes;
use crate::meta::TopicPartition;

use super::action::Effect;
use super::screen::Screen;
use super::screens::feed::{Changes, Sizes as Seen};
use super::state::{AppState, Link};
use super::stores::sizes::SizeStore;
use super::throughput::Throughput;
use super::watermarks::RATES_KEPT;

/// How often sizes are re-read while shown.
pub const INTERVAL: Duration = Duration::from_secs(30);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// Whether `screen` shows sizes (Partitions: each replica's size and a
/// future replica's lag).
fn shows_sizes(screen: &Screen) -> bool {
    matches!(
        screen,
        crate::app::screens::Screen::Topics(_)
            | crate::app::screens::Screen::Partitions(_)
            | crate::app::screens::Screen::Brokers(_)
    )
}

/// Whether the group on screen reads from a topic limited by size
/// (`retention.bytes` set, as far as its configs were read): its LOSS IN
/// needs the partitions' sizes.
fn group_limited_by_size(state: &AppState) -> bool {
    let Some(group) = state.view().screen.offsets_group() else {
        return false;
    };
    let Some(detail) = state.screens.groups.detail(group) else {
        return false;
    };
    let topics = &state.screens.configs.topics;
    // The partitions come sorted by topic: each topic looked up once.
    let mut last: Option<&str> = None;
    detail.lag.partitions.iter().any(|p| {
        if last == Some(p.topic.as_ref()) {
            return false;
        }
        last = Some(p.topic.as_ref());
        topics
            .get(p.topic.as_ref())
            .and_then(|(summary, _)| summary.retention_bytes)
            .is_some_and(|limit| limit >= 0)
    })
}

/// Ask for sizes if the screen shows them (or a group's LOSS IN needs
/// them) and they are due.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected
        || !(shows_sizes(&state.view().screen) || group_limited_by_size(state))
    {
        return;
    }
    let now = state.now;
    let store = &mut state.cluster.sizes;
    let age = |at: Option<Instant>| at.map(|at| now.saturating_duration_since(at));
    if let Some((_, sent)) = store.in_flight {
        if now.saturating_duration_since(sent) < GIVE_UP {
            return;
        }
    } else if age(store.last_request).is_some_and(|a| a < INTERVAL) {
        return;
    }
    store.next_id += 1;
    let request = store.next_id;
    store.in_flight = Some((request, now));
    store.last_request = Some(now);
    effects.push(Effect::FetchSizes { request });
}

/// Take an answer; a stale one is dropped. What it changed, for the
/// screens that show sizes.
pub fn receive(state: &mut AppState, request: u64, sizes: Arc<ClusterSizes>) -> Option<Seen> {
    let now = state.now;
    let partitions_shown = state.view().screen.partitions_topic().is_some();
    let visible = &state.cluster.watermarks.last_asked;
    let store = &mut state.cluster.sizes;
    if store.in_flight.map(|(id, _)| id) != Some(request) {
        return None;
    }
    store.in_flight = None;
    store.answers += 1;
    if let (Some(before), Some(at)) = (&store.latest, store.at) {
        let secs = now.saturating_duration_since(at).as_secs_f64();
        store.bytes_per_sec = Arc::new(
            sizes
                .topics
                .iter()
                .map(|(name, size)| {
                    let old = before.topics.get(name).and_then(|s| s.all_replicas);
                    (name.clone(), rate(old, size.all_replicas, secs))
                })
                .collect(),
        );
    }
    let (topics, partitions, cleared) =
        record_visible(store, &sizes, visible, partitions_shown, now);
    let seen = Seen {
        latest: Arc::clone(&sizes),
        bytes_per_sec: Arc::clone(&store.bytes_per_sec),
        topic_bytes: Changes::of(&store.topic_bytes, &topics, cleared),
        partition_bytes: Changes::of(&store.partition_bytes, partitions, cleared),
    };
    let silent: Vec<String> = sizes
        .brokers
        .iter()
        .filter(|(_, disk)| disk.is_none())
        .map(|(id, _)| id.to_string())
        .collect();
    if !silent.is_empty() {
        state.notice = Some(format!(
            "disk usage: no answer from broker {}",
            silent.join(",")
        ));
    }
    store.latest = Some(sizes);
    store.at = Some(now);
    Some(seen)
}

/// Add the visible rows' sizes to their rates: the topics of the visible
/// partitions, and those partitions themselves when the Partitions screen
/// shows them. Scrolled through many rows, only what is on screen is kept.
/// The topics and partitions recorded, and whether the rates were cleared
/// first.
fn record_visible<'a>(
    store: &mut SizeStore,
    sizes: &ClusterSizes,
    visible: &'a [TopicPartition],
    partitions_shown: bool,
    now: Instant,
) -> (Vec<String>, &'a [TopicPartition], bool) {
    let cleared = store.partition_bytes.len() > RATES_KEPT || store.topic_bytes.len() > RATES_KEPT;
    if cleared {
        store.partition_bytes.clear();
        store.topic_bytes.clear();
    }
    let mut topics: Vec<String> = visible.iter().map(|tp| tp.topic.clone()).collect();
    topics.dedup();
    for topic in &topics {
        let size = sizes.topics.get(topic).and_then(|s| s.all_replicas);
        record(&mut store.topic_bytes, topic.clone(), size, now);
    }
    if !partitions_shown {
        return (topics, &[], cleared);
    }
    for tp in visible {
        let largest = sizes
            .replicas(&tp.topic, tp.partition)
            .iter()
            .filter(|r| !r.future)
            .map(|r| r.size)
            .max();
        record(&mut store.partition_bytes, tp.clone(), largest, now);
    }
    (topics, visible, cleared)
}

/// Add `size` to `key`'s rate; an unknown size forgets it (a rate needs
/// two known sizes in a row).
fn record<K: std::hash::Hash + Eq>(
    rates: &mut HashMap<K, Throughput>,
    key: K,
    size: Option<i64>,
    now: Instant,
) {
    match size {
        Some(size) => rates.entry(key).or_default().record(size, now),
        None => drop(rates.remove(&key)),
    }
}

/// Bytes per second from `before` to `after` over `secs`; `None` when
/// either is unknown, no time passed, or the size shrank.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)] // a non-negative byte rate far below 2^52
pub fn rate(before: Option<i64>, after: Option<i64>, secs: f64) -> Option<u64> {
    let grown = after?.checked_sub(before?)?;
    (grown >= 0 && secs > 0.0).then(|| (grown as f64 / secs).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_unknown_when_shrinking_or_unknown() {
        assert_eq!(rate(Some(100), Some(400), 3.0), Some(100));
        assert_eq!(rate(Some(400), Some(100), 3.0), None, "retention deleted");
        assert_eq!(rate(None, Some(100), 3.0), None);
        assert_eq!(rate(Some(1), Some(1), 0.0), None);
    }
}
