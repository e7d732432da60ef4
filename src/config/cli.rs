//! The command-line side of configuration: connection flags meant to be
//! `#[command(flatten)]`-ed into the top-level CLI, the `config`, `info` and
//! `completions` subcommands, and `resolve`, which turns flags plus file into
//! one [`ResolvedContext`].

use std::io::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use clap_complete::Shell;

use super::check;
use super::error::ConfigError;
use super::info;
use super::load::{self, LoadedConfig};
use super::overrides;
use super::resolve::{self, ResolvedContext, Selection};
use crate::logging;

/// Which cluster to use and how: shared by the TUI and every headless command.
/// `Debug` redacts `-X` secrets (`sasl.password=...`).
#[derive(Clone, Default, Args)]
pub struct ConnectArgs {
    /// Bootstrap servers, HOST:PORT[,HOST:PORT...]. Alone: a one-off context
    /// (like kcat); with --context: replaces that context's servers.
    #[arg(
        short = 'b',
        long = "bootstrap-servers",
        value_name = "HOST:PORT",
        global = true
    )]
    pub bootstrap_servers: Option<String>,
    /// `KSCOPE_BOOTSTRAP` (as exported by a sourced `cluster.env`): a one-off
    /// context, but only when neither -b nor --context / `KSCOPE_CONTEXT` is
    /// given, so it can never redirect a named context to another cluster.
    #[arg(
        long = "bootstrap-env",
        env = "KSCOPE_BOOTSTRAP",
        hide = true,
        global = true
    )]
    pub bootstrap_env: Option<String>,
    /// The context (cluster) from the config file to use.
    #[arg(long, env = "KSCOPE_CONTEXT", value_name = "NAME", global = true)]
    pub context: Option<String>,
    /// The config file (default: ~/.config/kscope/config.toml, or under the XDG config home).
    #[arg(long, env = "KSCOPE_CONFIG", value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// librdkafka-style override, repeatable: security.protocol, sasl.mechanism,
    /// sasl.username, sasl.password, ssl.ca.location, ssl.certificate.location, ssl.key.location,
    /// schema.registry.url, schema.registry.basic.auth.user.info (USER:PASSWORD),
    /// schema.registry.ssl.ca.location.
    #[arg(short = 'X', value_name = "KEY=VALUE", global = true)]
    pub overrides: Vec<String>,
    /// Log filter: error, warn, info, debug, trace, or directives like kscope=debug.
    #[arg(
        long,
        env = "KSCOPE_LOG",
        value_name = "LEVEL",
        default_value = "info",
        global = true
    )]
    pub log_level: String,
    /// Mask in every topic, repeatable: a path into the record as jq sees it
    /// (`.value.card.number`, `.key`, `.headers.auth`) or a regex between
    /// slashes over text (`/\d{16}/`). Masked values show as `********`.
    #[arg(long, value_name = "RULE", global = true)]
    pub mask: Vec<String>,
    /// Refuse every request that changes the cluster, whatever the context says.
    #[arg(long, global = true)]
    pub read_only: bool,
    /// Open the TUI on the fleet screen: every context of the config (and
    /// `-b`) at a glance, worst first.
    #[arg(long)]
    pub fleet: bool,
}

impl std::fmt::Debug for ConnectArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectArgs")
            .field("bootstrap_servers", &self.bootstrap_servers)
            .field("bootstrap_env", &self.bootstrap_env)
            .field("context", &self.context)
            .field("config", &self.config)
            .field("overrides", &overrides::redacted(&self.overrides))
            .field("log_level", &self.log_level)
            .field("read_only", &self.read_only)
            .field("mask", &self.mask)
            .field("fleet", &self.fleet)
            .finish()
    }
}

impl ConnectArgs {
    /// The part of the flags that selects and adjusts a context.
    pub fn selection(&self) -> Selection {
        Selection {
            context: self.context.clone(),
            bootstrap: self.bootstrap_servers.clone().or_else(|| {
                self.context
                    .is_none()
                    .then(|| self.bootstrap_env.clone())
                    .flatten()
            }),
            overrides: self.overrides.clone(),
            read_only: self.read_only,
            mask: self.mask.clone(),
        }
    }
}

/// Load the config file the flags point at and resolve the selected context.
/// Call before touching the terminal; on error print it and exit with
/// [`ConfigError::exit_code`].
pub fn resolve(args: &ConnectArgs) -> Result<ResolvedContext, ConfigError> {
    let loaded = load::load(args.config.as_deref())?;
    resolve::resolve(&loaded, &args.selection())
}

/// The configuration subcommands, to `#[command(flatten)]` into the top-level ones.
#[derive(Debug, Clone, Subcommand)]
pub enum ConfigCommands {
    /// Inspect or test the config file.
    #[command(subcommand)]
    Config(ConfigAction),
    /// Show the config file and log file in use and the contexts (no secrets).
    Info,
    /// Print a shell completion script, e.g. `kscope completions bash > ~/.bash_completion.d/kscope`.
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
}

