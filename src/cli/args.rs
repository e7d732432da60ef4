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
    /// JSON: one array for `get`, one object per line for `watch` and `consume`.
    Json,
    /// `consume` only: each record's value bytes verbatim, one per line,
    /// only when stdout is not a terminal.
    Raw,
    /// CSV (RFC 4180) with a header row: `consume` and the `get` tables.
    Csv,
}

/// The headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print brokers, topics, partitions, groups, configs, ACLs or SCRAM
    /// users once.
    Get {
        /// What to print.
        #[command(subcommand)]
        what: GetCommand,
        /// Answer from a recording (`kscope record`) instead of the cluster:
        /// brokers, topics, partitions and groups.
        #[arg(long, global = true, value_name = "FILE")]
        from_file: Option<std::path::PathBuf>,
        /// With `--from-file`: the moment to answer for: RFC 3339, `+90s`
        /// after the start, `-1m` before the end, `start` or `end` (the
        /// default).
        #[arg(
            long,
            global = true,
            requires = "from_file",
            allow_hyphen_values = true
        )]
        at: Option<String>,
    },
    /// Record metadata, events, liveness and groups to a file until
    /// `--duration` passes or Ctrl-C (nothing is written to the cluster).
    Record {
        /// The file to write (replaced if it exists).
        #[arg(long, value_name = "FILE")]
        to: std::path::PathBuf,
        /// How long to record (`90s`, `10m`, `1h30m`); until Ctrl-C when absent.
        #[arg(long)]
        duration: Option<String>,
        /// Only topics whose name matches this regex.
        #[arg(long, value_name = "RE")]
        topics: Option<String>,
        /// Only groups whose id matches this regex.
        #[arg(long, value_name = "RE")]
        groups: Option<String>,
        /// Also record up to N records per partition (not yet supported).
        #[arg(long, value_name = "N")]
        with_records: Option<u64>,
        /// Seconds between full metadata refreshes.
        #[arg(long, default_value_t = 2.0)]
        interval: f64,
        /// Seconds between reads of the group list with lag (0: no groups).
        #[arg(long, default_value_t = 10.0)]
        group_interval: f64,
    },
    /// Show one thing in detail.
    Describe {
        /// What to describe.
        #[arg(value_enum)]
        what: DescribeWhat,
        /// Its name (the group id).
        name: String,
        /// With `topic`: instead, who touches it — the producers writing it
        /// now, the groups reading it with their members, and the
        /// principals whose ACLs allow or deny writing and reading it.
        #[arg(long)]
        clients: bool,
        /// With `group`: read the offsets 3 times over this span (`15s`;
        /// longer than the consumers' commit interval) and mark the
        /// partitions whose commit stood still while records arrived
        /// (STUCK), with the member owning each.
        #[arg(long, value_name = "SPAN")]
        stuck_over: Option<String>,
    },
    /// Print a topic's records (never joins a group, never commits).
    Consume {
        topic: String,
        /// Only this partition (default: all, merged by timestamp).
        #[arg(short = 'p', long)]
        partition: Option<i32>,
        /// Where to start: beginning, end, OFFSET, -N (N before the end),
        /// `@EPOCH_MS`, an ISO 8601 time, -15m (relative time), group:NAME
        /// (default: beginning; with `--key`, newest first).
        #[arg(long, allow_hyphen_values = true)]
        from: Option<String>,
        /// Stop after this many records (with `--key` and no `--from`: 1,
        /// the newest record with the key).
        #[arg(short = 'n', long = "count")]
        count: Option<u64>,
        /// Only records with this key (its UTF-8 bytes), read from the one
        /// partition the Java client's default partitioner puts it in.
        #[arg(long, conflicts_with_all = ["partition", "key_raw"])]
        key: Option<String>,
        /// Like `--key`, the key's bytes given as hex (`hex:00000001…`) or
        /// base64 (`base64:AAAAAQ==`): a key with a schema, say.
        #[arg(long, conflicts_with = "partition")]
        key_raw: Option<String>,
        /// With `--key`: read every partition, not only the key's (records
        /// written before the partition count changed sit elsewhere).
        #[arg(long)]
        key_scan: bool,
        #[command(flatten)]
        owner: OwnerArgs,
        /// Keep reading new records past the end.
        #[arg(short = 'f', long)]
        follow: bool,
        /// Only records whose key or value matches this regex.
        #[arg(long)]
        grep: Option<String>,
        /// Only records for which this jq expression yields a value other
        /// than false or null; its input is the object `-o json` prints
        /// (a JSON key or value parsed, a schema's decoding as its JSON):
        /// `.value.status == "FAILED"`.
        #[arg(long, value_name = "EXPR")]
        filter: Option<String>,
        /// Print what this jq expression yields for each record (one JSON
        /// value a line) instead of the record (`-o` is not used).
        #[arg(long, value_name = "EXPR")]
        project: Option<String>,
        /// committed (aborted transactions hidden) or uncommitted.
        #[arg(long, value_enum, default_value_t = IsolationArg::Committed)]
        isolation: IsolationArg,
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
        /// `watch events` only: these kinds (comma-separated, e.g.
        /// `isr_shrank,partition_offline`); every kind when absent.
        #[arg(long, value_delimiter = ',')]
        kinds: Vec<String>,
        /// `watch events` only: read only the groups whose id matches this
        /// regex for the group events (every group when absent).
        #[arg(long, value_name = "RE")]
        groups: Option<String>,
        /// `watch events` only: seconds between reads of the group list
        /// with lag (at least four times as long as a read takes; 0: no
        /// group events).
        #[arg(long, default_value_t = 10.0)]
        group_interval: f64,
        /// Print the events of a recording (`kscope record`) and exit.
        #[arg(long, value_name = "FILE")]
        from_file: Option<std::path::PathBuf>,
        /// With `--from-file`: only events up to this moment (see `get --at`).
        #[arg(long, requires = "from_file", allow_hyphen_values = true)]
        at: Option<String>,
    },
}

