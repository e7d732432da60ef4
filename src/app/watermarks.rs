//! Watermarks for what is on screen: when to ask, and what an answer changes.

use std::time::Duration;

use crate::meta::{MetadataSnapshot, TopicPartition, Watermarks};

use super::action::Effect;
use super::failure::Failure;
use super::screens::feed::{Changes, Marks};
use super::state::{AppState, Link};

/// How often the watermarks of the visible rows are re-read while they
/// change.
pub const INTERVAL: Duration = Duration::from_secs(3);
/// Answers in a row without a change that stretch the interval, one
/// [`INTERVAL`] each: at most 5 × 3 s = 15 s while nothing is written.
const QUIET_STEPS: u32 = 4;
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);
/// Partitions whose rates are kept before all but the visible are dropped.
pub(super) const RATES_KEPT: usize = 20_000;
/// At most this many partitions per request.
const MAX_PARTITIONS: usize = 5_000;

/// The partitions whose watermarks the visible rows show.
pub fn wanted(state: &AppState) -> Vec<TopicPartition> {
    let view = state.view();
    let page = state.page();
    let visible = view.rows.iter().skip(view.offset).take(page);
    let mut out = Vec::new();
    match &view.screen {
        super::screens::Screen::Topics(_) => {
            for &i in visible {
                let Some(topic) = state.screens.topics.topic(i) else {
                    continue;
                };
                if out.len() + topic.partitions.len() > MAX_PARTITIONS {
                    break;
                }
                out.extend(
                    topic
                        .partitions
                        .iter()
                        .map(|p| TopicPartition::new(topic.name.as_str(), p.partition)),
                );
            }
        }
        super::screens::Screen::Partitions(shown) => {
            let topic = shown.topic.as_str();
            let Some(info) = state.screens.partitions.snap.topic(topic) else {
                return out;
            };
            for &i in visible {
                if let Some(p) = info.partitions.get(i) {
                    out.push(TopicPartition::new(topic, p.partition));
                }
            }
        }
        _ => {}
    }
    out
}

/// The interval after `quiet` answers in a row that changed nothing.
fn interval(quiet: u32) -> Duration {
    INTERVAL * (1 + quiet.min(QUIET_STEPS))
}

/// A fingerprint of what decides [`wanted`]: the screen, the snapshot and
/// the visible rows.
fn window(state: &AppState) -> u64 {
    use std::hash::{Hash, Hasher};
    let view = state.view();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::mem::discriminant(&view.screen).hash(&mut hasher);
    if let Some(topic) = view.screen.partitions_topic() {
        topic.hash(&mut hasher);
    }
    state.generation.hash(&mut hasher);
    view.rows
        .iter()
        .skip(view.offset)
        .take(state.page())
        .for_each(|i| i.hash(&mut hasher));
    hasher.finish()
}

/// Ask for watermarks if the visible set changed or the last answer is old.
/// An unchanged window that is not due costs a fingerprint, not a list.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    let now = state.now;
    let store = &state.cluster.watermarks;
    let age = store
        .last_request
        .map(|at| now.saturating_duration_since(at));
    // A new window supersedes the request in flight (its answer is dropped);
    // the same window waits for its answer, or gives up on it after a while.
    let waiting = store.in_flight.is_some() && age.is_some_and(|a| a < GIVE_UP);
    let timely = !waiting && age.is_none_or(|a| a >= interval(store.quiet));
    let window = window(state);
    if window == store.last_window && !timely {
        return;
    }
    let partitions = wanted(state);
    state.cluster.watermarks.last_window = window;
    if partitions.is_empty() {
        return;
    }
    let moved = partitions != state.cluster.watermarks.last_asked;
    if !moved && !timely {
        return;
    }
    let store = &mut state.cluster.watermarks;
    if moved {
        store.quiet = 0;
    }
    store.next_id += 1;
    store.in_flight = Some(store.next_id);
    store.last_request = Some(now);
    store.last_asked.clone_from(&partitions);
    effects.push(Effect::FetchWatermarks {
        request: store.next_id,
        partitions,
    });
}

/// Take an answer; a stale one (not the request in flight) is dropped.
/// What it changed, for the screens that show watermarks. A failure is
/// said in the status line; a transient one is asked again at the pace
/// before it, a final one (an ACL, an API the brokers lack) at the slowest
/// pace only, as the same window would get the same answer (a window that
/// moves is asked at once, as always).
pub fn receive(
    state: &mut AppState,
    snap: &MetadataSnapshot,
    request: u64,
    result: Result<Vec<(TopicPartition, Watermarks)>, Failure>,
) -> Option<Marks> {
    if state.cluster.watermarks.in_flight != Some(request) {
        return None;
    }
    let store = &mut state.cluster.watermarks;
    store.in_flight = None;
    store.answers += 1;
    let answer = match result {
        Ok(answer) => answer,
        Err(error) => {
            if !error.is_transient() {
                store.quiet = QUIET_STEPS;
            }
            state.notice = Some(format!("watermarks: {error}"));
            return None;
        }
    };
    let mut topics: Vec<String> = answer.iter().map(|(tp, _)| tp.topic.clone()).collect();
    topics.dedup();
    let now = state.now;
    let cleared = store.partition_rates.len() > RATES_KEPT;
    if cleared {
        // Scrolled through many partitions: keep only what is on screen.
        store.partition_rates.clear();
        store.topic_rates.clear();
    }
    let answered: Vec<TopicPartition> = answer.iter().map(|(tp, _)| tp.clone()).collect();
    let mut changed = false;
    for (tp, marks) in answer {
        // A key is cloned only for a partition not seen before.
        match store.partition_rates.get_mut(&tp) {
            Some(rate) => rate.record(marks.high, now),
            None => store
                .partition_rates
                .entry(tp.clone())
                .or_default()
                .record(marks.high, now),
        }
        if let Some(held) = store.partitions.get_mut(&tp) {
            changed |= *held != marks;
            *held = marks;
        } else {
            changed = true;
            store.partitions.insert(tp, marks);
        }
    }
    store.quiet = if changed {
        0
    } else {
        store.quiet.saturating_add(1)
    };
    let mut counted = Vec::with_capacity(topics.len());
    for name in topics {
        let Some(topic) = snap.topic(&name) else {
            continue;
        };
        counted.push(name.clone());
        let total: Option<i64> = topic
            .partitions
            .iter()
            .map(|p| {
                store
                    .partitions
                    .get(&TopicPartition::new(name.as_str(), p.partition))
                    .map(|w| (w.high - w.low).max(0))
            })
            .sum();
        let highs: Option<i64> = topic
            .partitions
            .iter()
            .map(|p| {
                store
                    .partitions
                    .get(&TopicPartition::new(name.as_str(), p.partition))
                    .map(|w| w.high)
            })
            .sum();
        if let Some(highs) = highs {
            store
                .topic_rates
                .entry(name.clone())
                .or_default()
                .record(highs, now);
        }
        match total {
            Some(total) => store.topic_totals.insert(name, total),
            None => store.topic_totals.remove(&name),
        };
    }
    Some(Marks {
        topic_totals: Changes::of(&store.topic_totals, &counted, false),
        topic_rates: Changes::of(&store.topic_rates, &counted, cleared),
        partitions: Changes::of(&store.partitions, &answered, false),
        partition_rates: Changes::of(&store.partition_rates, &answered, cleared),
    })
}
