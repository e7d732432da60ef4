//! The headless CLI: `get` and `watch`, for scripts and for comparing with kcat.
//!
//! Output goes to stdout; a failure is one line on stderr and a non-zero exit.

pub mod args;
mod checks;
mod consume;
mod consume_key;
mod consume_newest;
mod consume_output;
mod consume_owner;
mod consume_raw;
mod consume_sink;
mod error;
pub mod event;
pub mod fleet;
mod get;
pub mod groups;
mod inspect;
mod output;
pub mod partial;
mod record;
mod replay;
pub mod rows;
mod schemas;
pub mod table;
mod watch;
mod watch_configs;
mod watch_groups;

use crate::untrusted::escape;
use std::process::ExitCode;

pub use error::Error;

use crate::conn::ConnectionConfig;
use crate::meta::{Cluster, ClusterConfig, PROBE_GRACE};
use crate::schema::{Decoder, RegistryConfig};
use args::{Command, DescribeWhat, GetCommand, IsolationArg, OutputFormat};
use std::io::Write;

/// A headless command with everything needed to reach its cluster.
#[derive(Debug)]
pub struct Invocation {
    /// `HOST:PORT` addresses to bootstrap from.
    pub bootstrap: Vec<String>,
    /// TLS, SASL, timeouts and read-only mode, from the resolved context.
    pub connection: ConnectionConfig,
    /// `table` or `json`.
    pub output: OutputFormat,
    /// What to do.
    pub command: Command,
    /// The schema registry `consume` decodes through and `get schemas` lists.
    pub schema_registry: Option<RegistryConfig>,
    /// Schemas for values without the wire prefix, by topic.
    pub topic_schemas: Vec<crate::schema::mapping::TopicSchema>,
    /// What `consume` masks before printing.
    pub mask: crate::browse::mask::Masker,
    /// The context's name (for a recording's header; never its settings).
    pub context: Option<String>,
}

/// Run a headless command to completion and report how it went.
pub fn main(invocation: Invocation) -> ExitCode {
    match run(invocation) {
        Ok(()) if partial::happened() => ExitCode::from(partial::PARTIAL_EXIT),
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(Error::Expression(text)) => {
            // The expression and its caret on lines of their own, each escaped.
            let mut lines = text.lines();
            eprintln!("kscope: {}", escape(lines.next().unwrap_or_default()));
            for line in lines {
                eprintln!("{}", escape(line));
            }
            ExitCode::from(2)
        }
        Err(error) => {
            // Error messages carry names and messages from the cluster.
            eprintln!("kscope: {}", escape(&error.to_string()));
            ExitCode::from(error.exit_code())
        }
    }
}

fn run(invocation: Invocation) -> Result<(), Error> {
    let Invocation {
        bootstrap,
        connection,
        output,
        command,
        schema_registry,
        topic_schemas,
        mask,
        context,
    } = invocation;
    if let Command::Get {
        what: GetCommand::Schemas,
        ..
    } = &command
    {
        return schemas_only(schema_registry.as_ref(), output);
    }
    if let Some(done) = replay::from_file(&command, output) {
        return done;
    }
    if let Command::Record {
        with_records: Some(_),
        ..
    } = &command
    {
        return Err(Error::Usage(
            "record --with-records is not yet supported (recordings hold no record contents)"
                .to_owned(),
        ));
    }
    if let Some(refused) = checks::anonymize_refuses(&command) {
        return Err(refused);
    }
    if bootstrap.is_empty() {
        return Err(Error::NoBootstrap);
    }
    if output == OutputFormat::Raw && !matches!(command, Command::Consume { .. }) {
        return Err(Error::Usage("-o raw is for consume only".to_owned()));
    }
    if output == OutputFormat::Csv && !checks::csv_supported(&command) {
        return Err(Error::Usage(
            "-o csv is for consume and the get listings (not get cluster, describe or watch)"
                .to_owned(),
        ));
    }
    let watching = checks::watch_filter(&command)?;
    // consume decodes fetches on their own tasks while this thread prints:
    // a worker thread of their own lets the two overlap.
    let runtime = if matches!(command, Command::Consume { .. }) {
        crate::memory::tune_for_streaming();
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    }
    .map_err(Error::Runtime)?;
    let extras = Extras {
        schema_registry,
        topic_schemas,
        mask,
    };
    runtime.block_on(async {
        let started = tokio::time::Instant::now();
        let mut config = ClusterConfig {
            connection,
            quorum_deadline: HEADLESS_QUORUM_DEADLINE,
            ..ClusterConfig::default()
        };
        if let Command::Watch { interval, .. } | Command::Record { interval, .. } = &command {
            config.refresh_interval = args::interval(*interval);
            config.quorum_deadline = crate::meta::QUORUM_DEADLINE;
        }
        let cluster = Cluster::connect(bootstrap, config).await?;
        // Liveness is checked beside the command (watch reports it as events
        // instead): the answer is printed from what the brokers hold, and
        // stderr says afterwards when that is stale or partial.
        let probe = (!matches!(command, Command::Watch { .. } | Command::Record { .. }))
            .then(|| cluster.probe_liveness(started));
        let done = if matches!(command, Command::Consume { .. }) {
            // Records are many: one write per buffer, not per line, and not
            // through std's line-buffered stdout, which scans every write
            // for its last newline (a 100 KiB value included).
            let mut out = std::io::BufWriter::with_capacity(CONSUME_BUFFER, unbuffered_stdout());
            let done = dispatch(&cluster, command, None, output, extras, &mut out).await;
            done.and(out.flush().map_err(Error::from))
        } else if let Command::Record { .. } = command {
            record::run(&cluster, record::args(command, context)?).await
        } else {
            let mut out = std::io::stdout().lock();
            dispatch(&cluster, command, watching, output, extras, &mut out).await
        };
        if let Some(probe) = probe {
            for warning in probe.finish(PROBE_GRACE).await.warnings() {
                eprintln!("kscope: warning: {warning}");
            }
        }
        done
    })
}

