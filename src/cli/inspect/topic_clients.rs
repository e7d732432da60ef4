//! `kscope describe topic NAME --clients`: who touches a topic — the
//! producers writing it now, the groups reading it with their members, and
//! the principals the ACLs allow or deny — each section with the time it
//! was read. A section that failed says why (table) or carries `error`
//! (JSON), with one stderr line, and the exit status is the partial one.

use std::io::Write;
use std::time::{Duration, UNIX_EPOCH};

use serde::Serialize;

use crate::cli::args::OutputFormat;
use crate::cli::error::Error;
use crate::cli::event::rfc3339;
use crate::cli::partial::missing;
use crate::cli::rows::{number, text};
use crate::cli::table;
use crate::columns::Column;
use crate::conn::ErrorCode;
use crate::groups::{ReadingGroup, TopicReaders};
use crate::inspect::Acl;
use crate::inspect::clients::{
    FailedPartition, Section, TopicClients, TopicPrincipals, TopicProducer, TopicWriters,
    topic_clients,
};
use crate::meta::Cluster;

/// A section in JSON: when it was read, why it failed, then its fields.
#[derive(Debug, Serialize)]
pub struct SectionJson<T> {
    /// When it was read (ms since the epoch).
    pub read_at_ms: i64,
    /// The same as RFC 3339 in UTC.
    pub read_at: String,
    /// Why it could not be read; null when it was.
    pub error: Option<String>,
    /// Its fields (null when it failed).
    #[serde(flatten)]
    pub data: T,
}

/// The readers section's fields.
#[derive(Debug, Serialize)]
pub struct ReadersJson {
    /// The groups reading the topic; null when unreadable.
    pub groups: Option<Vec<ReadingGroup>>,
    /// Brokers that could not list their groups.
    pub failed_brokers: Vec<String>,
}

/// The principals section's fields.
#[derive(Debug, Serialize)]
pub struct PrincipalsJson {
    /// Whether the cluster has an authorizer; null when unreadable.
    pub authorizer: Option<bool>,
    /// The ACLs for WRITE, READ, DESCRIBE and ALL; empty without an
    /// authorizer (every principal may), null when unreadable.
    pub acls: Option<Vec<Acl>>,
}

/// What `describe topic NAME --clients -o json` prints.
#[derive(Debug, Serialize)]
pub struct ClientsJson {
    pub topic: String,
    /// Its partition count.
    pub partitions: usize,
    /// The producers writing it.
    pub producers: SectionJson<TopicWriters>,
    /// The groups reading it.
    pub groups: SectionJson<ReadersJson>,
    /// Who may write and read it.
    pub principals: SectionJson<PrincipalsJson>,
}

fn section<T, D>(s: &Section<T>, data: impl FnOnce(Option<&T>) -> D) -> SectionJson<D> {
    SectionJson {
        read_at_ms: s.read_at_ms,
        read_at: time_of(s.read_at_ms),
        error: s.answer.as_ref().err().cloned(),
        data: data(s.answer.as_ref().ok()),
    }
}

/// The JSON of `clients`.
pub fn json(clients: &TopicClients) -> ClientsJson {
    ClientsJson {
        topic: clients.topic.clone(),
        partitions: clients.partitions,
        producers: section(&clients.writers, |w| {
            w.cloned().unwrap_or(TopicWriters {
                producers: Vec::new(),
                failed: Vec::new(),
                transactional_ids_failed: Vec::new(),
            })
        }),
        groups: section(&clients.readers, |r| ReadersJson {
            groups: r.map(|r| r.groups.clone()),
            failed_brokers: r.map(|r| r.failed_brokers.clone()).unwrap_or_default(),
        }),
        principals: section(&clients.principals, |p| match p {
            Some(TopicPrincipals::Listed { acls }) => PrincipalsJson {
                authorizer: Some(true),
                acls: Some(acls.clone()),
            },
            Some(TopicPrincipals::None) => PrincipalsJson {
                authorizer: Some(false),
                acls: Some(Vec::new()),
            },
            None => PrincipalsJson {
                authorizer: None,
                acls: None,
            },
        }),
    }
}

fn time_of(ms: i64) -> String {
    u64::try_from(ms).map_or_else(
        |_| "unknown".to_owned(),
        |ms| rfc3339(UNIX_EPOCH + Duration::from_millis(ms)),
    )
}

