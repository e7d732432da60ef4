//! How the Messages screen names its settings in the title, notices and
//! commands: the isolation's words and a `:key` quoted. Plain functions,
//! so the drawing needs none of the navigation.

use crate::browse::Isolation;

/// `committed` / `uncommitted` (and the protocol's names) as an isolation.
pub fn parse(word: &str) -> Option<Isolation> {
    match word {
        "committed" | "read_committed" | "rc" => Some(Isolation::ReadCommitted),
        "uncommitted" | "read_uncommitted" | "ru" => Some(Isolation::ReadUncommitted),
        _ => None,
    }
}

/// How the title and notices name `isolation`.
pub fn name(isolation: Isolation) -> &'static str {
    match isolation {
        Isolation::ReadCommitted => "read_committed",
        Isolation::ReadUncommitted => "read_uncommitted",
    }
}

/// A key as the status line names it: quoted text, escaped.
pub fn key(key: &[u8]) -> String {
    format!(
        "'{}'",
        crate::untrusted::escape(&String::from_utf8_lossy(key))
    )
}
