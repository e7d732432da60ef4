//! The consumer-group screens: the visible rows of the groups list, a
//! group's offsets and its members, and the panel above a group's tables
//! (summary, rates, catch-up estimate and the lag chart over the session).

use std::fmt::Write as _;
use std::time::{Duration, UNIX_EPOCH};

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Sparkline};

use crate::app::groups::DetailView;
use crate::app::{AppState, Screen};
use crate::groups::{GroupDetail, GroupState, Lag, Trend};

use super::rows::{self, groups as cells};
use super::screens::Line as Row;
use super::theme::Theme;

/// Column widths of a group screen.
pub fn widths(screen: &Screen) -> Vec<Constraint> {
    let l = Constraint::Length;
    let fill = Constraint::Fill;
    match screen {
        Screen::Groups { .. } => vec![fill(3), l(8), l(11), l(7), fill(1), l(9), l(14), l(5)],
        Screen::Group { .. } => vec![fill(2), l(9), l(10), l(10), l(9), l(6), fill(1), l(12)],
        _ => vec![fill(2), l(10), fill(1), l(15), l(6), fill(2), fill(2)],
    }
}

/// The visible rows of a group screen.
pub fn visible(state: &AppState, theme: &Theme, page: usize) -> Vec<Row> {
    let view = state.view();
    let window = view.rows.iter().skip(view.offset).take(page).copied();
    let store = &state.groups;
    match &view.screen {
        Screen::Groups { .. } => {
            let Some(overview) = &store.overview else {
                return Vec::new();
            };
            window
                .filter_map(|i| overview.groups.get(i))
                .map(|g| {
                    let history = store.histories.get(&g.listing.group);
                    let style = if g.error.is_some() || g.state == GroupState::Dead {
                        theme.problem
                    } else if rebalancing(&g.state)
                        || history.is_some_and(|h| h.trend() == Trend::Growing)
                    {
                        theme.warning
                    } else if g.state.is_inactive() {
                        theme.dim
                    } else {
                        Style::new()
                    };
                    (cells::group(g, history), style)
                })
                .collect()
        }
        Screen::Group { group } => {
            let Some((view_of, detail)) = held(state, group) else {
                return Vec::new();
            };
            let now_ms = millis(state);
            window
                .filter_map(|i| detail.lag.partitions.get(i))
                .map(|p| {
                    let age = detail
                        .oldest_unconsumed_age_ms(&p.topic, p.partition, now_ms)
                        .map(|ms| Duration::from_millis(u64::try_from(ms).unwrap_or(0)));
                    let owner = view_of
                        .owners
                        .get(&(p.topic.clone(), p.partition))
                        .and_then(|&m| detail.description.members.get(m))
                        .map(|m| m.client_id.as_str());
                    let history = view_of.partitions.get(&p.topic, p.partition);
                    let style = match p.lag() {
                        Lag::UnknownEnd | Lag::PastEnd(_) => theme.problem,
                        Lag::NoCommit => theme.dim,
                        Lag::Records(_) if history.is_some_and(|h| h.trend() == Trend::Growing) => {
                            theme.warning
                        }
                        Lag::Records(_) => Style::new(),
                    };
                    (cells::offset(p, age, owner, history), style)
                })
                .collect()
        }
        Screen::Members { group } => {
            let Some((_, detail)) = held(state, group) else {
                return Vec::new();
            };
            window
                .filter_map(|i| detail.description.members.get(i))
                .map(|m| {
                    let style = if m.is_reconciling() {
                        theme.warning
                    } else {
                        Style::new()
                    };
                    (cells::member(m), style)
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

fn held<'a>(state: &'a AppState, group: &str) -> Option<(&'a DetailView, &'a GroupDetail)> {
    let view = state.groups.detail_of(group)?;
    Some((view, view.detail.as_deref()?))
}

fn millis(state: &AppState) -> i64 {
    state
        .wall
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn rebalancing(state: &GroupState) -> bool {
    matches!(
        state,
        GroupState::PreparingRebalance
            | GroupState::CompletingRebalance
            | GroupState::Assigning
            | GroupState::Reconciling
    )
}

/// What the title of the groups list adds: the data's age, or why there is none.
pub fn list_status(state: &AppState) -> String {
    let store = &state.groups;
    let mut out = match store.overview_at {
        Some(at) => format!(
            " · updated {} ago",
            rows::age(state.now.saturating_duration_since(at))
        ),
        None if store.overview_error.is_none() => " · loading consumer groups…".to_owned(),
        None => String::new(),
    };
    if let Some(error) = &store.overview_error {
        let _ = write!(out, " · failed: {error}");
    }
    if store.hide_inactive {
        out.push_str(" · Empty/Dead hidden");
    }
    out
}

/// The panel above a group's offsets or members.
pub fn draw_panel(frame: &mut Frame, area: Rect, state: &AppState, group: &str, theme: &Theme) {
    let [text, chart] = Layout::vertical([Constraint::Length(3), Constraint::Fill(1)]).areas(area);
    let view = state.groups.detail_of(group);
    let detail = view.and_then(|v| v.detail.as_deref());
    let mut lines = if let (Some(view), Some(detail)) = (view, detail) {
        summary(state, view, detail, theme)
    } else {
        let mut lines = vec![Line::styled(
            format!("group '{group}': loading…"),
            theme.dim,
        )];
        if let Some(error) = view.and_then(|v| v.error.as_ref()) {
            lines.push(Line::styled(
                format!("failed: {error} (retrying)"),
                theme.problem,
            ));
        }
        lines
    };
    lines.truncate(3);
    frame.render_widget(Paragraph::new(lines), text);
    let history = state.groups.histories.get(group);
    let values = history.map(cells::lag_values).unwrap_or_default();
    let latest = values.last().copied();
    let max = values.iter().copied().max().unwrap_or(0);
    let title = match latest {
        Some(now) => format!(
            " lag over the session: now {now}, max {max}, {} samples ",
            values.len()
        ),
        None => " lag over the session: no samples yet ".to_owned(),
    };
    let width = usize::from(chart.width);
    let shown = &values[values.len().saturating_sub(width)..];
    let spark = Sparkline::default()
        .block(
            Block::default()
                .borders(Borders::TOP)
                .border_style(theme.border)
                .title(Span::styled(title, theme.title)),
        )
        .data(shown)
        .max(max.max(1))
        .style(theme.moved);
    frame.render_widget(spark, chart);
}

fn summary<'a>(
    state: &AppState,
    view: &DetailView,
    detail: &GroupDetail,
    theme: &Theme,
) -> Vec<Line<'a>> {
    let d = &detail.description;
    let mut first = format!(
        "{} · {} · {} members",
        d.group_type,
        d.state,
        d.members.len()
    );
    let reconciling = d.members.iter().filter(|m| m.is_reconciling()).count();
    if reconciling > 0 {
        let _ = write!(first, ", {reconciling} reconciling");
    }
    let _ = write!(first, " · coordinator {}", d.coordinator);
    if let (Some(group), Some(assignment)) = (d.group_epoch, d.assignment_epoch) {
        let _ = write!(first, " · epoch {group} (assignment {assignment})");
    }
    if !d.assignor.is_empty() {
        let _ = write!(first, " · assignor {}", d.assignor);
    }
    let mut second = vec![Span::raw(lag_words(&detail.lag.totals))];
    if let Some(history) = state.groups.histories.get(&d.group) {
        let trend = history.trend();
        let style = if trend == Trend::Growing {
            theme.warning
        } else {
            Style::new()
        };
        second.push(Span::styled(
            format!("  {} {}", trend.arrow(), trend_word(trend)),
            style,
        ));
        second.push(Span::raw(format!(
            " · produced {} · consumed {} · {}",
            cells::rate(history.production_rate()),
            cells::rate(history.consumption_rate()),
            cells::catch_up(history)
        )));
    }
    let now_ms = millis(state);
    let oldest = detail
        .lag
        .partitions
        .iter()
        .filter_map(|p| {
            detail
                .oldest_unconsumed_age_ms(&p.topic, p.partition, now_ms)
                .map(|age| (age, p))
        })
        .max_by_key(|(age, _)| *age);
    let mut third = vec![Span::raw(match oldest {
        Some((ms, p)) => format!(
            "oldest unconsumed record {} old ({} {})",
            rows::age(Duration::from_millis(u64::try_from(ms).unwrap_or(0))),
            p.topic,
            p.partition
        ),
        None => "oldest unconsumed record: -".to_owned(),
    })];
    if detail.oldest_unconsumed_left_out > 0 {
        third.push(Span::styled(
            format!(
                " (age not read for the {} least lagging partitions)",
                detail.oldest_unconsumed_left_out
            ),
            theme.dim,
        ));
    }
    if let Some(at) = view.at {
        third.push(Span::styled(
            format!(
                " · updated {} ago",
                rows::age(state.now.saturating_duration_since(at))
            ),
            theme.dim,
        ));
    }
    if let Some(error) = &view.error {
        third.push(Span::styled(
            format!(" · refresh failed: {error}"),
            theme.problem,
        ));
    }
    vec![Line::raw(first), Line::from(second), Line::from(third)]
}

/// The detail's lag line: the total, and what it does not count.
fn lag_words(totals: &crate::groups::LagTotals) -> String {
    let mut second = match totals.total() {
        Some(records) => format!("lag {records} records"),
        None => "lag: no number".to_owned(),
    };
    if totals.uncommitted > 0 {
        let plural = if totals.uncommitted == 1 { "" } else { "s" };
        let _ = write!(
            second,
            " ({} partition{plural} without a commit)",
            totals.uncommitted
        );
    }
    if totals.deleted > 0 {
        let _ = write!(second, ", {} already deleted by retention", totals.deleted);
    }
    if totals.past_end > 0 {
        let _ = write!(second, ", {} committed past the end", totals.past_end);
    }
    second
}

fn trend_word(trend: Trend) -> &'static str {
    match trend {
        Trend::Growing => "growing",
        Trend::Shrinking => "shrinking",
        Trend::Steady => "steady",
        Trend::Unknown => "measuring",
    }
}
