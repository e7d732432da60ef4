//! The headless CLI: `get` and `watch`, for scripts and for comparing with kcat.
//!
//! Output goes to stdout; a failure is one line on stderr and a non-zero exit.

pub mod args;
mod error;
pub mod event;
mod get;
pub mod rows;
pub mod table;
mod watch;

use std::process::ExitCode;

pub use args::Args;
pub use error::Error;

use crate::meta::{Cluster, ClusterConfig};
use args::Command;

/// Run a parsed command line to completion and report how it went.
pub fn main(args: Args) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("kscope: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

fn run(args: Args) -> Result<(), Error> {
    let Some(command) = args.command else {
        return Err(Error::Usage(
            "no command given; try: kscope -b HOST:PORT get topics".to_owned(),
        ));
    };
    let bootstrap = args.connection.bootstrap_list();
    if bootstrap.is_empty() {
        return Err(Error::NoBootstrap);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    runtime.block_on(async {
        let mut config = ClusterConfig::default();
        if let Command::Watch { interval, .. } = &command {
            config.refresh_interval = args::interval(*interval);
        }
        let cluster = Cluster::connect(bootstrap, config).await?;
        let mut out = std::io::stdout().lock();
        match command {
            Command::Get { what, topic } => {
                get::run(&cluster, what, topic.as_deref(), args.output, &mut out).await
            }
            Command::Watch { topic, .. } => {
                watch::run(&cluster, topic.as_deref(), args.output, &mut out).await
            }
        }
    })
}
