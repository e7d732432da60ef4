//! The `kscope` binary: parses the command line and hands over to the library.

use clap::Parser;

/// kscope: browse Apache Kafka clusters from the terminal.
#[derive(Debug, Parser)]
#[command(name = "kscope", version, about)]
struct Cli {
    /// Bootstrap servers, `HOST:PORT[,HOST:PORT...]`.
    #[arg(short = 'b', long = "bootstrap-servers", env = "KSCOPE_BOOTSTRAP")]
    bootstrap: Option<String>,
}

fn main() {
    let cli = Cli::parse();
    match cli.bootstrap {
        Some(servers) => println!("kscope {}: bootstrap {servers}", env!("CARGO_PKG_VERSION")),
        None => println!(
            "kscope {}: no cluster given (use -b HOST:PORT)",
            env!("CARGO_PKG_VERSION")
        ),
    }
}
