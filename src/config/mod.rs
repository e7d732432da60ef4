//! Settings file, cluster contexts and secrets: how a user points kscope at a cluster.
//!
//! The flow: [`load::load`] finds and parses the file (XDG config dir or
//! `--config`), checking every value with its line and column; the resolver
//! picks a context (`--context`, `-b`, `default_context`), applies `-X`
//! overrides, resolves secret references and yields everything the rest of
//! kscope needs to connect and draw. Used by `main` (and `term`) only.

pub mod check;
pub mod cli;
pub mod error;
pub mod info;
pub mod keys;
pub mod load;
pub mod overrides;
pub mod paths;
pub mod resolve;
pub mod schema;
pub mod secret;
mod transport;
mod tty;
pub mod validate;

pub use error::{ConfigError, Location};
pub use load::LoadedConfig;
pub use resolve::{RefreshIntervals, ResolvedContext, Selection};
