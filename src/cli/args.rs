//! The command line. Connection flags live in [`ConnectionArgs`] so that the
//! config/contexts work (`--context`, `-X`, a config file) can be merged in.

use std::time::Duration;

use clap::{Args as ClapArgs, Parser, Subcommand, ValueEnum};

/// kscope: browse Apache Kafka clusters from the terminal.
#[derive(Debug, Parser)]
#[command(name = "kscope", version, about)]
pub struct Args {
    /// How to reach the cluster.
    #[command(flatten)]
    pub connection: ConnectionArgs,
    /// Output format of headless commands.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = OutputFormat::Table, global = true)]
    pub output: OutputFormat,
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Where the cluster is.
#[derive(Debug, Clone, ClapArgs)]
pub struct ConnectionArgs {
    /// Bootstrap servers, `HOST:PORT[,HOST:PORT...]`.
    #[arg(
        short = 'b',
        long = "bootstrap-servers",
        env = "KSCOPE_BOOTSTRAP",
        global = true
    )]
    pub bootstrap: Option<String>,
}

impl ConnectionArgs {
    /// The bootstrap addresses, trimmed, empty entries dropped.
    pub fn bootstrap_list(&self) -> Vec<String> {
        self.bootstrap
            .as_deref()
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    }
}

/// `table` (aligned columns) or `json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Aligned columns with a header.
    Table,
    /// JSON: one array for `get`, one object per line for `watch`.
    Json,
}

/// The headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print brokers, topics or partitions once.
    Get {
        /// What to print.
        #[arg(value_enum)]
        what: GetWhat,
        /// Only this topic (topics, partitions).
        topic: Option<String>,
    },
    /// Follow changes until interrupted.
    Watch {
        /// What to follow.
        #[arg(value_enum)]
        what: WatchWhat,
        /// Only this topic (refreshed more often).
        topic: Option<String>,
        /// Seconds between full metadata refreshes.
        #[arg(long, default_value_t = 2.0)]
        interval: f64,
    },
}

/// What `get` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GetWhat {
    /// Brokers: id, host, port, rack, controller, leaders.
    Brokers,
    /// Topics with partition counts and health.
    Topics,
    /// Partitions with leaders, replicas and watermarks.
    Partitions,
}

/// What `watch` follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WatchWhat {
    /// Leader movement: leaders, ISR, replicas, brokers, controller, topics.
    Leaders,
}

/// A refresh interval from seconds, kept sane.
pub fn interval(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.clamp(0.1, 3600.0)).unwrap_or(Duration::from_secs(2))
}
