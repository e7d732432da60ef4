//! The partition detail's producers and transactions: a panel with the
//! open transactions writing to the partition (how long open, of what
//! timeout: a hung one holds `read_committed` consumers at the last stable
//! offset), over its active producers (one in a transaction highlighted).

use std::time::Duration;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::{AppState, Screen, table_rows};
use crate::columns::format::age;
use crate::columns::producers;
use crate::untrusted::escaped;

use super::screens::{Grid, grid};
use super::theme::Theme;

/// The visible rows: the partition's producers.
pub fn visible(state: &AppState, theme: &Theme, page: usize) -> Grid {
    let view = state.view();
    let Screen::Producers { topic, partition } = &view.screen else {
        return grid(&producers::table(), std::iter::empty());
    };
    let window = view.rows.iter().skip(view.offset).take(page).copied();
    grid(
        &producers::table(),
        window
            .filter_map(|i| table_rows::producer(state, topic, *partition, i))
            .map(|row| {
                let style = if row.producer.txn_start_offset.is_some() {
                    theme.warning
                } else {
                    Style::new()
                };
                (row, style)
            }),
    )
}

/// What the title adds: the data's age.
pub fn status(state: &AppState) -> String {
    if !matches!(state.view().screen, Screen::Producers { .. }) {
        return String::new();
    }
    match state.producers.at {
        Some(at) => format!(
            " · updated {} ago",
            age(state.now.saturating_duration_since(at))
        ),
        None => " · loading…".to_owned(),
    }
}

/// The panel: the open transactions writing to the partition.
pub fn draw_panel(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let Screen::Producers { topic, partition } = &state.view().screen else {
        return;
    };
    let Some(answer) = state.producers.answer_for(topic, *partition) else {
        frame.render_widget(Paragraph::new(Line::styled("loading…", theme.dim)), area);
        return;
    };
    let now_ms = table_rows::now_ms(state);
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
                t.transactional_id,
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
