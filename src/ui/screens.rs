//! The table of each screen: only the visible window of rows is formatted.

use ratatui::layout::Constraint;
use ratatui::style::Style;

use crate::app::{AppState, Screen};
use std::time::SystemTime;

use crate::meta::{BrokerInfo, MetadataSnapshot, TopicPartition};

use super::rows;
use super::theme::Theme;

/// The cells and style of one row.
pub type Line = (Vec<String>, Style);

/// Column widths of `screen`.
pub fn widths(screen: &Screen) -> Vec<Constraint> {
    let l = Constraint::Length;
    match screen {
        Screen::Topics => vec![Constraint::Fill(1), l(6), l(3), l(10), l(8), l(11), l(12)],
        Screen::Partitions { .. } => vec![
            l(9),
            l(6),
            l(6),
            Constraint::Fill(1),
            Constraint::Fill(1),
            l(8),
            l(9),
            l(12),
            l(12),
        ],
        Screen::Brokers => vec![
            l(5),
            Constraint::Min(21),
            l(8),
            l(11),
            l(8),
            Constraint::Fill(1),
        ],
        Screen::Leaders => vec![l(8), Constraint::Fill(1), l(9), l(18), Constraint::Fill(2)],
        Screen::Groups { .. } | Screen::Group { .. } | Screen::Members { .. } => {
            super::group_screens::widths(screen)
        }
    }
}

/// The visible rows of the view on screen.
pub fn visible(state: &AppState, snap: &MetadataSnapshot, theme: &Theme, page: usize) -> Vec<Line> {
    let view = state.view();
    let window = view.rows.iter().skip(view.offset).take(page).copied();
    match &view.screen {
        Screen::Topics => window
            .filter_map(|i| snap.topics().get(i))
            .map(|t| {
                let numbers = snap.topic_stats(&t.name);
                let messages = state.watermarks.topic_totals.get(&t.name).copied();
                let bad = numbers.is_some_and(|s| s.offline > 0);
                let warn = numbers.is_some_and(|s| s.under_replicated > 0);
                let style = if bad {
                    theme.problem
                } else if warn {
                    theme.warning
                } else {
                    Style::new()
                };
                (rows::topic(&t.name, t.internal, numbers, messages), style)
            })
            .collect(),
        Screen::Partitions { topic } => {
            let Some(info) = snap.topic(topic) else {
                return Vec::new();
            };
            window
                .filter_map(|i| info.partitions.get(i))
                .map(|p| {
                    let marks = state
                        .watermarks
                        .partitions
                        .get(&TopicPartition::new(topic.as_str(), p.partition))
                        .copied();
                    let style = if p.is_offline() {
                        theme.problem
                    } else if state.recently_moved(topic, p.partition) {
                        theme.moved
                    } else if p.is_under_replicated() || !p.is_preferred_leader() {
                        theme.warning
                    } else {
                        Style::new()
                    };
                    (rows::partition(p, marks), style)
                })
                .collect()
        }
        Screen::Brokers => window
            .filter_map(|i| state.broker_row(snap, i))
            .map(|(b, down_since)| broker_line(state, snap, theme, b, down_since))
            .collect(),
        Screen::Leaders => window
            .filter_map(|i| state.movements.get(i))
            .map(|e| {
                let row = vec![
                    rows::clock(e.time),
                    e.topic.clone().unwrap_or_else(|| "-".to_owned()),
                    e.partition
                        .map_or_else(|| "-".to_owned(), |p| p.to_string()),
                    e.kind.name().to_owned(),
                    rows::movement_detail(&e.kind),
                ];
                let style = match e.kind {
                    crate::meta::MovementKind::PartitionOffline { .. }
                    | crate::meta::MovementKind::BrokerLeft { .. } => theme.problem,
                    crate::meta::MovementKind::LeaderChanged { .. } => theme.moved,
                    _ => Style::new(),
                };
                (row, style)
            })
            .collect(),
        Screen::Groups { .. } | Screen::Group { .. } | Screen::Members { .. } => {
            super::group_screens::visible(state, theme, page)
        }
    }
}

/// A Brokers row: a live broker, or a down one (`down_since`) as last seen.
fn broker_line(
    state: &AppState,
    snap: &MetadataSnapshot,
    theme: &Theme,
    b: &BrokerInfo,
    down_since: Option<SystemTime>,
) -> Line {
    let role = match down_since {
        Some(since) => {
            let down_for = state.wall.duration_since(since).unwrap_or_default();
            format!("DOWN {}", rows::age(down_for))
        }
        None if snap.controller_id() == Some(b.node_id) => "controller".to_owned(),
        None if snap.quorum_voters().contains(&b.node_id) => "voter".to_owned(),
        None => "broker".to_owned(),
    };
    let history: Vec<u64> = state
        .leader_history
        .get(&b.node_id)
        .map(|h| h.iter().copied().collect())
        .unwrap_or_default();
    let leaders = down_since.is_none().then(|| snap.leader_count(b.node_id));
    let row = rows::broker(
        b.node_id,
        &b.address(),
        b.rack.as_deref(),
        &role,
        leaders,
        &history,
    );
    let style = if down_since.is_some() {
        theme.problem
    } else {
        Style::new()
    };
    (row, style)
}
