//! Building a view's row list (filter + sort) in `update`, cached by what it
//! depends on, so that `view` only ever indexes into it.

use super::screen::{RowsKey, View};
use super::screens::Kept;
use super::state::AppState;

/// Rebuild the visible view's rows if anything they depend on changed, and
/// keep the selection in range.
pub fn refresh(state: &mut AppState) {
    let page = state.page();
    if state.view().screen.is_text() {
        // One row per first line of a page: selected is the scroll position.
        let lines = state.screens.text_lines(&state.view().screen);
        let view = state.view_mut();
        let positions = lines.saturating_sub(page) + 1;
        if view.rows.len() != positions {
            view.rows = (0..positions).collect();
        }
        clamp(view, 1);
        view.offset = view.selected;
        return;
    }
    let last = state.stack.len() - 1;
    let view = &mut state.stack[last];
    let kept = Kept {
        rows: &mut view.rows,
        selected: &mut view.selected,
        offset: &mut view.offset,
    };
    if state.screens.keep_rows(&view.screen, kept) {
        clamp(state.view_mut(), page);
        return;
    }
    let key = RowsKey {
        generation: state.generation,
        watermarks: state.cluster.watermarks.answers,
        filter: state
            .view()
            .filter
            .as_ref()
            .map(|f| f.text().to_owned())
            .unwrap_or_default(),
        sort: state.view().sort,
        internal: state.show_internal,
        sizes: state.cluster.sizes.answers,
        screens: state.screens.answers(),
        inactive: state.screens.groups.hide_inactive,
        group_type: state.screens.groups.only_type.clone(),
    };
    if state.view().built_for.as_ref() != Some(&key) {
        let view = state.view();
        let kept = view
            .rows
            .get(view.selected)
            .and_then(|&i| state.screens.identity(&view.screen, i));
        let rows = build(state);
        // A screen whose rows are rebuilt from each answer may reorder
        // them (groups, configs): the selection stays on the group or
        // partition it was on.
        let screen = state.view().screen.clone();
        let found = kept.and_then(|kept| {
            rows.iter()
                .position(|&i| state.screens.identity(&screen, i).as_ref() == Some(&kept))
        });
        let kinds = state.screens.counts(&screen, &rows);
        let view = state.view_mut();
        view.rows = rows;
        view.built_for = Some(key);
        view.kinds = kinds;
        if let Some(position) = found {
            view.selected = position;
        }
    }
    clamp(state.view_mut(), page);
}

/// Keep `selected` inside the rows and the window around it.
pub fn clamp(view: &mut View, page: usize) {
    let len = view.rows.len();
    view.selected = view.selected.min(len.saturating_sub(1));
    if view.selected < view.offset {
        view.offset = view.selected;
    }
    if view.selected >= view.offset + page {
        view.offset = view.selected + 1 - page;
    }
    view.offset = view.offset.min(len.saturating_sub(page));
}

fn build(state: &mut AppState) -> Vec<usize> {
    let view = state.view();
    let filter = view.filter.clone();
    let sort = view.sort;
    let screen = view.screen.clone();
    let scratch = &mut state.scratch;
    let mut keep = |text: &str| filter.as_ref().is_none_or(|f| f.matches(text, scratch));
    let mut rows = state.screens.rows(&screen, &mut keep);
    state
        .screens
        .sort(&screen, state.clock(), sort.column, &mut rows);
    if sort.descending {
        rows.reverse();
    }
    rows
}
