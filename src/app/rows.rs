//! Building a view's row list (filter + sort) in `update`, cached by what it
//! depends on, so that `view` only ever indexes into it.

use std::collections::BTreeMap;

use super::screen::{RowsKey, Screen, View};
use super::state::AppState;

/// Rebuild the visible view's rows if anything they depend on changed, and
/// keep the selection in range.
pub fn refresh(state: &mut AppState) {
    let page = state.page();
    match &state.view().screen {
        Screen::Messages { .. } => {
            super::screens::messages::sync(state);
            clamp(state.view_mut(), page);
            return;
        }
        screen @ (Screen::Record { .. } | Screen::Module(_)) if is_text(screen) => {
            // One row per first line of a page: selected is the scroll position.
            let lines = match screen {
                Screen::Module(s) => state.screens.text_lines(s),
                _ => state.messages.detail.as_ref().map_or(0, |d| d.lines.len()),
            };
            let view = state.view_mut();
            let positions = lines.saturating_sub(page) + 1;
            if view.rows.len() != positions {
                view.rows = (0..positions).collect();
            }
            clamp(view, 1);
            view.offset = view.selected;
            return;
        }
        _ => {}
    }
    let key = RowsKey {
        generation: state.generation,
        watermarks: state.watermarks.answers,
        filter: state
            .view()
            .filter
            .as_ref()
            .map(|f| f.text().to_owned())
            .unwrap_or_default(),
        sort: state.view().sort,
        internal: state.show_internal,
        sizes: state.sizes.answers,
        screens: state.screens.answers(),
        inactive: state.screens.groups.hide_inactive,
        group_type: state.screens.groups.only_type.clone(),
    };
    if state.view().built_for.as_ref() != Some(&key) {
        let view = state.view();
        let kept = view
            .rows
            .get(view.selected)
            .and_then(|&i| identity(state, &view.screen, i));
        let rows = build(state);
        // A screen whose rows are rebuilt from each answer may reorder
        // them (groups, configs): the selection stays on the group or
        // partition it was on.
        let screen = state.view().screen.clone();
        let found = kept.and_then(|kept| {
            rows.iter()
                .position(|&i| identity(state, &screen, i).as_ref() == Some(&kept))
        });
        let kinds = match &screen {
            Screen::Module(s) => state.screens.counts(s, &rows),
            _ => BTreeMap::new(),
        };
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

/// Whether `screen` is text scrolled line by line (the record detail, a
/// screen module's text) rather than a table.
pub fn is_text(screen: &Screen) -> bool {
    match screen {
        Screen::Record { .. } => true,
        Screen::Module(s) => s.is_text(),
        Screen::Messages { .. } => false,
    }
}

/// What identifies row `index` of a screen whose rows are rebuilt from
/// answers (groups, configs), so the selection can follow it.
fn identity(state: &AppState, screen: &Screen, index: usize) -> Option<String> {
    match screen {
        Screen::Module(s) => state.screens.identity(s, index),
        _ => None,
    }
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
    let mut rows: Vec<usize> = match &screen {
        Screen::Messages { .. } | Screen::Record { .. } => Vec::new(),
        Screen::Module(s) => state.screens.rows(s, &mut keep),
    };
    sort_rows(state, &screen, sort.column, &mut rows);
    if sort.descending {
        rows.reverse();
    }
    rows
}

/// Sort `rows` by column `column` of the screen's table (ascending).
fn sort_rows(state: &AppState, screen: &Screen, column: usize, rows: &mut Vec<usize>) {
    match screen {
        // Records keep the order they arrived in.
        Screen::Messages { .. } | Screen::Record { .. } => {}
        Screen::Module(s) => state.screens.sort(s, state.clock(), column, rows),
    }
}
