//! `--anonymize`: topic, group, client and host names replaced by stable
//! pseudonyms in what the headless commands print, for screenshots and bug
//! reports.
//!
//! A pseudonym is the kind's prefix and the first 8 hex digits of
//! HMAC-SHA256(key, kind + name): `topic-3f9c01ab`, `group-…`, `client-…`,
//! `host-…`. The key is a random secret made once and kept in the state
//! directory (`~/.local/state/kscope/anonymize.key`, mode 0600), so the same
//! name has the same pseudonym in every run (two bug reports can be compared)
//! while nobody without the file can test a guessed name against a
//! pseudonym. Without a state directory (or when the file cannot be written)
//! the key is random for the process: pseudonyms are stable within the run
//! only, which still never shows a real name.
//!
//! Kafka's own names (starting with `__`: `__consumer_offsets`,
//! `__transaction_state`, …) are kept: they carry nothing of the user's.
//!
//! What is replaced is decided in two places only, both here: the headers of
//! the headless tables ([`column_kind`], applied by `cli::table`) and the
//! keys of the JSON objects ([`json`], applied by `cli::output`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ring::hmac;
use serde_json::Value;

/// What a name names: each kind has its own prefix (and its own hashes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A topic.
    Topic,
    /// A group id (any group type).
    Group,
    /// A client id (and a transactional id, which clients choose too).
    Client,
    /// A host name or address (brokers' and clients').
    Host,
    /// A group member's id or static instance id (a classic member id
    /// starts with the client id).
    Member,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Topic => "topic",
            Kind::Group => "group",
            Kind::Client => "client",
            Kind::Host => "host",
            Kind::Member => "member",
        }
    }
}

/// Makes pseudonyms with one key.
pub struct Anonymizer {
    key: hmac::Key,
}

impl std::fmt::Debug for Anonymizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Anonymizer { key: <secret> }")
    }
}

/// How many bytes the secret has.
const KEY_LEN: usize = 32;

impl Anonymizer {
    /// Pseudonyms keyed by `secret`.
    pub fn new(secret: &[u8]) -> Self {
        Anonymizer {
            key: hmac::Key::new(hmac::HMAC_SHA256, secret),
        }
    }

    /// The pseudonym of `name` as a `kind`; names kept as they are (Kafka's
    /// own, the empty name and the `-` that stands for none) come back
    /// unchanged.
    pub fn name(&self, kind: Kind, name: &str) -> String {
        if kept(name) {
            return name.to_owned();
        }
        let mut context = hmac::Context::with_key(&self.key);
        context.update(kind.prefix().as_bytes());
        context.update(&[0]);
        context.update(name.as_bytes());
        let tag = context.sign();
        let [a, b, c, d, ..] = tag.as_ref() else {
            unreachable!("HMAC-SHA256 tags have 32 bytes")
        };
        format!("{}-{a:02x}{b:02x}{c:02x}{d:02x}", kind.prefix())
    }

    /// `text` as a table cell holding `names`: topic cells may list several
    /// names separated by commas (a topic name cannot hold one), each
    /// replaced; an assignment cell is `topic:0,1 topic:2`.
    pub fn cell(&self, names: Cells, text: &str) -> String {
        match names {
            Cells::Names(Kind::Topic) if text.contains(',') => text
                .split(',')
                .map(|name| self.name(Kind::Topic, name))
                .collect::<Vec<_>>()
                .join(","),
            Cells::Names(kind) => self.name(kind, text),
            Cells::Assignment => text
                .split(' ')
                .map(|part| match part.rsplit_once(':') {
                    Some((topic, partitions)) => {
                        format!("{}:{partitions}", self.name(Kind::Topic, topic))
                    }
                    None => self.name(Kind::Topic, part),
                })
                .collect::<Vec<_>>()
                .join(" "),
            Cells::TopicPartitions => text
                .split(',')
                .map(|part| match part.rsplit_once('-') {
                    Some((topic, partition))
                        if !topic.is_empty() && partition.bytes().all(|b| b.is_ascii_digit()) =>
                    {
                        format!("{}-{partition}", self.name(Kind::Topic, topic))
                    }
                    _ => part.to_owned(),
                })
                .collect::<Vec<_>>()
                .join(","),
            Cells::Address => self.address(text),
        }
    }

