//! Logs: `tracing` to a daily-rotated file, never to the terminal the UI owns.
//!
//! Files are `kscope.YYYY-MM-DD.log` (UTC date) in the XDG state directory
//! (`~/.local/state/kscope/`), written by a background thread
//! (`tracing-appender`'s non-blocking writer) so logging never stalls a frame.
//! The level is an `EnvFilter` directive from `--log-level` / `KSCOPE_LOG`
//! (`info`, `debug`, `kscope=trace,warn`). Nothing here ever logs a secret:
//! credentials are `conn::Secret`, whose `Debug`/`Display` are redacted.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::EnvFilter;

use directories::ProjectDirs;

const PREFIX: &str = "kscope";
const SUFFIX: &str = "log";
/// How many daily files are kept.
pub const KEPT_FILES: usize = 14;

/// Why logging could not start: a bad level directive, or a log directory
/// or file that cannot be made or opened.
#[derive(Debug, thiserror::Error)]
#[error("logging: {0}")]
pub struct LogError(String);

/// Keeps the log writer alive; drop it last (it flushes what is queued).
#[derive(Debug)]
pub struct LogGuard {
    _worker: WorkerGuard,
    /// Today's log file.
    pub file: PathBuf,
}

/// The file today's lines go to, in `dir`.
pub fn log_file_in(dir: &Path) -> PathBuf {
    dir.join(format!("{PREFIX}.{}.{SUFFIX}", utc_date(SystemTime::now())))
}

/// The directory the log files go to: `$XDG_STATE_HOME/kscope/`
/// (`~/.local/state/kscope/`), or the cache directory on platforms without a
/// state directory; `None` when no home directory is known.
pub fn log_dir() -> Option<PathBuf> {
    ProjectDirs::from("", "", "kscope").map(|dirs| {
        dirs.state_dir()
            .unwrap_or_else(|| dirs.cache_dir())
            .to_owned()
    })
}

/// Today's log file in the default log directory.
pub fn default_log_file() -> Option<PathBuf> {
    log_dir().map(|dir| log_file_in(&dir))
}

/// Start logging to the default log directory at `level`.
pub fn init(level: &str) -> Result<LogGuard, LogError> {
    let dir =
        log_dir().ok_or_else(|| LogError("no home directory for the log files".to_owned()))?;
    init_in(&dir, level)
}

/// Start logging to `dir` at `level` (an `EnvFilter` directive).
pub fn init_in(dir: &Path, level: &str) -> Result<LogGuard, LogError> {
    let filter = EnvFilter::try_new(level).map_err(|e| {
        LogError(format!(
            "bad --log-level / KSCOPE_LOG '{level}': {e} (expected e.g. info, debug, kscope=trace)"
        ))
    })?;
    std::fs::create_dir_all(dir).map_err(|e| {
        LogError(format!(
            "cannot create log directory '{}': {e}",
            dir.display()
        ))
    })?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(PREFIX)
        .filename_suffix(SUFFIX)
        .max_log_files(KEPT_FILES)
        .build(dir)
        .map_err(|e| LogError(format!("cannot open log file in '{}': {e}", dir.display())))?;
    let (writer, worker) = tracing_appender::non_blocking(appender);
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .try_init()
        .map_err(|e| LogError(format!("logging already started: {e}")))?;
    Ok(LogGuard {
        _worker: worker,
        file: log_file_in(dir),
    })
}

/// Install a panic hook that first restores the terminal (`restore`), then
/// logs the panic with a backtrace and tells the user where the log is.
pub fn install_panic_hook(restore: impl Fn() + Send + Sync + 'static, log_file: Option<PathBuf>) {
    std::panic::set_hook(Box::new(move |info| {
        restore();
        let backtrace = std::backtrace::Backtrace::force_capture();
        tracing::error!(target: "kscope::panic", "panic: {info}\n{backtrace}");
        eprintln!("{}", panic_report(&info.to_string(), log_file.as_deref()));
    }));
}

/// What the user reads after a crash.
pub fn panic_report(panic: &str, log_file: Option<&Path>) -> String {
    let log = match log_file {
        Some(path) => format!("the log is at {}", path.display()),
        None => "no log file was open".to_owned(),
    };
    format!("kscope crashed: {panic}\n{log}; please include it when reporting this")
}

/// `YYYY-MM-DD` of `time` in UTC (the date `tracing-appender` names files by).
fn utc_date(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Howard Hinnant's days-to-civil algorithm: days since 1970-01-01 to (y, m, d).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(utc_date(UNIX_EPOCH), "1970-01-01");
        let leap = UNIX_EPOCH + Duration::from_hours(264_384); // 2000-02-29T00:00:00Z
        assert_eq!(utc_date(leap), "2000-02-29");
        let late = UNIX_EPOCH + Duration::from_secs(1_798_761_599); // 2026-12-31T23:59:59Z
        assert_eq!(utc_date(late), "2026-12-31");
    }

    #[test]
    fn the_log_file_is_named_by_date() {
        let file = log_file_in(Path::new("/tmp/logs"));
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert!(
            name.starts_with("kscope.") && file.extension().is_some_and(|e| e == "log"),
            "{name}"
        );
        assert_eq!(name.len(), "kscope.2026-12-02.log".len());
    }

    #[test]
    fn the_panic_report_names_the_log() {
        let report = panic_report("boom", Some(Path::new("/l/kscope.log")));
        assert!(report.contains("boom") && report.contains("/l/kscope.log"));
        assert!(panic_report("boom", None).contains("no log file"));
    }
}
