//! `kscope get fleet`: every context in the config file (and the `-b`
//! one-off) polled once, concurrently with a bound, each within its own
//! deadline and all within an overall one; one row per context, worst
//! first. A context that did not answer is its row (with the reason) and a
//! stderr line, and the exit status is the partial one.
//!
//! Unlike the other commands this needs no single resolved context: it
//! runs from the flags and the config file, before the binary resolves one.

use std::process::ExitCode;
use std::time::Duration;

use crate::columns;
use crate::config::cli::ConnectArgs;
use crate::config::load;
use crate::config::resolve::Selection;
use crate::fleet::{self, FleetRow, FleetSettings, Health};
use crate::untrusted::escape;

use super::args::OutputFormat;
use super::error::Error;
use super::output::emit;
use super::partial;

/// Time past the polls' own deadlines before the whole command gives up.
const OVERALL_SLACK: Duration = Duration::from_secs(2);

/// The deadline of the whole command: one poll deadline per wave of
/// `concurrency` contexts (each poll may first resolve its context, within
/// [`fleet::RESOLVE_DEADLINE`]), plus slack. Only a cap: every poll ends at
/// its own deadlines, so the command ends when the slowest does.
fn overall(settings: &FleetSettings, contexts: usize) -> Duration {
    let waves = contexts.div_ceil(settings.concurrency.max(1)).max(1);
    settings
        .poll_deadline
        .saturating_add(fleet::RESOLVE_DEADLINE)
        .saturating_mul(u32::try_from(waves).unwrap_or(u32::MAX))
        .saturating_add(OVERALL_SLACK)
}

/// Run `get fleet` and say how it went: 0 when every context answered,
/// [`partial::PARTIAL_EXIT`] when some did not, 1 or 2 on an error.
pub fn main(args: &ConnectArgs, output: OutputFormat) -> ExitCode {
    match run(args, output) {
        Ok(()) if partial::happened() => ExitCode::from(partial::PARTIAL_EXIT),
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kscope: {}", escape(&error.to_string()));
            ExitCode::from(error.exit_code())
        }
    }
}

fn run(args: &ConnectArgs, output: OutputFormat) -> Result<(), Error> {
    if output == OutputFormat::Raw {
        return Err(Error::Usage("-o raw is for consume only".to_owned()));
    }
    let loaded = load::load(args.config.as_deref()).map_err(|e| Error::Usage(e.to_string()))?;
    crate::config::cli::print_warnings(&loaded.warnings);
    let settings = FleetSettings::from_config(&loaded.file);
    // Only an explicit -b is a one-off here: a sourced KSCOPE_BOOTSTRAP
    // must not add a row to every fleet.
    let selection = Selection {
        context: None,
        bootstrap: args.bootstrap_servers.clone(),
        overrides: args.overrides.clone(),
        read_only: true,
        mask: Vec::new(),
    };
    let source = loaded.source_name();
    let targets = fleet::targets(loaded, &selection);
    if targets.is_empty() {
        return Err(Error::Usage(format!(
            "no contexts in {source} and no -b: the fleet is empty"
        )));
    }
    let deadline = overall(&settings, targets.len());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let rows = runtime.block_on(fleet::poll_all(targets, settings, deadline));
    // A password command still running must not hold the exit back.
    runtime.shutdown_timeout(Duration::from_millis(100));
    report_missing(&rows);
    let mut out = std::io::stdout().lock();
    emit(&mut out, output, &rows, &columns::fleet::table())
}

/// One stderr line per context that did not answer, marking the output partial.
fn report_missing(rows: &[FleetRow]) {
    for row in rows {
        if matches!(row.health, Health::Unreachable | Health::NeedsLogin) {
            let error = row.error.as_deref().unwrap_or("no answer");
            partial::missing(escape(&format!("context '{}': {error}", row.context)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overall_deadline_grows_by_waves_of_polls() {
        let s = FleetSettings::default();
        let wave = s.poll_deadline + fleet::RESOLVE_DEADLINE;
        assert_eq!(overall(&s, 1), wave + OVERALL_SLACK);
        assert_eq!(overall(&s, 8), wave + OVERALL_SLACK);
        assert_eq!(overall(&s, 9), wave * 2 + OVERALL_SLACK);
    }
}
