//! Who touches a topic (`w` on Topics or Partitions, `:clients TOPIC`):
//! the producers writing it now, the groups reading it with their members,
//! and the principals its ACLs allow or deny — `inspect::clients` read
//! every [`INTERVAL`] while shown, flattened into one table here (in
//! `update`) so the view only indexes rows.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use crate::columns::topic_clients::ClientRow;
use crate::inspect::clients::{Section, TopicClients, TopicPrincipals};

use super::action::Effect;
use super::screen::Screen;
use super::screens::requests::Requests;
use super::state::{AppState, Link};

/// How often the answer is read again while shown.
pub const INTERVAL: Duration = Duration::from_secs(10);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(30);

/// The rows of the topic asked for.
pub type ClientsStore = Requests<String, Vec<ClientRow>>;

impl ClientsStore {
    /// Row `index` of the answer held for `topic`.
    pub fn row(&self, topic: &str, index: usize) -> Option<&ClientRow> {
        self.held_for(&topic.to_owned())?.get(index)
    }
}

/// Ask for the topic on screen if it is due.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    let Screen::Clients { topic } = &state.view().screen else {
        return;
    };
    let topic = topic.clone();
    if let Some(request) =
        state
            .clients
            .ask(&mut state.requests, &topic, state.now, (INTERVAL, GIVE_UP))
    {
        effects.push(Effect::FetchTopicClients { request, topic });
    }
}

/// Take an answer (flattened into rows); a stale one is dropped.
pub fn receive(state: &mut AppState, request: u64, answer: Result<TopicClients, String>) {
    let rows = match answer {
        Ok(clients) => rows(&clients),
        Err(error) => vec![ClientRow {
            role: "?",
            who: "-".to_owned(),
            detail: error,
            read_at_ms: super::table_rows::now_ms(state),
            problem: true,
            group: None,
        }],
    };
    state.clients.receive(request, Arc::new(rows), state.now);
}

/// The rows `/` keeps (every column's text).
pub fn build(store: &ClientsStore, topic: &str, keep: &mut impl FnMut(&str) -> bool) -> Vec<usize> {
    store
        .held_for(&topic.to_owned())
        .map(|rows| {
            rows.iter()
                .enumerate()
                .filter(|(_, r)| keep(&format!("{} {} {}", r.role, r.who, r.detail)))
                .map(|(i, _)| i)
                .collect()
        })
        .unwrap_or_default()
}

/// Writers, then readers and their members, then principals.
pub fn rows(clients: &TopicClients) -> Vec<ClientRow> {
    let mut out = Vec::new();
    section(&mut out, &clients.writers, "writes", |out, at, writers| {
        for p in &writers.producers {
            let mut who = format!("producer {} epoch {}", p.producer_id, p.producer_epoch);
            if let Some(id) = &p.transactional_id {
                let _ = write!(who, " txn '{id}'");
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
            let who = format!("group {} ({}, {})", g.group, g.group_type, g.state);
            let detail = match &g.error {
                Some(error) => error.clone(),
                None => format!("{} members", g.members.len()),
            };
            out.push(ClientRow {
                group: Some(g.group.clone()),
                ..row("reads", who, detail, at, g.error.is_some())
            });
            for m in &g.members {
                let who = format!("  {}@{}", m.client_id, m.client_host);
                let mut detail = format!("partitions {}", list(&m.partitions));
                if let Some(instance) = &m.instance_id {
                    let _ = write!(detail, " · instance {instance}");
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
