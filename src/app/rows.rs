//! Building a view's row list (filter + sort) in `update`, cached by what it
//! depends on, so that `view` only ever indexes into it.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::meta::{MetadataSnapshot, MovementEvent, TopicPartition};

use super::group_rows;
use super::screen::{RowsKey, Screen, View};
use super::state::AppState;

/// Rebuild the visible view's rows if anything they depend on changed, and
/// keep the selection in range.
pub fn refresh(state: &mut AppState, snap: &MetadataSnapshot) {
    let key = RowsKey {
        generation: state.generation,
        movements: state.movements_seen,
        watermarks: state.watermarks.answers,
        filter: state
            .view()
            .filter
            .as_ref()
            .map(|f| f.text().to_owned())
            .unwrap_or_default(),
        sort: state.view().sort,
        internal: state.show_internal,
        groups: state.groups.answers,
        inactive: state.groups.hide_inactive,
    };
    if state.view().built_for.as_ref() != Some(&key) {
        let view = state.view();
        let kept = view
            .rows
            .get(view.selected)
            .and_then(|&i| group_rows::identity(&state.groups, &view.screen, i));
        let rows = build(state, snap);
        // A group screen's rows are rebuilt from each answer and may
        // reorder: the selection stays on the group or partition it was on.
        let screen = state.view().screen.clone();
        let found = kept.and_then(|kept| {
            rows.iter().position(|&i| {
                group_rows::identity(&state.groups, &screen, i).as_ref() == Some(&kept)
            })
        });
        let kinds = if matches!(screen, Screen::Leaders) {
            let mut kinds = BTreeMap::new();
            for event in rows.iter().filter_map(|&i| state.movements.get(i)) {
                *kinds.entry(event.kind.name()).or_insert(0) += 1;
            }
            kinds
        } else {
            BTreeMap::new()
        };
        let view = state.view_mut();
        view.rows = rows;
        view.built_for = Some(key);
        view.kinds = kinds;
        if let Some(position) = found {
            view.selected = position;
        }
    }
    let page = state.page();
    clamp(state.view_mut(), page);
}

/// Keep `selected` inside the rows and the window around it.
pub fn clamp(view: &mut View, page: usize) {
    let len = view.rows.len();
    view.selected = view.selected.min(len.saturating_sub(1));
    if view.selected < view.offset {
        view.offset = view.selected;
    }
    if view.selected >= view.offset + page {
        view.offset = view.selected + 1 - page;
    }
    view.offset = view.offset.min(len.saturating_sub(page));
}

fn build(state: &mut AppState, snap: &MetadataSnapshot) -> Vec<usize> {
    let view = state.view();
    let filter = view.filter.clone();
    let sort = view.sort;
    let screen = view.screen.clone();
    // Brokers are matched on "ID HOST:PORT", live and down alike.
    let broker_keys: Vec<String> = if matches!(screen, Screen::Brokers) {
        (0..state.broker_rows(snap))
            .filter_map(|i| state.broker_row(snap, i))
            .map(|(b, _)| format!("{} {}", b.node_id, b.address()))
            .collect()
    } else {
        Vec::new()
    };
    let scratch = &mut state.scratch;
    let mut keep = |text: &str| filter.as_ref().is_none_or(|f| f.matches(text, scratch));
    let mut rows: Vec<usize> = match &screen {
        Screen::Topics => snap
            .topics()
            .iter()
            .enumerate()
            .filter(|(_, t)| state.show_internal || !t.internal)
            .filter(|(_, t)| keep(&t.name))
            .map(|(i, _)| i)
            .collect(),
        Screen::Partitions { topic } => snap.topic(topic).map_or_else(Vec::new, |t| {
            t.partitions
                .iter()
                .enumerate()
                .filter(|(_, p)| keep(&p.partition.to_string()))
                .map(|(i, _)| i)
                .collect()
        }),
        Screen::Brokers => broker_keys
            .iter()
            .enumerate()
            .filter(|(_, text)| keep(text))
            .map(|(i, _)| i)
            .collect(),
        Screen::Leaders => state
            .movements
            .iter()
            .enumerate()
            .filter(|(_, e)| keep(&movement_key(e)))
            .map(|(i, _)| i)
            .collect(),
        Screen::Groups { .. } | Screen::Group { .. } | Screen::Members { .. } => {
            let mut rows = group_rows::build(&state.groups, &screen, sort.column, &mut keep);
            if sort.descending {
                rows.reverse();
            }
            return rows;
        }
    };
    sort_rows(state, snap, &screen, sort.column, &mut rows);
    if sort.descending {
        rows.reverse();
    }
    rows
}