    /// A `host:port` address with the host replaced and the port kept
    /// (`[::1]:9092` too); text without a port is a host.
    pub fn address(&self, text: &str) -> String {
        match text.rsplit_once(':') {
            Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
                format!("{}:{port}", self.name(Kind::Host, host))
            }
            _ => self.name(Kind::Host, text),
        }
    }

    /// Replace the names in `value` (see [`json`]).
    pub fn json(&self, value: &mut Value) {
        match value {
            Value::Object(object) => {
                let topic_row = object.contains_key("partitions");
                for (key, field) in object.iter_mut() {
                    if matches!(key.as_str(), "assignment" | "target_assignment")
                        && let Value::Object(by_topic) = field
                    {
                        // Keyed by topic: the keys are names.
                        *by_topic = std::mem::take(by_topic)
                            .into_iter()
                            .map(|(topic, partitions)| (self.name(Kind::Topic, &topic), partitions))
                            .collect();
                        continue;
                    }
                    let kind = key_kind(key)
                        .or_else(|| (topic_row && key == "name").then_some(Kind::Topic));
                    match kind {
                        Some(kind) => self.names_in(kind, field),
                        None => self.json(field),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.json(item)),
            _ => {}
        }
    }

    /// Every string in `value` (a name, or an array of names) as a `kind`.
    fn names_in(&self, kind: Kind, value: &mut Value) {
        match value {
            Value::String(name) => *name = self.name(kind, name),
            Value::Array(items) => items.iter_mut().for_each(|item| self.names_in(kind, item)),
            other => self.json(other),
        }
    }
}

/// Names that stay: Kafka's own (`__…`), the empty or `-` placeholder, and
/// the `*` wildcard (an ACL's any host).
fn kept(name: &str) -> bool {
    name.is_empty() || name == "-" || name == "*" || name.starts_with("__")
}

/// What the JSON field `key` names; `name` beside `partitions` is a topic's
/// name (handled by [`Anonymizer::json`]).
fn key_kind(key: &str) -> Option<Kind> {
    match key {
        "topic"
        | "topics"
        | "subscribed_topics"
        | "assigned_topics"
        | "source_topics"
        | "repartition_source_topics"
        | "repartition_sink_topics"
        | "changelog_topics" => Some(Kind::Topic),
        "group" | "group_id" | "groups" => Some(Kind::Group),
        "client_id" | "owner" | "transactional_id" => Some(Kind::Client),
        "host" | "client_host" => Some(Kind::Host),
        "member_id" | "owner_member_id" | "instance_id" => Some(Kind::Member),
        _ => None,
    }
}

/// What a table cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cells {
    /// A name (topics: one or several, comma-separated).
    Names(Kind),
    /// A member's assignment: `topic:0,1 topic:2`.
    Assignment,
    /// Partitions of several topics: `topic-0,other-3` (a part that is
    /// not a name, a dash and a number is kept).
    TopicPartitions,
    /// A `host:port` address: the host replaced, the port kept.
    Address,
}

/// What a table's column holds, by its header, for the headless tables
/// and the TUI's grids alike; `NAME` in a table with a `PARTITIONS` column
/// is a topic's name. The fleet's `TOPICS` (beside `CONTEXT`) is a count.
/// Columns that mix kinds (the events' `SUBJECT`, the clients' `WHO`) are
/// not here: their text is made from the fields, pseudonyms and all.
pub fn column_cells(header: &str, headers: &[&str]) -> Option<Cells> {
    match header {
        "TOPICS" if headers.contains(&"CONTEXT") => None,
        "TOPIC" | "TOPICS" => Some(Cells::Names(Kind::Topic)),
        "ADDRESS" => Some(Cells::Address),
        "NAME" if headers.contains(&"PARTITIONS") => Some(Cells::Names(Kind::Topic)),
        "GROUP" => Some(Cells::Names(Kind::Group)),
        "CLIENT" | "CLIENT-ID" | "OWNER" | "TRANSACTIONAL-ID" => Some(Cells::Names(Kind::Client)),
        "HOST" => Some(Cells::Names(Kind::Host)),
        "MEMBER" | "MEMBER-ID" | "INSTANCE" => Some(Cells::Names(Kind::Member)),
        "ASSIGNED" | "TARGET" => Some(Cells::Assignment),
        // `get transactions`: the partitions a transaction writes.
        "PARTITIONS" if headers.contains(&"TRANSACTIONAL-ID") && headers.contains(&"STATE") => {
            Some(Cells::TopicPartitions)
        }
        _ => None,
    }
}

