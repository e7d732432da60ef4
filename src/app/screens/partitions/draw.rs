//! The Partitions screen's visible rows — offline or under its min ISR in
//! the problem colour, a recent leader change in the moved colour,
//! under-replicated or not on its preferred leader in the warning colour —
//! and the topic's size on disk for the title.

use ratatui::style::Style;

use crate::columns::format;
use crate::inspect::ClusterSizes;
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;

use super::columns::{Row, table};

/// The rows of the visible window, each with whether it changed leader
/// recently.
pub fn visible<'a>(rows: impl Iterator<Item = (Row<'a>, bool)>, theme: &Theme) -> Grid {
    grid(
        &table(),
        rows.map(|(row, moved)| {
            let p = row.partition;
            let style = if p.is_offline() || row.under_min_isr() == Some(true) {
                theme.problem
            } else if moved {
                theme.moved
            } else if p.is_under_replicated() || !p.is_preferred_leader() {
                theme.warning
            } else {
                Style::new()
            };
            (row, style)
        }),
    )
}

/// A topic's size on disk for the title: all replicas and the leaders'
/// alone (empty until the brokers answered).
pub fn topic_size(sizes: Option<&ClusterSizes>, topic: &str) -> String {
    let Some(size) = sizes.and_then(|s| s.topics.get(topic)) else {
        return String::new();
    };
    let shown = |n: Option<i64>| n.map_or_else(|| "?".to_owned(), format::bytes);
    format!(
        " · size {} (all replicas), {} (leaders)",
        shown(size.all_replicas),
        shown(size.leaders_only)
    )
}
