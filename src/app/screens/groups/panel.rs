//! The group screens' words and chart: what the list's title adds (the
//! data's age, the narrowing), and the panel above a group's offsets and
//! members (summary, rates, catch-up estimate and the lag chart over the
//! session).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Sparkline};

use crate::columns::format::age;
use crate::columns::group_format as cells;
use crate::groups::{GroupDetail, GroupType, StreamsTasks, Trend};
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

use super::super::module::Clock;
use super::store::{DetailView, GroupsStore};

/// What the title of the groups list adds: the data's age, or why there is none.
pub fn list_status(store: &GroupsStore, now: Instant) -> String {
    let mut out = match store.overview_at {
        Some(at) => format!(" · updated {} ago", age(now.saturating_duration_since(at))),
        None if store.overview_error.is_none() => " · loading consumer groups…".to_owned(),
        None => String::new(),
    };
    if let Some(error) = &store.overview_error {
        let _ = write!(out, " · failed: {error}");
    }
    if store.hide_inactive {
        out.push_str(" · Empty/Dead hidden");
    }
    if let Some(only) = &store.only_type {
        let _ = write!(out, " · type {only} only");
    }
    escaped(out)
}

/// The panel above a group's offsets or members.
pub fn draw_panel(
    frame: &mut Frame,
    area: Rect,
    (store, group): (&GroupsStore, &str),
    (clock, theme): (Clock, &Theme),
) {
    let [text, chart] = Layout::vertical([Constraint::Length(3), Constraint::Fill(1)]).areas(area);
    let view = store.detail_of(group);
    let detail = view.and_then(|v| v.detail.as_deref());
    let mut lines = if let (Some(view), Some(detail)) = (view, detail) {
        summary(store, clock, (view, detail), theme)
    } else {
        let mut lines = vec![Line::styled(
            escaped(format!(
                "group '{}': loading…",
                crate::anonymize::name(crate::anonymize::Kind::Group, group)
            )),
            theme.dim,
        )];
        if let Some(error) = view.and_then(|v| v.error.as_ref()) {
            lines.push(Line::styled(
                escaped(format!("failed: {error} (retrying)")),
                theme.problem,
            ));
        }
        lines
    };
    lines.truncate(3);
    frame.render_widget(Paragraph::new(lines), text);
    let history = store.histories.get(group);
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

/// What a share or streams group adds to the summary's first line.
fn type_note(d: &crate::groups::GroupDescription) -> String {
    match (&d.group_type, &d.topology) {
        // A share group has no commits: what the column shows is where the
        // group's acknowledged records end.
        (GroupType::Share, _) => " · COMMITTED is the share-partition start offset".to_owned(),
        (_, Some(topology)) => {
            let tasks: usize = d
                .members
                .iter()
                .filter_map(|m| m.tasks.as_ref())
                .map(StreamsTasks::len)
                .sum();
            format!(
                " · topology epoch {}, {} subtopologies, {tasks} tasks",
                topology.epoch,
                topology.subtopologies.len()
            )
        }
        _ => String::new(),
    }
}

fn summary<'a>(
    store: &GroupsStore,
    clock: Clock,
    (view, detail): (&DetailView, &GroupDetail),
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
    first.push_str(&type_note(d));
    let mut second = vec![Span::raw(lag_words(&detail.lag.totals))];
    if let Some(history) = store.histories.get(&d.group) {
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
    let now_ms = clock.now_ms;
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
        Some((ms, p)) => escaped(format!(
            "oldest unconsumed record {} old ({} {})",
            age(Duration::from_millis(u64::try_from(ms).unwrap_or(0))),
            crate::anonymize::name(crate::anonymize::Kind::Topic, &p.topic),
            p.partition
        )),
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
                age(clock.now.saturating_duration_since(at))
            ),
            theme.dim,
        ));
    }
    if let Some(error) = &view.error {
        third.push(Span::styled(
            escaped(format!(" · refresh failed: {error}")),
            theme.problem,
        ));
    }
    vec![
        Line::raw(escaped(first)),
        Line::from(second),
        Line::from(third),
    ]
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
