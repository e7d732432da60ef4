//! The header above every screen: the context and cluster, the brokers
//! (and which are not answering), the liveness view's findings and the
//! recent events by severity.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::AppState;
use crate::columns::format;
use crate::meta::MetadataSnapshot;
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

use super::replay;

/// The two header lines: the context, the cluster and its brokers, the
/// liveness view and the recent events' counts.
pub(super) fn draw_header(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    snap: &MetadataSnapshot,
    theme: &Theme,
) {
    let down: Vec<i32> = state.screens.brokers.down.keys().copied().collect();
    let controller = snap
        .controller_id()
        .map_or_else(|| "-".to_owned(), |c| c.to_string());
    let ro = if state.read_only { " [read-only]" } else { "" };
    let mut first = vec![
        Span::styled(
            escaped(format!("kscope  context: {}{ro}", state.context)),
            theme.header,
        ),
        Span::raw(escaped(format!(
            "   cluster: {}",
            snap.cluster_id().unwrap_or("-")
        ))),
    ];
    first.extend(replay::header(state, theme));
    let first = Line::from(first);
    if !state.has_cluster() {
        let second = Line::raw("not connected");
        frame.render_widget(Paragraph::new(vec![first, second]), area);
        return;
    }
    // Problems right after the broker count, so a narrow terminal cuts the
    // counts of topics and partitions rather than which broker is down.
    let mut second = vec![Span::raw(format!(
        "brokers: {}",
        broker_counts(snap, state.health.as_deref())
    ))];
    if !down.is_empty() {
        let ids: Vec<String> = down.iter().map(ToString::to_string).collect();
        second.push(Span::styled(
            format!("   DOWN: broker {}", ids.join(",")),
            theme.problem,
        ));
    }
    if let Some(health) = state.health.as_deref() {
        second.extend(health_spans(health, theme));
    }
    // Critical or warning events beside the problems; only info ones after
    // the counts, where a narrow terminal cuts them first.
    let [critical, warn, _] = state.screens.events.recent;
    let recent = recent_events(state.screens.events.recent);
    if critical + warn > 0
        && let Some(recent) = &recent
    {
        let style = if critical > 0 {
            theme.problem
        } else {
            theme.moved
        };
        second.push(Span::styled(recent.clone(), style));
    }
    second.push(Span::raw(format!(
        "   controller: {controller}   topics: {}   partitions: {}",
        snap.topics().len(),
        state.partition_total
    )));
    if critical + warn == 0
        && let Some(recent) = recent
    {
        second.push(Span::raw(recent));
    }
    frame.render_widget(Paragraph::new(vec![first, Line::from(second)]), area);
}

/// `   events 5m: 2 critical · 1 warn · 7 info` (the kinds with none left
/// out); `None` when nothing happened in the last five minutes.
fn recent_events([critical, warn, info]: [usize; 3]) -> Option<String> {
    let parts: Vec<String> = [(critical, "critical"), (warn, "warn"), (info, "info")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, name)| format!("{n} {name}"))
        .collect();
    (!parts.is_empty()).then(|| format!("   events 5m: {} (:events)", parts.join(" · ")))
}

/// The cluster's claim beside kscope's own view: how many brokers the
/// metadata registers, and how many of those answered kscope's last liveness
/// check (left out until the first check).
fn broker_counts(snap: &MetadataSnapshot, health: Option<&crate::meta::Health>) -> String {
    let registered = snap.brokers();
    match health {
        Some(health) => {
            let answering = registered
                .iter()
                .filter(|b| !health.not_answering.contains_key(&b.node_id))
                .count();
            format!("{} registered, {answering} answering", registered.len())
        }
        None => format!("{} registered", registered.len()),
    }
}

/// kscope's own reachability, apart from the cluster's registration: brokers
/// that do not answer, and metadata that stopped changing (since when, why).
fn health_spans(health: &crate::meta::Health, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    if !health.not_answering.is_empty() {
        let ids: Vec<String> = health
            .not_answering
            .keys()
            .map(ToString::to_string)
            .collect();
        spans.push(Span::styled(
            format!("   NOT ANSWERING: broker {}", ids.join(",")),
            theme.problem,
        ));
    }
    if let Some(frozen) = &health.frozen {
        spans.push(Span::styled(
            format!(
                "   METADATA FROZEN since {}: {}",
                format::clock(frozen.since),
                frozen.reason
            ),
            theme.problem,
        ));
    }
    spans
}
