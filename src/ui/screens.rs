//! The table of each screen, from its column table: only the visible window
//! of rows is formatted; the style of a row is chosen here (it is drawing).

use crate::app::AppState;

use crate::paint::grid::Grid;
use crate::paint::theme::Theme;

/// The visible rows of the view on screen.
pub fn visible(state: &AppState, theme: &Theme, page: usize) -> Grid {
    let view = state.view();
    let window = view.rows.iter().skip(view.offset).take(page).copied();
    state
        .screens
        .visible(&view.screen, (state.clock(), theme), window)
}
