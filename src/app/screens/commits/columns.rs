//! The commit history's column table: one record of the group in
//! `__consumer_offsets` a row, an offset commit or the group's metadata.

use crate::columns::Column;
use crate::columns::messages::datetime;

use super::read::{Entry, Kind};

/// One record of the group.
pub type Row<'a> = &'a Entry;

/// `-` for a field the row's record does not have.
fn none() -> String {
    "-".to_owned()
}

/// What the row is, in a word or two.
pub fn what(entry: &Entry) -> String {
    match &entry.kind {
        Kind::Commit { .. } => "commit",
        Kind::CommitDeleted { .. } => "commit deleted",
        Kind::Group(_) => "group",
        Kind::GroupDeleted => "group deleted",
        Kind::Other(_) => "other",
    }
    .to_owned()
}

/// The topic partition a commit (or its deletion) is for.
fn target(entry: &Entry) -> Option<(&str, i32)> {
    match &entry.kind {
        Kind::Commit {
            topic, partition, ..
        }
        | Kind::CommitDeleted { topic, partition } => Some((topic, *partition)),
        _ => None,
    }
}

/// The commit, if the row is one.
fn commit(entry: &Entry) -> Option<&crate::browse::internal::consumer_offsets::OffsetCommit> {
    match &entry.kind {
        Kind::Commit { commit, .. } => Some(commit),
        _ => None,
    }
}

/// The commit's metadata, or the group's generation, protocol, leader and
/// members, or what an unread record is.
pub fn detail(entry: &Entry) -> String {
    match &entry.kind {
        Kind::Commit { commit, .. } if commit.metadata.is_empty() => String::new(),
        Kind::Commit { commit, .. } => format!("metadata '{}'", commit.metadata),
        Kind::CommitDeleted { .. } | Kind::GroupDeleted => String::new(),
        Kind::Group(g) => {
            use crate::anonymize::{Kind, name};
            let members: Vec<String> = g
                .members
                .iter()
                .map(|m| name(Kind::Member, &m.member_id))
                .collect();
            format!(
                "generation {} · {} protocol {} · leader {} · {} member{}{}",
                g.generation,
                g.protocol_type,
                g.protocol.as_deref().unwrap_or("-"),
                g.leader
                    .as_deref()
                    .map_or_else(|| "-".to_owned(), |l| name(Kind::Member, l)),
                members.len(),
                if members.len() == 1 { "" } else { "s" },
                if members.is_empty() {
                    String::new()
                } else {
                    format!(": {}", members.join(", "))
                }
            )
        }
        Kind::Other(what) => what.clone(),
    }
}

/// The columns: when (the commit's time, else the record's), what, the
/// topic partition, offset and leader epoch committed, the expiry (value
/// v1 only), the metadata or the group's state, and the record's offset in
/// `__consumer_offsets`.
pub fn table<'a>() -> [Column<Row<'a>>; 9] {
    [
        Column::text(
            "TIME (UTC)",
            (23, 23),
            |r| datetime(r.time(), 0),
            // In the order the coordinator wrote them (commit times may
            // tie, or step back across a coordinator move).
            Some(|a, b| a.offset.cmp(&b.offset)),
        ),
        Column::text("RECORD", (5, 14), |r| what(r), None),
        Column::text(
            "TOPIC",
            (5, 40),
            |r| target(r).map_or_else(none, |(t, _)| t.to_owned()),
            Some(|a, b| target(a).cmp(&target(b))),
        ),
        Column::number(
            "PARTITION",
            |r| target(r).map_or_else(none, |(_, p)| p.to_string()),
            |a, b| target(a).map(|t| t.1).cmp(&target(b).map(|t| t.1)),
        ),
        Column::number(
            "OFFSET",
            |r| commit(r).map_or_else(none, |c| c.offset.to_string()),
            |a, b| commit(a).map(|c| c.offset).cmp(&commit(b).map(|c| c.offset)),
        ),
        Column::number(
            "EPOCH",
            |r| {
                commit(r)
                    .filter(|c| c.leader_epoch >= 0)
                    .map_or_else(none, |c| c.leader_epoch.to_string())
            },
            |a, b| {
                commit(a)
                    .map(|c| c.leader_epoch)
                    .cmp(&commit(b).map(|c| c.leader_epoch))
            },
        ),
        Column::present("EXPIRES (UTC)", 23, |r| {
            commit(r)
                .and_then(|c| c.expire_timestamp)
                .map_or_else(String::new, |ms| datetime(ms, 0))
        }),
        Column::fill("METADATA / GROUP", (1, 20), |r| detail(r), None),
        Column::number(
            "LOG OFFSET",
            |r| r.offset.to_string(),
            |a, b| a.offset.cmp(&b.offset),
        ),
    ]
}
