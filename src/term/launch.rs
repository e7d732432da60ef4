//! Starting and ending the TUI as a process: it refuses at once when stdout
//! or stdin is not a terminal (pointing to `kscope get`), installs logging
//! and the panic hook that restores the terminal, builds the runtime, and
//! hands over to the run loop.

use std::process::ExitCode;
use std::time::Duration;

use crate::config::cli::ConnectArgs;
use crate::config::resolve::ResolvedContext;

use super::terminal;

/// Run the TUI on `context` until the user quits.
pub fn run(context: &ResolvedContext, args: ConnectArgs) -> ExitCode {
    // Before anything is written: on a pipe or file, escape codes would be
    // garbage in the output and there are no keys to read.
    if let Some(which) = not_a_terminal() {
        eprintln!(
            "kscope: the TUI needs a terminal ({which} is not one); use `kscope get …` for output to a pipe or file"
        );
        return ExitCode::FAILURE;
    }
    // Read while the process has one thread (the only time it can be read
    // soundly); UTC when it cannot.
    let utc_offset =
        time::UtcOffset::current_local_offset().map_or(0, time::UtcOffset::whole_seconds);
    let log = crate::logging::init(&args.log_level).ok();
    let log_file = log.as_ref().map(|g| g.file.clone());
    crate::logging::install_panic_hook(terminal::restore, log_file);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
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
    let result = runtime.block_on(super::run::run_loop(&mut tui, context, args, utc_offset));
    terminal::restore();
    runtime.shutdown_timeout(Duration::from_millis(200));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kscope: terminal error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Which of stdout and stdin is not a terminal, if either.
pub(super) fn not_a_terminal() -> Option<&'static str> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        Some("stdout")
    } else if !std::io::stdin().is_terminal() {
        Some("stdin")
    } else {
        None
    }
}