static ACTIVE: OnceLock<Anonymizer> = OnceLock::new();

/// Turn anonymizing on for the rest of the process, keyed by the secret in
/// the state directory (made there on first use), or by a random key for
/// this process only when there is none. Returns where the key is kept.
pub fn enable() -> Option<PathBuf> {
    let stored = crate::logging::log_dir()
        .ok_or_else(|| "no state directory".to_owned())
        .and_then(|dir| {
            stored_key(&dir)
                .map(|secret| (secret, dir.join(KEY_FILE)))
                .map_err(|error| format!("no key file in {} ({error})", dir.display()))
        });
    let (secret, path) = stored.map_or_else(
        |why| {
            eprintln!("kscope: warning: --anonymize: {why}: pseudonyms hold for this run only");
            (random_key(), None)
        },
        |(secret, path)| (secret, Some(path)),
    );
    let _ = ACTIVE.set(Anonymizer::new(&secret));
    path
}

/// The anonymizer, when `--anonymize` is on.
pub fn active() -> Option<&'static Anonymizer> {
    ACTIVE.get()
}

/// `name` as a `kind`, pseudonymized when `--anonymize` is on.
pub fn name(kind: Kind, name: &str) -> String {
    active().map_or_else(|| name.to_owned(), |a| a.name(kind, name))
}

/// A `host:port` address, its host pseudonymized when `--anonymize` is on.
pub fn address(text: &str) -> String {
    active().map_or_else(|| text.to_owned(), |a| a.address(text))
}

/// The key file's name in the state directory.
const KEY_FILE: &str = "anonymize.key";

fn random_key() -> Vec<u8> {
    let mut secret = vec![0; KEY_LEN];
    rand::fill(&mut secret[..]);
    secret
}