/// `kscope config ...`.
#[derive(Debug, Clone, Subcommand)]
pub enum ConfigAction {
    /// Print the path of the config file in use.
    Path,
    /// Check the file, resolve the context and connect: prints the broker count.
    Check,
}

impl ConfigCommands {
    /// Run the subcommand; returns the process exit code. `cli` is the
    /// top-level command (`Cli::command()`), for completions.
    pub fn run(&self, args: &ConnectArgs, cli: &mut clap::Command) -> i32 {
        // Logging starts only for commands that talk to a cluster, and lives
        // until the error below is logged too.
        let _log = matches!(self, Self::Config(ConfigAction::Check)).then(|| start_logging(args));
        let result = match self {
            Self::Config(ConfigAction::Path) => print_path(args),
            Self::Config(ConfigAction::Check) => run_check(args),
            Self::Info => run_info(args),
            Self::Completions { shell } => {
                // Into memory first: clap_complete's own writer panics when
                // stdout closes early (`| head`).
                let mut script = Vec::new();
                clap_complete::generate(*shell, cli, "kscope", &mut script);
                print_out(&script)
            }
        };
        match result {
            Ok(()) => 0,
            Err(error) => {
                tracing::error!(%error, "command failed");
                eprintln!("kscope: {error}");
                error.exit_code()
            }
        }
    }
}

fn print_path(args: &ConnectArgs) -> Result<(), ConfigError> {
    match load::config_path(args.config.as_deref()) {
        Some(path) => print_out(format!("{}\n", path.display()).as_bytes()),
        None => Err(ConfigError::Environment(
            "no home directory: pass --config".to_owned(),
        )),
    }
}

/// Write `bytes` to stdout. A reader that went away (`| head`) is not an
/// error: there is no one left to tell. Any other write failure is.
fn print_out(bytes: &[u8]) -> Result<(), ConfigError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(
            ConfigError::Environment(format!("cannot write to stdout: {error}")),
        ),
        _ => Ok(()),
    }
}

fn run_info(args: &ConnectArgs) -> Result<(), ConfigError> {
    let loaded: LoadedConfig = load::load(args.config.as_deref())?;
    let config_path = load::config_path(args.config.as_deref()).map(|p| p.display().to_string());
    let log_file = logging::default_log_file().map(|p| p.display().to_string());
    print_warnings(&loaded.warnings);
    let report = info::report(&loaded, config_path.as_deref(), log_file.as_deref());
    print_out(report.as_bytes())
}

fn run_check(args: &ConnectArgs) -> Result<(), ConfigError> {
    let context = resolve(args)?;
    print_warnings(&context.warnings);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ConfigError::Environment(format!("cannot start the async runtime: {e}")))?;
    let summary = runtime.block_on(check::check(&context))?;
    let mode = if context.read_only {
        "read-only"
    } else {
        "read-write"
    };
    let line = format!(
        "context '{}' ({}, {mode}): {} brokers via {}{}\n",
        context.name,
        context.security(),
        summary.brokers,
        summary.address,
        summary
            .cluster_id
            .map(|id| format!(", cluster id {id}"))
            .unwrap_or_default()
    );
    print_out(line.as_bytes())
}

/// Start the file log; a failure is reported and kscope goes on without one.
pub fn start_logging(args: &ConnectArgs) -> Option<logging::LogGuard> {
    match logging::init(&args.log_level) {
        Ok(guard) => Some(guard),
        Err(error) => {
            eprintln!("kscope: warning: {error}; going on without a log file");
            None
        }
    }
}

/// Print config warnings to stderr (before the terminal is taken) and log them.
pub fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        tracing::warn!("{warning}");
        eprintln!("kscope: warning: {warning}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_of_the_flags_never_shows_a_dash_x_password() {
        let args = ConnectArgs {
            overrides: vec![
                "sasl.password=flag-secret".to_owned(),
                "sasl.username=al".to_owned(),
            ],
            ..ConnectArgs::default()
        };
        let debug = format!("{args:?} {:?}", args.selection());
        assert!(debug.contains("sasl.username=al"), "{debug}");
        assert!(!debug.contains("flag-secret"), "{debug}");
    }

    #[test]
    fn kscope_bootstrap_is_a_one_off_only_without_dash_b_or_a_context() {
        let env = ConnectArgs {
            bootstrap_env: Some("e:1".into()),
            ..ConnectArgs::default()
        };
        assert_eq!(env.selection().bootstrap.as_deref(), Some("e:1"));
        let flag = ConnectArgs {
            bootstrap_servers: Some("b:1".into()),
            ..env.clone()
        };
        assert_eq!(flag.selection().bootstrap.as_deref(), Some("b:1"));
        let named = ConnectArgs {
            context: Some("prod".into()),
            ..env
        };
        assert_eq!(
            named.selection().bootstrap,
            None,
            "env must not redirect a named context"
        );
    }
}
