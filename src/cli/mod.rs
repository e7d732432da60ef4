//! The headless CLI: `get` and `watch`, for scripts and for comparing with kcat.
//!
//! Output goes to stdout; a failure is one line on stderr and a non-zero exit.

pub mod args;
mod consume;
mod error;
pub mod event;
mod get;
pub mod groups;
mod inspect;
mod output;
pub mod rows;
mod schemas;
pub mod table;
mod watch;

use crate::untrusted::escape;
use std::process::ExitCode;

pub use error::Error;

use crate::conn::ConnectionConfig;
use crate::meta::{Cluster, ClusterConfig};
use crate::schema::{Decoder, RegistryConfig};
use args::{Command, DescribeWhat, GetCommand, IsolationArg, OutputFormat};

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
}

/// Run a headless command to completion and report how it went.
pub fn main(invocation: Invocation) -> ExitCode {
    match run(invocation) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
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
    } = invocation;
    if let Command::Get {
        what: GetCommand::Schemas,
    } = &command
    {
        return schemas_only(schema_registry.as_ref(), output);
    }
    if bootstrap.is_empty() {
        return Err(Error::NoBootstrap);
    }
    if output == OutputFormat::Raw && !matches!(command, Command::Consume { .. }) {
        return Err(Error::Usage("-o raw is for consume only".to_owned()));
    }
    // consume decodes fetches on their own tasks while this thread prints:
    // a worker thread of their own lets the two overlap.
    let runtime = if matches!(command, Command::Consume { .. }) {
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
    runtime.block_on(async {
        let mut config = ClusterConfig {
            connection,
            ..ClusterConfig::default()
        };
        if let Command::Watch { interval, .. } = &command {
            config.refresh_interval = args::interval(*interval);
        }
        let cluster = Cluster::connect(bootstrap, config).await?;
        if !matches!(command, Command::Watch { .. }) {
            // Answer from what the brokers hold, but say when that is stale
            // or partial (watch reports the same as events instead).
            for warning in cluster.check_liveness().await.warnings() {
                eprintln!("kscope: warning: {warning}");
            }
        }
        let mut out = std::io::stdout().lock();
        match command {
            Command::Get {
                what: GetCommand::Groups,
            } => {
                let warnings = groups::get_groups(&cluster, output, &mut out).await?;
                for warning in warnings {
                    eprintln!("kscope: {}", escape(&warning));
                }
                Ok(())
            }
            Command::Describe {
                what: DescribeWhat::Group,
                name,
            } => Ok(groups::describe_group(&cluster, &name, output, &mut out).await?),
            Command::Describe {
                what: DescribeWhat::Topic,
                name,
            } => inspect::describe_topic::run(&cluster, &name, output, &mut out).await,
            Command::Get { what } => match what.listing() {
                Some((listing, topic)) => {
                    get::run(&cluster, listing, topic, output, &mut out).await
                }
                None => inspect::run(&cluster, &what, output, &mut out).await,
            },
            Command::Consume {
                topic,
                partition,
                from,
                count,
                follow,
                grep,
                isolation,
            } => {
                let args = consume::ConsumeArgs {
                    topic,
                    partition,
                    from,
                    count,
                    follow,
                    grep,
                    isolation: match isolation {
                        IsolationArg::Committed => crate::browse::Isolation::ReadCommitted,
                        IsolationArg::Uncommitted => crate::browse::Isolation::ReadUncommitted,
                    },
                    mappings: crate::schema::mapping::Mappings::new(topic_schemas),
                };
                let decoder = schema_registry.as_ref().map(Decoder::new).transpose()?;
                consume::run(&cluster, args, decoder.as_ref(), output, &mut out).await
            }
            Command::Watch { topic, .. } => {
                watch::run(&cluster, topic.as_deref(), output, &mut out).await
            }
        }
    })
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
