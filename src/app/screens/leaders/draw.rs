//! The leader-movement log's visible rows: a partition gone offline or a
//! broker gone in the problem colour, a leader change in the moved colour.

use ratatui::style::Style;

use crate::meta::{MovementEvent, MovementKind};
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;

use super::columns::table;

/// The rows of `events` (the visible window), styled by kind.
pub fn visible<'a>(events: impl Iterator<Item = &'a MovementEvent>, theme: &Theme) -> Grid {
    grid(
        &table(),
        events.map(|e| {
            let style = match e.kind {
                MovementKind::PartitionOffline { .. } | MovementKind::BrokerLeft { .. } => {
                    theme.problem
                }
                MovementKind::LeaderChanged { .. } => theme.moved,
                _ => Style::new(),
            };
            (e, style)
        }),
    )
}
