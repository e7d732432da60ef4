//! `kscope get acls` and `kscope get users`.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::rows::{number, text};
use crate::columns::Column;
use crate::inspect::security::{self, Acl, Acls};
use crate::meta::Cluster;

use crate::cli::output::emit;

/// One SCRAM credential of a user (`get users`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UserRow {
    /// The user.
    pub user: String,
    /// `SCRAM-SHA-256` or `SCRAM-SHA-512`.
    pub mechanism: &'static str,
    /// Its iteration count.
    pub iterations: i32,
}

/// The table `get acls` prints.
fn acl_table() -> [Column<Acl>; 7] {
    [
        text("PRINCIPAL", |r| r.principal.clone()),
        text("HOST", |r| r.host.clone()),
        text("OPERATION", |r| r.operation.to_owned()),
        text("PERMISSION", |r| r.permission.to_owned()),
        text("RESOURCE-TYPE", |r| r.resource_type.to_owned()),
        text("PATTERN", |r| r.pattern_type.to_owned()),
        text("NAME", |r| r.resource_name.clone()),
    ]
}

impl UserRow {
    /// The table `get users` prints.
    pub fn table() -> [Column<UserRow>; 3] {
        [
            text("USER", |r| r.user.clone()),
            text("MECHANISM", |r| r.mechanism.to_owned()),
            number("ITERATIONS", |r| r.iterations.to_string()),
        ]
    }
}

/// Print every ACL; without an authorizer, nothing (an empty JSON array)
/// and one stderr line saying so.
pub async fn acls(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let acls = match security::describe_acls(cluster).await {
        Ok(Acls::Listed(acls)) => acls,
        Ok(Acls::NoAuthorizer) => {
            eprintln!(
                "kscope: no authorizer is configured on this cluster (SECURITY_DISABLED): there are no ACLs, every principal may do everything"
            );
            Vec::new()
        }
        Err(error) if error.is_not_authorised() => {
            return Err(Error::Usage(format!(
                "not authorised to list ACLs (needs DESCRIBE on the cluster): {error}"
            )));
        }
        Err(error) => return Err(error.into()),
    };
    emit(out, format, &acls, &acl_table())
}

/// Print every SCRAM user, one row per mechanism.
pub async fn users(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let users = security::describe_users(cluster).await?;
    let rows: Vec<UserRow> = users
        .iter()
        .flat_map(|u| {
            u.credentials.iter().map(|(mechanism, iterations)| UserRow {
                user: u.name.clone(),
                mechanism,
                iterations: *iterations,
            })
        })
        .collect();
    emit(out, format, &rows, &UserRow::table())
}
