//! The fleet's rows as drawn: each aged to the frame, styled by health, a
//! failure's reason given room or spanned across the metric columns.

use std::time::Instant;

use ratatui::style::Style;

use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;

use super::FleetStore;

/// The fleet's visible rows, each aged to this frame, by health. A row that
/// failed and has no numbers (it never answered) says why across the metric
/// columns; one that failed with numbers kept from before shows them, and
/// its ERROR column is given room for the reason's words before WORST LAG's
/// group name is (a reason cut to `connection refu…` says too little).
pub fn visible(
    store: &FleetStore,
    (now, theme): (Instant, &Theme),
    window: impl Iterator<Item = usize>,
) -> Grid {
    use crate::columns::fleet as columns;
    use crate::fleet::Health;
    let rows: Vec<(crate::fleet::FleetRow, Style)> = window
        .filter_map(|i| store.row(i))
        .map(|row| {
            let style = match row.health {
                Health::Unreachable | Health::Offline | Health::UnderMinIsr => theme.problem,
                Health::UnderReplicated | Health::NeedsLogin => theme.warning,
                Health::Ok | Health::Pending => Style::new(),
            };
            (row.clone().aged(now), style)
        })
        .collect();
    let spanned: Vec<bool> = rows.iter().map(|(row, _)| columns::spans(row)).collect();
    let login: Vec<bool> = rows
        .iter()
        .map(|(row, _)| row.health == Health::NeedsLogin)
        .collect();
    let need = rows
        .iter()
        .zip(&spanned)
        .filter(|(_, spans)| !**spans)
        .map(|((row, _), _)| columns::reason_width(row))
        .max()
        .unwrap_or(0);
    let mut grid = grid(&columns::table(), rows.into_iter());
    for ((cells, _), _) in grid.rows.iter_mut().zip(&login).filter(|(_, l)| **l) {
        if let Some(error) = cells.last_mut() {
            columns::NEEDS_LOGIN.clone_into(error);
        }
    }
    if let Some(crate::columns::Width::Fill { min, .. }) = grid.widths.last_mut() {
        *min = (*min).max(need);
    }
    grid.spans = spanned
        .iter()
        .enumerate()
        .filter(|(_, spans)| **spans)
        .map(|(i, _)| (i, columns::METRICS))
        .collect();
    grid
}
