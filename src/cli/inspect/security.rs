//! `kscope get acls`, `kscope get users` and `kscope get quotas`; a
//! principal without the permission gets one line saying which it lacks.

use std::io::Write;

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::rows::{number, text};
use crate::columns::Column;
use crate::inspect::security::{self, Acl, Acls};
use crate::inspect::{Quota, quotas as quota};
use crate::meta::Cluster;

use crate::cli::output::emit;

/// One SCRAM credential of a user (`get users`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UserRow {
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

/// Print every ACL, or those that apply to `topic`; without an authorizer, nothing (an empty JSON array)
/// and one stderr line saying so.
pub async fn acls(
    cluster: &Cluster,
    topic: Option<&str>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let described = match topic {
        Some(topic) => security::describe_topic_acls(cluster, topic).await,
        None => security::describe_acls(cluster).await,
    };
    let acls = match described {
        Ok(Acls::Listed(acls)) => acls,
        Ok(Acls::NoAuthorizer) => {
            eprintln!(
                "kscope: no authorizer is configured on this cluster (SECURITY_DISABLED): there are no ACLs, every principal may do everything"
            );
            Vec::new()
        }
        Err(error) => return Err(refused(error, "list ACLs", "DESCRIBE on the cluster")),
    };
    emit(out, format, &acls, &acl_table())
}

/// Print every SCRAM user, one row per mechanism.
pub async fn users(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let users = security::describe_users(cluster)
        .await
        .map_err(|e| refused(e, "list SCRAM users", "DESCRIBE on the cluster"))?;
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

/// The table `get quotas` prints.
fn quota_table() -> [Column<Quota>; 3] {
    [
        text("ENTITY", |r| r.entity.clone()),
        text("KEY", |r| r.key.clone()),
        number("VALUE", |r| r.value.to_string()),
    ]
}

/// Print every client quota, one row per entity and key.
pub async fn quotas(
    cluster: &Cluster,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let quotas = quota::describe_quotas(cluster)
        .await
        .map_err(|e| refused(e, "list client quotas", "DESCRIBE_CONFIGS on the cluster"))?;
    emit(out, format, &quotas, &quota_table())
}

/// A refusal as the one-line notice naming the missing permission; any
/// other failure as it is.
fn refused(error: crate::inspect::Error, what: &'static str, needs: &'static str) -> Error {
    if error.is_not_authorised() {
        Error::NotAuthorised {
            what,
            needs,
            source: Box::new(error),
        }
    } else {
        error.into()
    }
}