/// `--isolation` of `consume`.
/// `consume`'s flags that read one owner's records of Kafka's own topics:
/// a group's, a share group's or a transactional id's.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct OwnerArgs {
    /// `__consumer_offsets`: this group's commit history and metadata,
    /// read from the one partition that holds the group.
    /// `__share_group_state`: this share group's state records (of every
    /// partition it consumes, or of `--share-partition`'s).
    #[arg(long, conflicts_with_all = ["partition", "key", "key_raw"])]
    pub group: Option<String>,
    /// `__share_group_state` with `--group`: only the state of this
    /// topic partition (`TOPIC:PARTITION`) as the share group consumes
    /// it, read from the one partition that holds it.
    #[arg(long, value_name = "TOPIC:PARTITION", requires = "group")]
    pub share_partition: Option<String>,
    /// `__transaction_state` only: this transactional id's transactions,
    /// read from the one partition that holds it.
    #[arg(long, conflicts_with_all = ["partition", "key", "key_raw", "group"])]
    pub transactional_id: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IsolationArg {
    /// Committed records only; aborted transactions hidden (the default).
    Committed,
    /// Every record, aborted transactions too.
    Uncommitted,
}

/// What `get` prints.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum GetCommand {
    /// Brokers: id, host, port, rack, controller, leaders.
    Brokers {
        /// Add disk usage per log dir (one `DescribeLogDirs` per broker).
        #[arg(long)]
        sizes: bool,
    },
    /// Topics with partition counts and health.
    Topics {
        /// Only this topic.
        topic: Option<String>,
        /// Add sizes: all replicas and leaders only (one `DescribeLogDirs`
        /// per broker).
        #[arg(long)]
        sizes: bool,
    },
    /// Partitions with leaders, replicas and watermarks.
    Partitions {
        /// Only this topic.
        topic: Option<String>,
    },
    /// Consumer groups: type, state, members, coordinator, lag, topics.
    Groups,
    /// Configs of a topic or a broker: value, source, default, sensitive,
    /// read-only.
    Config {
        /// Whose configs.
        #[command(subcommand)]
        of: ConfigOf,
    },
    /// ACLs: principal, host, operation, permission, resource.
    Acls {
        /// Only the ACLs that apply to this topic: its literal ones, the
        /// prefixed ones matching it and `*` (super users are not ACLs and
        /// are not listed).
        #[arg(long)]
        topic: Option<String>,
    },
    /// SCRAM users: mechanisms and iterations (never a secret).
    Users,
    /// Client quotas: entity (user, client id, IP or their defaults), key
    /// and value.
    Quotas,
    /// Open transactions (not yet committed or aborted): id, state,
    /// producer, start, timeout, coordinator, partitions.
    Transactions,
    /// A partition's active producers (asked of its leader): id, epoch,
    /// last sequence and write, and the first offset of an open transaction.
    Producers {
        topic: String,
        #[arg(short = 'p', long, default_value_t = 0)]
        partition: i32,
    },
    /// The `KRaft` quorum: leader, epoch, voters and observers with their lag.
    Quorum,
    /// Schema-registry subjects: latest version, id, type, version count,
    /// compatibility (needs a registry: context `schema_registry` or
    /// `-X schema.registry.url=URL`; no broker is asked).
    Schemas,
    /// The cluster: id, controller, quorum voters and observers, features
    /// (supported and finalized) and partition reassignments in progress.
    Cluster,
    /// Every context in the config file (and the `-b` one-off) at once:
    /// health, brokers answering, controller, version, partitions
    /// under-replicated and offline, groups and the worst lag seen, worst
    /// first. Exit 3 when some context did not answer.
    Fleet,
}