/// The secret in `dir`, made (random, mode 0600) when there is none yet.
/// Runs started together agree on one: the new key is written whole to a
/// file of this run's own, then linked into place, which fails if another
/// run linked its key first (then that one is read). A key is never seen
/// half written.
fn stored_key(dir: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let path = dir.join(KEY_FILE);
    let read = |path: &Path| {
        let secret = std::fs::read(path)?;
        if secret.len() == KEY_LEN {
            Ok(secret)
        } else {
            Err(std::io::Error::other(format!(
                "{} is not a {KEY_LEN}-byte key",
                path.display()
            )))
        }
    };
    match read(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        known => return known,
    }
    std::fs::create_dir_all(dir)?;
    let secret = random_key();
    let own = dir.join(format!(
        "{KEY_FILE}.{}.{:016x}",
        std::process::id(),
        rand::random::<u64>()
    ));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&own)?;
    let written = file
        .write_all(&secret)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::hard_link(&own, &path));
    let _ = std::fs::remove_file(&own);
    match written {
        Ok(()) => Ok(secret),
        // Another run made it first: use theirs.
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => read(&path),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_started_together_agree_on_one_key() {
        let dir = tempfile::tempdir().expect("dir");
        let keys: Vec<Vec<u8>> = std::thread::scope(|scope| {
            let started: Vec<_> = (0..8)
                .map(|_| scope.spawn(|| stored_key(dir.path()).expect("a key")))
                .collect();
            started
                .into_iter()
                .map(|t| t.join().expect("joined"))
                .collect()
        });
        assert!(keys.iter().all(|k| k == &keys[0] && k.len() == KEY_LEN));
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
        assert_eq!(left.len(), 1, "only the key file is left: {left:?}");
    }

    fn anon() -> Anonymizer {
        Anonymizer::new(b"a fixed test key of some length")
    }

    #[test]
    fn a_name_has_one_pseudonym_per_kind_and_key() {
        let a = anon();
        let first = a.name(Kind::Topic, "orders");
        assert_eq!(first, a.name(Kind::Topic, "orders"));
        assert_eq!(
            first,
            anon().name(Kind::Topic, "orders"),
            "same key, same pseudonym"
        );
        assert!(first.starts_with("topic-"), "{first}");
        assert_eq!(first.len(), "topic-".len() + 8);
        assert!(
            first["topic-".len()..]
                .chars()
                .all(|c| c.is_ascii_hexdigit())
        );
        assert_ne!(first, a.name(Kind::Topic, "orders2"));
        assert_ne!(
            first,
            Anonymizer::new(b"another key").name(Kind::Topic, "orders")
        );
    }

    #[test]
    fn kinds_differ_in_prefix_and_hash() {
        let a = anon();
        let names: Vec<String> = [
            Kind::Topic,
            Kind::Group,
            Kind::Client,
            Kind::Host,
            Kind::Member,
        ]
        .into_iter()
        .map(|k| a.name(k, "billing"))
        .collect();
        for (name, prefix) in names
            .iter()
            .zip(["topic-", "group-", "client-", "host-", "member-"])
        {
            assert!(name.starts_with(prefix), "{name}");
            assert!(!name.contains("billing"), "{name}");
        }
        let hashes: std::collections::BTreeSet<&str> = names
            .iter()
            .map(|n| n.rsplit('-').next().unwrap_or_default())
            .collect();
        assert_eq!(hashes.len(), 5, "{names:?}");
    }

    #[test]
    fn kafkas_own_names_and_placeholders_stay() {
        let a = anon();
        for kept in ["__consumer_offsets", "__transaction_state", "", "-"] {
            assert_eq!(a.name(Kind::Topic, kept), kept);
        }
        assert_ne!(a.name(Kind::Topic, "_schemas"), "_schemas");
    }

    #[test]
    fn topic_lists_in_a_cell_are_replaced_name_by_name() {
        let a = anon();
        let (orders, payments) = (
            a.name(Kind::Topic, "orders"),
            a.name(Kind::Topic, "payments"),
        );
        let cell = a.cell(Cells::Names(Kind::Topic), "orders,payments");
        assert_eq!(cell, format!("{orders},{payments}"));
        let cell = a.cell(Cells::Assignment, "orders:0,1 payments:2");
        assert_eq!(cell, format!("{orders}:0,1 {payments}:2"));
        let cell = a.cell(Cells::TopicPartitions, "orders-0,payments-12,7");
        assert_eq!(cell, format!("{orders}-0,{payments}-12,7"));
    }

    #[test]
    fn json_names_are_replaced_by_key_and_nothing_else() {
        let a = anon();
        let mut value = serde_json::json!([
            {"name": "orders", "partitions": 3, "id": "abc"},
            {"name": "retention.ms", "value": "orders"},
            {"group": "billing", "members": [
                {"client_id": "app-1", "client_host": "/10.0.0.7", "subscribed_topics": ["orders"],
                 "assignment": {"orders": [0, 1]}}
            ], "offsets": [{"topic": "orders", "partition": 0}]}
        ]);
        a.json(&mut value);
        let text = value.to_string();
        assert!(!text.contains("billing") && !text.contains("app-1") && !text.contains("10.0.0.7"));
        assert_eq!(value[0]["name"], a.name(Kind::Topic, "orders"));
        assert_eq!(value[1]["name"], "retention.ms", "a config's name stays");
        assert_eq!(value[1]["value"], "orders", "values are --mask's business");
        assert_eq!(
            value[2]["offsets"][0]["topic"],
            a.name(Kind::Topic, "orders")
        );
        assert_eq!(
            value[2]["members"][0]["subscribed_topics"][0],
            a.name(Kind::Topic, "orders")
        );
        assert_eq!(
            value[2]["members"][0]["client_host"],
            a.name(Kind::Host, "/10.0.0.7")
        );
        assert_eq!(
            value[2]["members"][0]["assignment"][a.name(Kind::Topic, "orders")],
            serde_json::json!([0, 1])
        );
    }

    #[test]
    fn the_key_file_is_made_once_with_mode_0600() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = std::env::temp_dir().join(format!("kscope-anon-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = stored_key(&dir).expect("made");
        let second = stored_key(&dir).expect("read");
        assert_eq!(first, second);
        assert_eq!(first.len(), KEY_LEN);
        let mode = std::fs::metadata(dir.join(KEY_FILE))
            .expect("exists")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