fn ids(partitions: impl Iterator<Item = i32>) -> String {
    partitions
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn producer_table() -> [Column<TopicProducer>; 7] {
    [
        number("PRODUCER", |p| p.producer_id.to_string()),
        number("EPOCH", |p| p.producer_epoch.to_string()),
        text("TRANSACTIONAL-ID", |p| {
            p.transactional_id.clone().unwrap_or_else(|| "-".to_owned())
        }),
        text("LAST-WRITE", |p| time_of(p.last_timestamp_ms)),
        number("COORD-EPOCH", |p| p.coordinator_epoch.to_string()),
        text("PARTITIONS", |p| {
            ids(p.partitions.iter().map(|q| q.partition))
        }),
        text("LAST-SEQUENCES", |p| {
            ids(p.partitions.iter().map(|q| q.last_sequence))
        }),
    ]
}

/// One member of a reading group (or the group alone when it has none).
struct MemberRow {
    group: String,
    kind: String,
    state: String,
    client_id: String,
    host: String,
    partitions: String,
}

fn member_rows(groups: &[ReadingGroup]) -> Vec<MemberRow> {
    let mut rows = Vec::new();
    for g in groups {
        let row = |client_id: &str, host: &str, partitions: String| MemberRow {
            group: g.group.clone(),
            kind: g.group_type.clone(),
            state: g.state.clone(),
            client_id: client_id.to_owned(),
            host: host.to_owned(),
            partitions,
        };
        if g.members.is_empty() {
            rows.push(row("-", "-", "-".to_owned()));
        }
        for m in &g.members {
            rows.push(row(
                &m.client_id,
                &m.client_host,
                ids(m.partitions.iter().copied()),
            ));
        }
    }
    rows
}

fn member_table() -> [Column<MemberRow>; 6] {
    [
        text("GROUP", |r| r.group.clone()),
        text("TYPE", |r| r.kind.clone()),
        text("STATE", |r| r.state.clone()),
        text("CLIENT-ID", |r| r.client_id.clone()),
        text("HOST", |r| r.host.clone()),
        text("PARTITIONS", |r| r.partitions.clone()),
    ]
}

fn acl_table() -> [Column<Acl>; 6] {
    [
        text("PRINCIPAL", |a| a.principal.clone()),
        text("OPERATION", |a| a.operation.to_owned()),
        text("PERMISSION", |a| a.permission.to_owned()),
        text("HOST", |a| a.host.clone()),
        text("PATTERN", |a| a.pattern_type.to_owned()),
        text("NAME", |a| a.resource_name.clone()),
    ]
}

/// One stderr line (and the partial status) for each thing not answered.
fn report_missing(c: &TopicClients) {
    let topic = crate::untrusted::escaped(c.topic.clone());
    match &c.writers.answer {
        Ok(w) => {
            for f in &w.failed {
                missing(failed_line(&topic, f));
            }
            for why in &w.transactional_ids_failed {
                missing(format_args!("transactional ids: {why}"));
            }
        }
        Err(why) => missing(format_args!("producers of topic '{topic}': {why}")),
    }
    match &c.readers.answer {
        Ok(r) => {
            for why in &r.failed_brokers {
                missing(format_args!("groups reading '{topic}': {why}"));
            }
        }
        Err(why) => missing(format_args!("groups reading '{topic}': {why}")),
    }
    if let Err(why) = &c.principals.answer {
        missing(format_args!("acls of topic '{topic}': {why}"));
    }
}

fn failed_line(topic: &str, f: &FailedPartition) -> String {
    let leader = f
        .leader
        .map_or_else(|| "no leader".to_owned(), |l| format!("leader {l}"));
    format!(
        "producers of '{topic}' partition {} ({leader}): {}",
        f.partition, f.error
    )
}

fn heading(out: &mut impl Write, title: &str, read_at_ms: i64) -> std::io::Result<()> {
    writeln!(out, "\n{title} (read {})", time_of(read_at_ms))
}

fn write_table(out: &mut impl Write, c: &TopicClients) -> std::io::Result<()> {
    let topic = crate::untrusted::escaped(crate::anonymize::name(
        crate::anonymize::Kind::Topic,
        &c.topic,
    ));
    writeln!(out, "topic {topic}: {} partitions", c.partitions)?;
    heading(out, "PRODUCERS WRITING IT", c.writers.read_at_ms)?;
    match &c.writers.answer {
        Ok(w) if w.producers.is_empty() => writeln!(out, "none has state on its partitions")?,
        Ok(w) => table::write_columns(out, &producer_table(), &w.producers)?,
        Err(why) => writeln!(out, "not read: {}", crate::untrusted::escaped(why.clone()))?,
    }
    if let Ok(w) = &c.writers.answer {
        for f in &w.failed {
            let line = failed_line(&topic, f);
            writeln!(out, "not answered: {}", crate::untrusted::escaped(line))?;
        }
    }
    heading(out, "GROUPS READING IT", c.readers.read_at_ms)?;
    match &c.readers.answer {
        Ok(TopicReaders { groups, .. }) if groups.is_empty() => {
            writeln!(out, "none commits to it or is assigned it")?;
        }
        Ok(r) => table::write_columns(out, &member_table(), &member_rows(&r.groups))?,
        Err(why) => writeln!(out, "not read: {}", crate::untrusted::escaped(why.clone()))?,
    }
    heading(out, "PRINCIPALS (ACLs)", c.principals.read_at_ms)?;
    match &c.principals.answer {
        Ok(TopicPrincipals::None) => writeln!(
            out,
            "no authorizer: every principal may write, read and describe it"
        )?,
        Ok(TopicPrincipals::Listed { acls }) if acls.is_empty() => writeln!(
            out,
            "no ACL applies: only super users may touch it (unless the brokers set allow.everyone.if.no.acl.found)"
        )?,
        Ok(TopicPrincipals::Listed { acls }) => table::write_columns(out, &acl_table(), acls)?,
        Err(why) => writeln!(out, "not read: {}", crate::untrusted::escaped(why.clone()))?,
    }
    Ok(())
}

/// Print `describe topic NAME --clients`.
pub async fn run(
    cluster: &Cluster,
    topic: &str,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let clients = match topic_clients(cluster, topic).await {
        Ok(clients) => clients,
        Err(e) if e.code() == Some(ErrorCode::UnknownTopicOrPartition) => {
            return Err(Error::UnknownTopic(topic.to_owned()));
        }
        Err(e) => return Err(e.into()),
    };
    report_missing(&clients);
    if format == OutputFormat::Json {
        crate::cli::output::json(&mut *out, &json(&clients), false)?;
        writeln!(out)?;
    } else {
        write_table(out, &clients)?;
    }
    out.flush()?;
    Ok(())
}