/// Whose configs `get config` prints.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum ConfigOf {
    /// One topic's configs.
    Topic {
        /// The topic.
        name: String,
    },
    /// One broker's configs (asked of that broker).
    Broker {
        /// Its node id.
        id: i32,
    },
    /// The cluster-wide dynamic broker defaults.
    BrokerDefaults,
    /// One group's configs (Kafka 4.0+: session and heartbeat timeouts,
    /// share and streams settings).
    Group {
        /// The group id.
        name: String,
    },
}

impl Command {
    /// Whether this answers from a recording (`--from-file`), needing no
    /// cluster and no context.
    pub fn reads_recording(&self) -> bool {
        matches!(
            self,
            Command::Get {
                from_file: Some(_),
                ..
            } | Command::Watch {
                from_file: Some(_),
                ..
            }
        )
    }
}

impl GetCommand {
    /// The plain metadata listing this is (answered from one Metadata
    /// request), with its topic; `None` for everything else.
    pub fn listing(&self) -> Option<(GetWhat, Option<&str>)> {
        match self {
            GetCommand::Brokers { sizes: false } => Some((GetWhat::Brokers, None)),
            GetCommand::Topics {
                topic,
                sizes: false,
            } => Some((GetWhat::Topics, topic.as_deref())),
            GetCommand::Partitions { topic } => Some((GetWhat::Partitions, topic.as_deref())),
            GetCommand::Groups => Some((GetWhat::Groups, None)),
            _ => None,
        }
    }
}

/// The metadata listings `get` prints from the snapshot.
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
    /// One topic: partitions, configs that differ from the default, size on
    /// disk, and the groups consuming it with their lag.
    Topic,
}

/// What `watch` follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WatchWhat {
    /// Leader movement: leaders, ISR, replicas, brokers, controller, topics.
    Leaders,
    /// Every event kscope derives: leader movement plus partitions added,
    /// quorum elections and folded storms, with severity and source.
    Events,
}

/// A refresh interval from seconds, kept sane.
pub fn interval(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.clamp(0.1, 3600.0)).unwrap_or(Duration::from_secs(2))
}
