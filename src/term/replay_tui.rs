//! `kscope replay FILE [--at TIME]`: the TUI on a recording. No context is
//! resolved and no connection made: the [`Headless`] replay answers every
//! effect, and this loop only reads keys and ticks into actions and draws.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

use tokio::sync::mpsc;

use crate::app::Action;
use crate::paint::theme::Theme;
use crate::ui;

use super::msg::Msg;
use super::replay::Headless;
use super::{input, terminal};

/// The least time between two frames.
const FRAME: Duration = Duration::from_millis(16);

/// Replay `path` from `at` until the user quits, with the theme and key
/// remaps the config (`--config`, else the default file) gives the
/// recorded context.
pub fn run(path: &Path, at: Option<&str>, config: Option<&Path>) -> ExitCode {
    // A file that cannot be replayed says so first, terminal or not.
    let size = ratatui::crossterm::terminal::size().unwrap_or((80, 24));
    let mut replay = match Headless::open(path, at, size) {
        Ok(replay) => replay,
        Err(error) => {
            eprintln!("kscope: {}", crate::untrusted::escape(&error));
            return ExitCode::from(2);
        }
    };
    if let Some(which) = super::launch::not_a_terminal() {
        eprintln!(
            "kscope: the replay needs a terminal ({which} is not one); use `kscope get … --from-file` for output to a pipe or file"
        );
        return ExitCode::FAILURE;
    }
    crate::logging::install_panic_hook(terminal::restore, None);
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("kscope: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let Some(mut tui) = terminal::enter_or_say() else {
        return ExitCode::FAILURE;
    };
    let theme = looks(&mut replay, config);
    let result = runtime.block_on(run_loop(&mut tui, &mut replay, &theme));
    terminal::restore();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kscope: terminal error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The config's theme and `[keys]` for the recorded context, put on the
/// replay; what went wrong (an unreadable config, an unknown theme, a
/// remap that clashes) is said in the notice line, after the recording's
/// own damage if it has any, and the defaults stand in.
fn looks(replay: &mut Headless, config: Option<&Path>) -> Theme {
    let (theme, keys, problem) = match crate::config::load::load(config) {
        Ok(loaded) => {
            let (theme, keys) = crate::config::resolve::looks(&loaded, &replay.state.context);
            (theme, keys, None)
        }
        Err(error) => (
            crate::config::resolve::DEFAULT_THEME.to_owned(),
            std::collections::BTreeMap::new(),
            Some(format!(
                "config not read (default theme and keys): {}",
                crate::untrusted::escape(&error.to_string())
            )),
        ),
    };
    let (keymap, problems) = crate::app::Keymap::with_remaps(&keys);
    let (theme, theme_notice) = Theme::load(&theme, no_color());
    replay.state.keymap = keymap;
    let said = problem
        .or(theme_notice)
        .or_else(|| problems.first().cloned());
    if replay.state.notice.is_none() {
        replay.state.notice = said;
    }
    theme
}

fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Keys and ticks in, `update` with the recording's answers, a frame out
/// after each change (at most one per [`FRAME`]).
async fn run_loop(
    tui: &mut terminal::Tui,
    replay: &mut Headless,
    theme: &Theme,
) -> std::io::Result<()> {
    let (tx, mut rx) = mpsc::channel::<Msg>(64);
    input::spawn(tx, super::pause::Pause::default());
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    let mut last_draw: Option<Instant> = None;
    loop {
        if let Some(at) = last_draw {
            tokio::time::sleep(FRAME.saturating_sub(at.elapsed())).await;
        }
        tui.draw(|frame| ui::view(frame, &replay.state, &replay.snap, theme))?;
        last_draw = Some(Instant::now());
        let action = tokio::select! {
            msg = rx.recv() => match msg {
                Some(Msg::Action(action)) => action,
                Some(_) => continue,
                None => return Ok(()),
            },
            _ = ticks.tick() => Action::Tick { now: Instant::now(), wall: SystemTime::now() },
        };
        if replay.act(action) {
            return Ok(());
        }
    }
}
