//! The commit history drawn: its rows (group records and deletions set
//! apart from commits), the title's age, and the panel saying what was
//! read — or that the group has no record there, or why nothing could be.

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::browse::internal::CONSUMER_OFFSETS;
use crate::columns::format::age;
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

use super::columns::{self, table};
use super::read::{Entry, History, Kind, LIMIT};
use super::Answer;

/// What `/` matches a row against: what it is, its topic and its detail.
pub fn filter_text(entry: &Entry) -> String {
    let topic = match &entry.kind {
        Kind::Commit { topic, .. } | Kind::CommitDeleted { topic, .. } => topic.as_str(),
        _ => "",
    };
    format!(
        "{} {topic} {}",
        columns::what(entry),
        columns::detail(entry)
    )
}

/// The visible rows: group records highlighted, deletions dimmed.
pub fn visible<'a>(rows: impl Iterator<Item = &'a Entry>, theme: &Theme) -> Grid {
    grid(
        &table(),
        rows.map(|entry| {
            let style = match entry.kind {
                Kind::Commit { .. } => Style::new(),
                Kind::Group(_) => theme.moved,
                Kind::CommitDeleted { .. } | Kind::GroupDeleted => theme.warning,
                Kind::Other(_) => theme.dim,
            };
            (entry, style)
        }),
    )
}

/// What the title adds: the age of the history, read `at`.
pub fn status(at: Option<Instant>, now: Instant) -> String {
    match at {
        Some(at) => format!(" · read {} ago", age(now.saturating_duration_since(at))),
        None => " · reading…".to_owned(),
    }
}

/// What was read, in words (the panel's first line; the group as
/// `--anonymize` shows it).
pub fn summary(group: &str, history: &History) -> String {
    let group = crate::anonymize::name(crate::anonymize::Kind::Group, group);
    let History {
        partition,
        partitions,
        log: (low, end),
        from,
        scanned,
        entries,
    } = history;
    let place = format!("partition {partition} of {partitions} of {CONSUMER_OFFSETS}");
    let range = format!("offsets {from}..{end} (log {low}..{end}), {scanned} records read");
    if entries.is_empty() {
        return format!("no record of group '{group}' in {place}: {range}");
    }
    let cut = if entries.len() >= LIMIT {
        format!(" (the newest {LIMIT})")
    } else {
        String::new()
    };
    format!(
        "{} records of group '{group}'{cut}, newest first, from {place}: {range}",
        entries.len()
    )
}

/// The panel: what was read (and that older records were not), or why
/// `__consumer_offsets` could not be read.
pub fn panel(frame: &mut Frame, area: Rect, (group, answer): (&str, Option<&Answer>), theme: &Theme) {
    let lines = match answer {
        None => vec![Line::styled(
            format!("reading {CONSUMER_OFFSETS}…"),
            theme.dim,
        )],
        Some(Err(why)) => vec![Line::styled(escaped(why.message.clone()), theme.problem)],
        Some(Ok(history)) => {
            let style = if history.entries.is_empty() {
                theme.warning
            } else {
                theme.dim
            };
            let mut lines = vec![Line::styled(escaped(summary(group, history)), style)];
            if history.truncated() {
                lines.push(Line::styled(
                    format!("records before offset {} not read", history.from),
                    theme.dim,
                ));
            }
            lines
        }
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}
