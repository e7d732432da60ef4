//! `kscope get schemas`: the schema registry's subjects, latest version
//! first-class (id, type, version count, compatibility). Needs no broker.

use std::io::Write;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::output::emit;
use crate::cli::rows::{number, text};
use crate::columns::Column;
use crate::schema::subjects::{self, Subject};
use crate::schema::{RegistryClient, RegistryConfig};

/// The table `get schemas` prints.
fn table() -> [Column<Subject>; 7] {
    [
        text("SUBJECT", |r| r.subject.clone()),
        number("VERSION", |r| r.version.to_string()),
        number("ID", |r| r.id.to_string()),
        text("TYPE", |r| r.schema_type.to_owned()),
        number("VERSIONS", |r| r.versions.to_string()),
        text("COMPATIBILITY", |r| {
            r.compatibility.clone().unwrap_or_else(|| "-".to_owned())
        }),
        number("REFS", |r| r.references.to_string()),
    ]
}

/// List the registry's subjects (on tokio's blocking pool: the client blocks).
pub async fn run(
    registry: Option<&RegistryConfig>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let config = registry.ok_or(Error::NoRegistry)?;
    let client = RegistryClient::new(config)?;
    let listed = tokio::task::spawn_blocking(move || subjects::list(&client))
        .await
        .map_err(|e| Error::Usage(format!("listing subjects: {e}")))??;
    emit(out, format, &listed, &table())
}
