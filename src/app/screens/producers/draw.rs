//! The partition detail's producers and transactions: a panel with the
//! open transactions writing to the partition (how long open, of what
//! timeout: a hung one holds `read_committed` consumers at the last stable
//! offset), over its active producers (one in a transaction highlighted).

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::columns::format::age;
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

use super::super::module::Clock;
use super::Answer;
use super::columns::{Row, table};

/// The visible rows: the partition's producers, one in a transaction
/// highlighted.
pub fn visible<'a>(rows: impl Iterator<Item = Row<'a>>, theme: &Theme) -> Grid {
    grid(
        &table(),
        rows.map(|row| {
            let style = if row.producer.txn_start_offset.is_some() {
                theme.warning
            } else {
                Style::new()
            };
            (row, style)
        }),
    )
}

/// What the title adds: the age of the data, which landed `at`.
pub fn status(at: Option<Instant>, now: Instant) -> String {
    match at {
        Some(at) => format!(" · updated {} ago", age(now.saturating_duration_since(at))),
        None => " · loading…".to_owned(),
    }
}

/// The panel: the open transactions writing to the partition (`answer`:
/// the one held for it, if any).
pub fn panel(
    frame: &mut Frame,
    area: Rect,
    answer: Option<&Answer>,
    (clock, theme): (Clock, &Theme),
) {
    let Some(answer) = answer else {
        frame.render_widget(Paragraph::new(Line::styled("loading…", theme.dim)), area);
        return;
    };
    let now_ms = clock.now_ms;
    let mut lines = Vec::new();
    if answer.transactions.is_empty() {
        lines.push(Line::styled(
            "open transactions here: none (read_committed reads are not held back)",
            theme.dim,
        ));
    } else {
        lines.push(Line::styled(
            format!(
                "open transactions here: {} (read_committed reads stop at the first's start)",
                answer.transactions.len()
            ),
            theme.warning,
        ));
    }
    for t in &answer.transactions {
        let open_for = u64::try_from(now_ms.saturating_sub(t.start_ms)).unwrap_or(0);
        let timeout = u64::try_from(t.timeout_ms).unwrap_or(0);
        lines.push(Line::styled(
            escaped(format!(
                "  {} · {} · producer {} epoch {} · open {} of a {} timeout · coordinator {}",
                crate::anonymize::name(crate::anonymize::Kind::Client, &t.transactional_id),
                t.state,
                t.producer_id,
                t.producer_epoch,
                age(Duration::from_millis(open_for)),
                age(Duration::from_millis(timeout)),
                t.coordinator
            )),
            theme.warning,
        ));
    }
    if let Err(error) = &answer.producers {
        lines.push(Line::styled(
            escaped(format!("producers: {error}")),
            theme.problem,
        ));
    }
    if let Some(error) = answer.failed.first() {
        lines.push(Line::styled(
            escaped(format!("transactions: {error}")),
            theme.problem,
        ));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}
