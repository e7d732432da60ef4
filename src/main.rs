//! The `kscope` binary: parses the command line and hands over to the library.

use clap::{CommandFactory, Parser, Subcommand};
use kscope::config::cli::{ConfigCommands, ConnectArgs};

/// kscope: browse Apache Kafka clusters from the terminal.
#[derive(Debug, Parser)]
#[command(name = "kscope", version, about)]
struct Cli {
    #[command(flatten)]
    connect: ConnectArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    #[command(flatten)]
    Config(ConfigCommands),
}

fn main() {
    let cli = Cli::parse();
    if let Some(Command::Config(command)) = &cli.command {
        std::process::exit(command.run(&cli.connect, &mut Cli::command()));
    }
    // Resolve the context before the terminal is touched: a bad config is one
    // message naming file, line and column, and exit code 2.
    let context = match kscope::config::cli::resolve(&cli.connect) {
        Ok(context) => context,
        Err(error) => {
            eprintln!("kscope: {error}");
            std::process::exit(error.exit_code());
        }
    };
    kscope::config::cli::print_warnings(&context.warnings);
    println!(
        "kscope {}: context '{}' ({}), bootstrap {}",
        env!("CARGO_PKG_VERSION"),
        context.name,
        context.security(),
        context.bootstrap_servers.join(",")
    );
}
