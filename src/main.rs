//! The `kscope` binary: parses the command line, resolves the context before
//! anything else, and hands over to the library.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use kscope::cli::args::{Command as Headless, GetCommand, OutputFormat};
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
    /// Print stable pseudonyms (`topic-3f9c01ab`, `group-…`, `client-…`,
    /// `host-…`, `member-…`) instead of topic, group, client, host and member
    /// names, for screenshots and bug reports (headless commands, the TUI
    /// and `replay`). Kafka's own `__…` names are kept.
    #[arg(long, global = true)]
    anonymize: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once per run, never moved about
enum Command {
    #[command(flatten)]
    Config(ConfigCommands),
    #[command(flatten)]
    Headless(Headless),
    /// Open the TUI on a recording (`kscope record`) with a time cursor:
    /// space plays or pauses, `[`/`]` step a frame, `{`/`}` ten seconds,
    /// `n`/`N` the next or previous event, `<`/`>` the start or end, `:at
    /// TIME` jumps. No cluster is contacted.
    Replay {
        /// The recording.
        file: std::path::PathBuf,
        /// Where to start: RFC 3339, `+90s` after the start, `-1m` before
        /// the end, `start` (the default) or `end`.
        #[arg(long, allow_hyphen_values = true)]
        at: Option<String>,
    },
}

fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Before anything draws or prints: the TUI and the replay draw
    // pseudonyms from their first frame.
    if cli.anonymize {
        kscope::anonymize::enable();
    }
    // A recording replays without a cluster: no context is needed.
    if let Some(Command::Replay { file, at }) = &cli.command {
        return kscope::term::replay(file, at.as_deref(), cli.connect.config.as_deref());
    }
    if let Some(Command::Config(command)) = &cli.command {
        return exit_code(command.run(&cli.connect, &mut Cli::command()));
    }
    // A recording answers without a cluster: no context is needed.
    if let Some(Command::Headless(command)) = &cli.command
        && command.reads_recording()
        && let Some(Command::Headless(command)) = cli.command
    {
        return kscope::cli::main(kscope::cli::Invocation {
            bootstrap: Vec::new(),
            connection: kscope::conn::ConnectionConfig::default(),
            output: cli.output,
            command,
            schema_registry: None,
            topic_schemas: Vec::new(),
            mask: kscope::browse::mask::Masker::default(),
            context: None,
        });
    }
    // The fleet polls every context: it resolves each one itself.
    if let Some(Command::Headless(Headless::Get {
        what: GetCommand::Fleet,
        from_file,
        ..
    })) = &cli.command
    {
        if from_file.is_some() {
            eprintln!("kscope: get fleet polls the contexts now; a recording holds one context");
            return exit_code(2);
        }
        return kscope::cli::fleet::main(&cli.connect, cli.output);
    }
    // Resolve the context before the terminal is touched: a bad config is one
    // message naming file, line and column, and exit code 2.
    let context = match kscope::config::cli::resolve(&cli.connect) {
        Ok(context) => context,
        Err(error) => {
            eprintln!("kscope: {error}");
            return exit_code(error.exit_code());
        }
    };
    kscope::config::cli::print_warnings(&context.warnings);
    if let Some(Command::Headless(command)) = cli.command {
        return kscope::cli::main(kscope::cli::Invocation {
            bootstrap: context.bootstrap_servers,
            connection: context.connection,
            output: cli.output,
            command,
            schema_registry: context.schema_registry,
            topic_schemas: context.topic_schemas,
            mask: context.mask,
            context: Some(context.name),
        });
    }
    // No subcommand: the TUI on the resolved context.
    kscope::term::run(&context, cli.connect)
}
