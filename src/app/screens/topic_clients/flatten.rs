//! The answer of `inspect::clients` flattened into the Clients screen's
//! rows (in `update`, so the view only indexes them): writers, then the
//! groups reading with their members, then the principals. Transactional,
//! group, client, host and instance ids are written as `--anonymize` shows
//! them (the `WHO` column mixes kinds, so no header can say which).

use std::fmt::Write as _;

use crate::anonymize::{Kind, name};
use crate::inspect::clients::{Section, TopicClients, TopicPrincipals};

use super::columns::ClientRow;

/// Writers, then readers and their members, then principals.
pub fn rows(clients: &TopicClients) -> Vec<ClientRow> {
    let mut out = Vec::new();
    section(&mut out, &clients.writers, "writes", |out, at, writers| {
        for p in &writers.producers {
            let mut who = format!("producer {} epoch {}", p.producer_id, p.producer_epoch);
            if let Some(id) = &p.transactional_id {
                let _ = write!(who, " txn '{}'", name(Kind::Client, id));
            }
            let partitions: Vec<i32> = p.partitions.iter().map(|x| x.partition).collect();
            let mut detail = format!("partitions {}", list(&partitions));
            if let Some(state) = &p.transaction_state {
                let _ = write!(detail, " · transaction {state}");
            }
            out.push(row("writes", who, detail, at, false));
        }
        for f in &writers.failed {
            let leader = f
                .leader
                .map_or_else(|| "none".to_owned(), |l| l.to_string());
            let who = format!("partition {} (leader {leader})", f.partition);
            out.push(row("?", who, f.error.clone(), at, true));
        }
        for error in &writers.transactional_ids_failed {
            out.push(row(
                "?",
                "transactional ids".to_owned(),
                error.clone(),
                at,
                true,
            ));
        }
    });
    section(&mut out, &clients.readers, "reads", |out, at, readers| {
        for g in &readers.groups {
            let who = format!(
                "group {} ({}, {})",
                name(Kind::Group, &g.group),
                g.group_type,
                g.state
            );
            let detail = match &g.error {
                Some(error) => error.clone(),
                None => format!("{} members", g.members.len()),
            };
            out.push(ClientRow {
                group: Some(g.group.clone()),
                ..row("reads", who, detail, at, g.error.is_some())
            });
            for m in &g.members {
                let who = format!(
                    "  {}@{}",
                    name(Kind::Client, &m.client_id),
                    name(Kind::Host, &m.client_host)
                );
                let mut detail = format!("partitions {}", list(&m.partitions));
                if let Some(instance) = &m.instance_id {
                    let _ = write!(detail, " · instance {}", name(Kind::Member, instance));
                }
                out.push(ClientRow {
                    group: Some(g.group.clone()),
                    ..row("member", who, detail, at, false)
                });
            }
        }
        for broker in &readers.failed_brokers {
            out.push(row("?", "groups".to_owned(), broker.clone(), at, true));
        }
    });
    section(
        &mut out,
        &clients.principals,
        "may",
        |out, at, principals| match principals {
            TopicPrincipals::None => out.push(row(
                "may",
                "every principal".to_owned(),
                "no authorizer: every principal may write and read".to_owned(),
                at,
                false,
            )),
            TopicPrincipals::Listed { acls } => {
                for acl in acls {
                    let role = if acl.permission == "DENY" {
                        "may not"
                    } else {
                        "may"
                    };
                    let who = format!("{}@{}", acl.principal, acl.host);
                    let detail = format!(
                        "{} ({} {})",
                        acl.operation,
                        acl.pattern_type.to_lowercase(),
                        acl.resource_name
                    );
                    out.push(row(role, who, detail, at, role == "may not"));
                }
            }
        },
    );
    out
}

fn row(role: &'static str, who: String, detail: String, at: i64, problem: bool) -> ClientRow {
    ClientRow {
        role,
        who,
        detail,
        read_at_ms: at,
        problem,
        group: None,
    }
}

/// A section's rows, or one row saying why it could not be read.
fn section<T>(
    out: &mut Vec<ClientRow>,
    section: &Section<T>,
    role: &'static str,
    fill: impl FnOnce(&mut Vec<ClientRow>, i64, &T),
) {
    match &section.answer {
        Ok(answer) => fill(out, section.read_at_ms, answer),
        Err(error) => out.push(row(
            role,
            "-".to_owned(),
            format!("not read: {error}"),
            section.read_at_ms,
            true,
        )),
    }
}

/// `0-3,7`: partition numbers as ranges.
fn list(partitions: &[i32]) -> String {
    let mut sorted = partitions.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    if out.is_empty() {
        "none".to_owned()
    } else {
        out.join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_are_listed_as_ranges() {
        assert_eq!(list(&[3, 0, 1, 2, 7, 9, 8]), "0-3,7-9");
        assert_eq!(list(&[5]), "5");
        assert_eq!(list(&[]), "none");
    }
}
