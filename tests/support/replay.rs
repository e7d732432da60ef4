//! Driving `kscope replay`'s model without a terminal: keys and `:`
//! commands into a [`Headless`] replay, its frame rendered with a
//! `TestBackend`, and the screen's rows read back as words.

use kscope::app::{Action, Code, Key};
use kscope::paint::theme::Theme;
use kscope::term::replay::Headless;
use kscope::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The frame as text, one quoted line per terminal row.
pub fn render(replay: &Headless) -> String {
    let (width, height) = (replay.state.width, replay.state.height);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| ui::view(frame, &replay.state, &replay.snap, &Theme::mono()))
        .expect("draws");
    terminal.backend().to_string()
}

/// The header's first line.
pub fn header(replay: &Headless) -> String {
    render(replay).lines().next().unwrap_or_default().to_owned()
}

/// Type `text` key by key (none of it may quit).
pub fn keys(replay: &mut Headless, text: &str) {
    for c in text.chars() {
        assert!(!replay.act(Action::Key(Key::char(c))), "quit on {c:?}");
    }
}

/// `:LINE` and Enter.
pub fn command(replay: &mut Headless, line: &str) {
    keys(replay, &format!(":{line}"));
    replay.act(Action::Key(Key::plain(Code::Enter)));
}

/// The words of each screen line (`TestBackend`'s quotes dropped).
pub fn lines(screen: &str) -> Vec<Vec<String>> {
    screen
        .lines()
        .map(|l| {
            l.trim_matches('"')
                .split_whitespace()
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// The screen line whose first word is `first`, if any.
pub fn find_row(screen: &str, first: &str) -> Option<Vec<String>> {
    lines(screen)
        .into_iter()
        .find(|w| w.first().is_some_and(|w| w == first))
}

/// The screen line whose first word is `first`.
pub fn row(screen: &str, first: &str) -> Vec<String> {
    find_row(screen, first).unwrap_or_else(|| panic!("no row {first}:\n{screen}"))
}

/// `(EVENT, SUBJECT)` of each row of the Events screen.
pub fn events(screen: &str) -> Vec<(String, String)> {
    lines(screen)
        .into_iter()
        .filter(|w| w.len() > 3 && w[0].len() == 8 && w[0].as_bytes()[2] == b':')
        .map(|w| (w[2].clone(), w[3].clone()))
        .collect()
}
