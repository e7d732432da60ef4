//! The `kscope` binary: parses the command line and hands over to the library.

use clap::{CommandFactory, Parser, Subcommand};
use kscope::cli::args::{Command as Headless, ConnectionArgs, OutputFormat};
use kscope::config::cli::{ConfigCommands, ConnectArgs};

/// kscope: browse Apache Kafka clusters from the terminal.
#[derive(Debug, Parser)]
#[command(name = "kscope", version, about)]
struct Cli {
    #[command(flatten)]
    connect: ConnectArgs,
    /// Output format of headless commands.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = OutputFormat::Table, global = true)]
    output: OutputFormat,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    #[command(flatten)]
    Config(ConfigCommands),
    #[command(flatten)]
    Headless(Headless),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if let Some(Command::Config(command)) = &cli.command {
        let code = command.run(&cli.connect, &mut Cli::command());
        return std::process::ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    // Resolve the context before the terminal is touched: a bad config is one
    // message naming file, line and column, and exit code 2.
    let context = match kscope::config::cli::resolve(&cli.connect) {
        Ok(context) => context,
        Err(error) => {
            eprintln!("kscope: {error}");
            return std::process::ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
    };
    kscope::config::cli::print_warnings(&context.warnings);
    if let Some(Command::Headless(command)) = cli.command {
        return kscope::cli::main(kscope::cli::Args {
            connection: ConnectionArgs {
                bootstrap: Some(context.bootstrap_servers.join(",")),
            },
            output: cli.output,
            command: Some(command),
        });
    }
    // No subcommand: the TUI on the resolved context.
    kscope::term::run(&context, cli.connect)
}
