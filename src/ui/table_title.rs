//! A table screen's title: the screen, the selected row of how many, the
//! filter, the screen's own status (messages, a screen module's: the
//! groups list's age, a cluster's, its counts, a topic's size) and how
//! many columns the terminal could not fit.

use std::fmt::Write as _;

use crate::app::AppState;

/// The table's title: the screen, the selected row of how many, the filter,
/// the screen's own status, and how many columns did not fit.
pub fn title(state: &AppState, hidden: usize) -> String {
    let view = state.view();
    let mut title = format!(
        " {} [{}/{}]",
        view.screen.title(),
        view.rows.len().min(view.selected + 1),
        view.rows.len()
    );
    if let Some(filter) = &view.filter {
        let _ = write!(title, " filter: {}", filter.text());
    }
    title.push_str(&state.screens.status(&view.screen, state.now));
    // The counts the screen's module made with its rows (leader moves).
    let counts: Vec<String> = view
        .kinds
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    if !counts.is_empty() {
        let _ = write!(title, " · {}", counts.join(" · "));
    }
    if hidden > 0 {
        let _ = write!(
            title,
            " · {hidden} column{} right of here (wider terminal)",
            if hidden == 1 { "" } else { "s" }
        );
    }
    // Last: a narrow terminal keeps the count of columns not shown.
    title.push_str(&state.screens.title_end(&view.screen));
    title.push(' ');
    title
}
