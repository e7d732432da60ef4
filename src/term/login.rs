//! Logging in to a context whose `password_command` asks on the terminal:
//! the TUI steps aside like a pager does. It leaves its screen (raw mode
//! off, the normal screen back), says which context asks and that Ctrl-C
//! cancels, runs the command as the terminal's foreground job
//! (`config::tty`), and comes back. A failed login stays on the normal
//! screen until a key is pressed, so what the command said can be read;
//! the failure itself reaches `update` as the context's resolution error,
//! like any other.

use std::io::Write;
use std::time::Duration;

use ratatui::crossterm::event::{self, Event, KeyEventKind};

use crate::app::failure::{Failure, Kind};
use crate::config::cli::{ConnectArgs, resolve};
use crate::config::resolve::ResolvedContext;
use crate::config::secret::LOGIN_TIMEOUT;

use super::pause::Held;
use super::terminal::{self, Tui};

/// A `:ctx` whose password command must run on the terminal, with the
/// input thread held until it is done.
pub struct Login {
    /// The context's name.
    pub name: String,
    /// The arguments selecting it.
    pub args: ConnectArgs,
    /// Keeps the input thread from reading while the command has the terminal.
    pub held: Held,
}

/// How long the whole login may take: longer than the command may run, so
/// its own timeout (which kills it) speaks first.
const DEADLINE: Duration = LOGIN_TIMEOUT.saturating_add(Duration::from_secs(5));

/// Step aside, resolve the context with the terminal, and take the screen
/// back; the resolution's result (or why there is none) for the session.
pub async fn step_aside(
    tui: &mut Tui,
    login: Login,
) -> std::io::Result<Result<Box<ResolvedContext>, Failure>> {
    let Login { name, args, held } = login;
    terminal::restore();
    let mut out = std::io::stdout();
    writeln!(
        out,
        "kscope: context '{name}' asks for a password (its password_command runs here; Ctrl-C cancels it)"
    )?;
    out.flush()?;
    let resolving = tokio::task::spawn_blocking(move || resolve(&args));
    let result = match tokio::time::timeout(DEADLINE, resolving).await {
        Ok(Ok(resolved)) => resolved.map(Box::new).map_err(Failure::from),
        Ok(Err(join)) => Err(Failure::new(
            Kind::Final,
            format!("resolving the context failed: {join}"),
        )),
        Err(_) => Err(Failure::new(
            Kind::Transient,
            format!("the login took longer than {DEADLINE:?} and was given up"),
        )),
    };
    if let Err(error) = &result {
        writeln!(
            out,
            "kscope: context '{name}': {error}\r\nkscope: press any key to go back"
        )?;
        out.flush()?;
        // Raw mode: Ctrl-C here is a key, not a signal that ends kscope.
        ratatui::crossterm::terminal::enable_raw_mode()?;
        let _ = tokio::task::spawn_blocking(any_key).await;
    }
    terminal::resume(tui)?;
    drop(held);
    Ok(result)
}

/// Wait for a key press (the input thread is held, so this is the only
/// reader); a terminal that cannot be read ends the wait.
fn any_key() {
    while let Ok(event) = event::read() {
        if matches!(event, Event::Key(key) if key.kind == KeyEventKind::Press) {
            return;
        }
    }
}
