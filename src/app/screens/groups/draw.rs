//! The group screens' visible rows, styled: a group failing or dead, or a
//! partition stuck, losing data within the hour, or with an unknown end in
//! the problem colour; rebalancing, reconciling or growing lag in the
//! warning colour; inactive groups and partitions without a commit dimmed.

use std::time::Duration;

use ratatui::style::Style;

use crate::groups::{GroupState, Lag, Trend};
use crate::paint::grid::{Grid, grid};
use crate::paint::theme::Theme;

use super::Which;
use super::columns::{list, members, offsets};
use super::rows;
use super::store::Around;
use super::store::GroupsStore;

/// The rows `window` (indices into the screen's source) of `which`.
pub fn visible(
    store: &GroupsStore,
    (which, around): (Which, &Around),
    window: impl Iterator<Item = usize>,
    theme: &Theme,
) -> Grid {
    match which {
        Which::Offsets(group) => grid(
            &offsets::table(),
            window
                .filter_map(|i| rows::offset(store, around, group, i))
                .map(|row| {
                    let losing = row.loss_in.is_some_and(|d| d < Duration::from_hours(1));
                    let style = match row.lag.lag() {
                        _ if row.stuck || losing => theme.problem,
                        Lag::UnknownEnd | Lag::PastEnd(_) => theme.problem,
                        Lag::NoCommit => theme.dim,
                        Lag::Records(_)
                            if row.history.is_some_and(|h| h.trend() == Trend::Growing) =>
                        {
                            theme.warning
                        }
                        Lag::Records(_) => Style::new(),
                    };
                    (row, style)
                }),
        ),
        Which::Members(group) => grid(
            &members::table(),
            window
                .filter_map(|i| rows::member(store, group, i))
                .map(|m| {
                    let style = if m.is_reconciling() {
                        theme.warning
                    } else {
                        Style::new()
                    };
                    (m, style)
                }),
        ),
        Which::List { .. } => grid(
            &list::table(),
            window.filter_map(|i| rows::group(store, i)).map(|row| {
                let g = row.summary;
                let style = if g.error.is_some() || g.state == GroupState::Dead {
                    theme.problem
                } else if rebalancing(&g.state)
                    || row.history.is_some_and(|h| h.trend() == Trend::Growing)
                {
                    theme.warning
                } else if g.state.is_inactive() {
                    theme.dim
                } else {
                    Style::new()
                };
                (row, style)
            }),
        ),
    }
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