/// How long a headless command's connect waits for `DescribeQuorum` (the
/// TUI waits a second): a healthy quorum answers in milliseconds, and a hung
/// controller must not hold a `get` back; past it, stderr says the quorum
/// does not answer.
const HEADLESS_QUORUM_DEADLINE: std::time::Duration = std::time::Duration::from_millis(200);

/// `consume`'s stdout buffer: large enough that writes are few, small
/// enough that a slow reader sees records soon (it is flushed after every
/// batch of records handed out, too).
const CONSUME_BUFFER: usize = 64 * 1024;

/// Standard output without std's line buffering: a duplicate of its file
/// descriptor (std's handle is used only if that cannot be made).
fn unbuffered_stdout() -> Box<dyn Write> {
    use std::os::fd::AsFd as _;
    match std::io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => Box::new(std::fs::File::from(fd)),
        Err(_) => Box::new(std::io::stdout()),
    }
}

/// What only some commands need from the invocation.
struct Extras {
    schema_registry: Option<RegistryConfig>,
    topic_schemas: Vec<crate::schema::mapping::TopicSchema>,
    mask: crate::browse::mask::Masker,
}

/// Run `command` on `cluster`, printing to `out`.
async fn dispatch(
    cluster: &Cluster,
    command: Command,
    watching: Option<watch::Filter>,
    output: OutputFormat,
    extras: Extras,
    out: &mut impl Write,
) -> Result<(), Error> {
    match command {
        Command::Get {
            what: GetCommand::Groups,
            ..
        } => {
            let warnings = groups::get_groups(cluster, output, out).await?;
            for warning in warnings {
                partial::missing(escape(&warning));
            }
            Ok(())
        }
        Command::Describe {
            what,
            name,
            clients,
            stuck_over,
        } => {
            describe(
                cluster,
                what,
                &name,
                clients,
                stuck_over.as_deref(),
                output,
                out,
            )
            .await
        }
        Command::Get { what, .. } => match what.listing() {
            Some((listing, topic)) => get::run(cluster, listing, topic, output, out).await,
            None => inspect::run(cluster, &what, output, out).await,
        },
        Command::Consume {
            topic,
            partition,
            from,
            count,
            key,
            key_raw,
            key_scan,
            owner,
            follow,
            grep,
            filter,
            project,
            isolation,
        } => {
            let key = match (key, key_raw) {
                (Some(text), _) => Some(consume_key::KeyArg::text(&text, key_scan)),
                (None, Some(raw)) => Some(consume_key::KeyArg::raw(&raw, key_scan)?),
                (None, None) if key_scan => {
                    return Err(Error::Usage(
                        "--key-scan needs --key or --key-raw".to_owned(),
                    ));
                }
                (None, None) => None,
            };
            let owner = consume::Owner::of(&topic, owner)?;
            let args = consume::ConsumeArgs {
                shown_topic: crate::anonymize::name(crate::anonymize::Kind::Topic, &topic),
                topic,
                partition,
                from,
                count,
                follow,
                grep,
                jq: consume::JqArgs::compile(filter.as_deref(), project.as_deref())?,
                key,
                owner,
                isolation: match isolation {
                    IsolationArg::Committed => crate::browse::Isolation::ReadCommitted,
                    IsolationArg::Uncommitted => crate::browse::Isolation::ReadUncommitted,
                },
                mappings: crate::schema::mapping::Mappings::new(extras.topic_schemas),
                mask: extras.mask,
            };
            let decoder = extras
                .schema_registry
                .as_ref()
                .map(Decoder::new)
                .transpose()?;
            consume::run(cluster, args, decoder.as_ref(), output, out).await
        }
        Command::Watch {
            topic,
            what,
            groups,
            group_interval,
            ..
        } => {
            let filter = watching.unwrap_or_else(watch::Filter::leaders);
            let groups = watch_groups::GroupWatch::of(what, groups.as_deref(), group_interval)?;
            watch::run(cluster, topic.as_deref(), &filter, groups, output, out).await
        }
        // Run by `run` before it gets here.
        Command::Record { .. } => Err(Error::Usage("record is run on its own".to_owned())),
    }
}

/// `describe WHAT NAME [--clients] [--stuck-over SPAN]`.
async fn describe(
    cluster: &Cluster,
    what: DescribeWhat,
    name: &str,
    clients: bool,
    stuck_over: Option<&str>,
    output: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    match (what, clients, stuck_over) {
        (DescribeWhat::Group, true, _) => Err(Error::Usage(
            "--clients goes with `describe topic`, not `describe group`".to_owned(),
        )),
        (DescribeWhat::Group, false, span) => {
            let span = span.map(groups::stuck::span).transpose()?;
            Ok(groups::describe_group_over(cluster, name, span, output, out).await?)
        }
        (DescribeWhat::Topic, _, Some(_)) => Err(Error::Usage(
            "--stuck-over goes with `describe group`, not `describe topic`".to_owned(),
        )),
        (DescribeWhat::Topic, true, None) => {
            inspect::topic_clients::run(cluster, name, output, out).await
        }
        (DescribeWhat::Topic, false, None) => {
            inspect::describe_topic::run(cluster, name, output, out).await
        }
    }
}

/// `get schemas`: the registry only, no broker.
fn schemas_only(registry: Option<&RegistryConfig>, output: OutputFormat) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let mut out = std::io::stdout().lock();
    runtime.block_on(schemas::run(registry, output, &mut out))
}
