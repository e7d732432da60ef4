//! Terminal lifecycle: raw mode, alternate screen, mouse; restored on exit
//! and, through the logging panic hook, before a panic message is printed.

use std::io::{Stdout, stdout};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// The terminal the UI draws on.
pub type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Take over the terminal.
pub fn enter() -> std::io::Result<Tui> {
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    Terminal::new(CrosstermBackend::new(stdout()))
}

/// Take over the terminal, or say on stderr why it cannot be used (and
/// leave it as it was).
pub fn enter_or_say() -> Option<Tui> {
    match enter() {
        Ok(tui) => Some(tui),
        Err(error) => {
            restore();
            eprintln!("kscope: cannot use the terminal: {error}");
            None
        }
    }
}

/// Take the terminal over again after [`restore`] (a login run on it):
/// the whole screen is drawn anew on the next frame.
pub fn resume(tui: &mut Tui) -> std::io::Result<()> {
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    tui.clear()
}

/// Give the terminal back (safe to call twice, and from the panic hook).
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
}