/// The text a movement row is filtered by: topic, partition, kind, and every
/// broker involved as `b<ID>` (so `/~\bb2\b` finds broker 2's events).
pub fn movement_key(event: &MovementEvent) -> String {
    use crate::meta::MovementKind as K;
    let brokers: Vec<i32> = match &event.kind {
        K::LeaderChanged { from, to, .. } => vec![*from, *to],
        K::PartitionOffline { from, .. } => vec![*from],
        K::PartitionOnline { to, .. } => vec![*to],
        K::IsrShrank { removed, .. } => removed.clone(),
        K::IsrExpanded { added, .. } => added.clone(),
        K::ReplicasChanged { from, to } => from.iter().chain(to).copied().collect(),
        K::BrokerJoined { broker, .. } | K::BrokerLeft { broker } => vec![*broker],
        K::ControllerChanged { from, to } => from.iter().chain(to).copied().collect(),
        K::TopicCreated { .. } | K::TopicDeleted => Vec::new(),
    };
    let mut key = format!(
        "{} {} {}",
        event.topic.as_deref().unwrap_or("-"),
        event.partition.map_or_else(String::new, |p| p.to_string()),
        event.kind.name()
    );
    for broker in brokers {
        let _ = write!(key, " b{broker}");
    }
    key
}

fn len(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

// One match arm per screen: a table of sort keys, clearer together.
#[allow(clippy::too_many_lines)]
fn sort_rows(
    state: &AppState,
    snap: &MetadataSnapshot,
    screen: &Screen,
    column: usize,
    rows: &mut [usize],
) {
    match screen {
        Screen::Topics => {
            let topics = snap.topics();
            let key = |i: usize| -> (i64, f64) {
                let Some(t) = topics.get(i) else {
                    return (0, 0.0);
                };
                let topic_stats = snap.topic_stats(&t.name);
                let count = |f: fn(&crate::meta::TopicStats) -> usize| {
                    topic_stats.map_or(0, |s| i64::try_from(f(s)).unwrap_or(i64::MAX))
                };
                match column {
                    1 => (count(|s| s.partitions), 0.0),
                    2 => (count(|s| s.replication_factor), 0.0),
                    3 => (count(|s| s.under_replicated), 0.0),
                    4 => (count(|s| s.offline), 0.0),
                    5 => (
                        0,
                        topic_stats.map_or(0.0, crate::meta::TopicStats::preferred_leader_pct),
                    ),
                    6 => (
                        state
                            .watermarks
                            .topic_totals
                            .get(&t.name)
                            .copied()
                            .unwrap_or(-1),
                        0.0,
                    ),
                    _ => (0, 0.0),
                }
            };
            if column != 0 {
                let keys: Vec<(i64, f64)> = rows.iter().map(|&i| key(i)).collect();
                let mut paired: Vec<(usize, (i64, f64))> = rows.iter().copied().zip(keys).collect();
                paired.sort_by(|a, b| {
                    a.1.0
                        .cmp(&b.1.0)
                        .then(a.1.1.partial_cmp(&b.1.1).unwrap_or(Ordering::Equal))
                        .then(a.0.cmp(&b.0))
                });
                for (slot, (i, _)) in rows.iter_mut().zip(paired) {
                    *slot = i;
                }
            }
        }
        Screen::Partitions { topic } => {
            let Some(t) = snap.topic(topic) else { return };
            let wm = |i: usize, high: bool| {
                t.partitions.get(i).and_then(|p| {
                    state
                        .watermarks
                        .partitions
                        .get(&TopicPartition::new(topic.as_str(), p.partition))
                        .map(|w| if high { w.high } else { w.low })
                })
            };
            rows.sort_by_key(|&i| {
                let p = t.partitions.get(i);
                let value = match column {
                    1 => p.and_then(|p| p.leader).map(i64::from),
                    2 => p.map(|p| i64::from(p.leader_epoch)),
                    3 => p.map(|p| len(p.replicas.len())),
                    4 => p.map(|p| len(p.isr.len())),
                    5 => p.map(|p| len(p.offline_replicas.len())),
                    6 => p.map(|p| i64::from(p.is_preferred_leader())),
                    7 => wm(i, false),
                    8 => wm(i, true),
                    _ => None,
                };
                (value, i)
            });
        }
        Screen::Brokers => {
            rows.sort_by_key(|&i| {
                let b = state.broker_row(snap, i).map(|(b, _)| b);
                let value = match column {
                    1 => b.map(crate::meta::BrokerInfo::address),
                    2 => b.and_then(|b| b.rack.clone()),
                    3 => b.map(|b| (Some(b.node_id) != snap.controller_id()).to_string()),
                    4 => b.map(|b| format!("{:012}", snap.leader_count(b.node_id))),
                    _ => None,
                };
                (value, i)
            });
        }
        Screen::Leaders => {
            let events = &state.movements;
            rows.sort_by_key(|&i| {
                let e = events.get(i);
                let value = match column {
                    1 => e.and_then(|e| e.topic.clone()),
                    2 => e.and_then(|e| e.partition).map(|p| format!("{p:012}")),
                    3 => e.map(|e| e.kind.name().to_owned()),
                    _ => None,
                };
                (value, i)
            });
        }
        // Sorted by `group_rows::build`.
        Screen::Groups { .. } | Screen::Group { .. } | Screen::Members { .. } => {}
    }
}
