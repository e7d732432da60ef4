//! The `kscope` binary: parses the command line and hands over to the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    kscope::cli::main(kscope::cli::Args::parse())
}
