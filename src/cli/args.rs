//! The headless commands' arguments. How the cluster is reached (`-b`,
//! `--context`, `-X`, the config file) is the config layer's `ConnectArgs`;
//! the binary resolves it and hands the result to [`super::main`].

use std::time::Duration;

use clap::{Subcommand, ValueEnum};

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
    /// Show one thing in detail.
    Describe {
        /// What to describe.
        #[arg(value_enum)]
        what: DescribeWhat,
        /// Its name (the group id).
        name: String,
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
    /// Consumer groups: type, state, members, coordinator, lag, topics.
    Groups,
}

/// What `describe` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DescribeWhat {
    /// One consumer group: members, assignments, offsets and lag.
    Group,
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
