//! Reading a group's commit history: the one partition of
//! `__consumer_offsets` its coordinator writes to, read backwards from its
//! end in windows of offsets (1,000, then four times more each time), each
//! window forward, keeping the group's records newest first, until
//! [`LIMIT`] are found, [`SCAN_BUDGET`] offsets were read or the log start
//! is reached. Only fetches: no group is joined, nothing is committed.

use crate::app::failure::Failure;
use crate::browse::internal::consumer_offsets::{self, GroupMetadata, Key, OffsetCommit, Value};
use crate::browse::{self, Browser, Event, Isolation, Options, Record, Start};
use crate::meta::Cluster;

/// The most records of the group kept (the newest).
pub const LIMIT: usize = 500;
/// The most offsets read back from the end before giving up (about 25 MB
/// of commit records; the panel says what was not read).
pub const SCAN_BUDGET: i64 = 250_000;
/// The first window read back from the end, in offsets.
const FIRST_WINDOW: i64 = 1000;
/// The per-partition fetch size of each window's fetches.
const FETCH_BYTES: i32 = 4 * 1024 * 1024;

/// What one of the group's records says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// An offset commit for a topic partition.
    Commit {
        /// The topic committed for.
        topic: String,
        /// The partition committed for.
        partition: i32,
        /// The commit.
        commit: OffsetCommit,
    },
    /// A tombstone for a topic partition's commit: the offset was deleted.
    CommitDeleted {
        /// The topic.
        topic: String,
        /// The partition.
        partition: i32,
    },
    /// A classic group's metadata (generation, protocol, leader, members).
    Group(GroupMetadata),
    /// A tombstone for the group's metadata: the group was deleted.
    GroupDeleted,
    /// A record this kscope does not read (a KIP-848 record type, an
    /// unknown value version, a value that does not decode): what it is.
    Other(String),
}

/// One of the group's records in `__consumer_offsets`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its offset in the partition of `__consumer_offsets`.
    pub offset: i64,
    /// Its record timestamp (ms since the epoch).
    pub timestamp: i64,
    /// What it says.
    pub kind: Kind,
}

impl Entry {
    /// When it happened: the commit's own time, else the record's.
    pub fn time(&self) -> i64 {
        match &self.kind {
            Kind::Commit { commit, .. } => commit.commit_timestamp,
            _ => self.timestamp,
        }
    }
}

/// The group's most recent records, newest first, with what was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// The partition of `__consumer_offsets` that holds the group.
    pub partition: i32,
    /// How many partitions `__consumer_offsets` has.
    pub partitions: i32,
    /// The partition's log start and end when read.
    pub log: (i64, i64),
    /// The lowest offset read (`log.1 - scanned_offsets`).
    pub from: i64,
    /// Records read, the group's and others'.
    pub scanned: u64,
    /// The group's records, newest first, at most [`LIMIT`].
    pub entries: Vec<Entry>,
}

impl History {
    /// Whether older records were left unread (the limit or the scan
    /// budget was reached before the log start).
    pub fn truncated(&self) -> bool {
        self.from > self.log.0
    }
}

/// The group's entry for `record`, if the record is the group's.
pub fn entry(group: &str, record: &Record) -> Option<Entry> {
    let decoded = consumer_offsets::decode(record.key.as_deref(), record.value.as_deref()).ok()?;
    if decoded.key.group() != Some(group) {
        return None;
    }
    let kind = match (decoded.key, decoded.value) {
        (
            Key::OffsetCommit {
                topic, partition, ..
            },
            Value::OffsetCommit(commit),
        ) => Kind::Commit {
            topic,
            partition,
            commit,
        },
        (
            Key::OffsetCommit {
                topic, partition, ..
            },
            Value::Tombstone,
        ) => Kind::CommitDeleted { topic, partition },
        (Key::GroupMetadata { .. }, Value::GroupMetadata(metadata)) => Kind::Group(metadata),
        (Key::GroupMetadata { .. }, Value::Tombstone) => Kind::GroupDeleted,
        (key, value) => Kind::Other(describe_other(&key, &value)),
    };
    Some(Entry {
        offset: record.offset,
        timestamp: record.timestamp,
        kind,
    })
}

/// A record this screen does not lay out, in words.
fn describe_other(key: &Key, value: &Value) -> String {
    let key = match key {
        Key::Other { version, .. } => format!("record type {version}"),
        Key::OffsetCommit { .. } => "offset commit".to_owned(),
        Key::GroupMetadata { .. } => "group metadata".to_owned(),
    };
    match value {
        Value::Tombstone => format!("{key}, deleted"),
        Value::Unknown { version, bytes } => {
            format!("{key}, value v{version} ({} bytes)", bytes.len())
        }
        Value::Error(why) => format!("{key}: {why}"),
        Value::OffsetCommit(_) | Value::GroupMetadata(_) => key,
    }
}

/// A failure in words: one that says the principal may not read
/// `__consumer_offsets` says what it needs.
pub fn failure(error: &browse::Error) -> String {
    let text = error.to_string();
    if text.to_ascii_lowercase().contains("authoriz") {
        format!(
            "not authorized to read {}: the commit history needs READ and DESCRIBE on it ({text})",
            consumer_offsets::TOPIC
        )
    } else {
        format!("cannot read {}: {text}", consumer_offsets::TOPIC)
    }
}

/// Read `group`'s most recent records (see the module doc); a failure is
/// the browse error's kind in [`failure`]'s words.
pub async fn history(cluster: &Cluster, group: &str) -> Result<History, Failure> {
    read(cluster, group)
        .await
        .map_err(|e| Failure::worded(&e, failure(&e)))
}

async fn read(cluster: &Cluster, group: &str) -> Result<History, browse::Error> {
    let topic = consumer_offsets::TOPIC;
    let not_found = || browse::Error::TopicNotFound(topic.to_owned());
    let snapshot = cluster.refresh_topics(&[topic]).await?;
    let Some(count) = snapshot
        .topic(topic)
        .map(|t| i32::try_from(t.partitions.len()).unwrap_or(i32::MAX))
    else {
        // Left out of the answer: unknown, or not authorized. The topic's
        // own error in a fresh answer says which.
        cluster.leader_for(topic, 0).await?;
        return Err(not_found());
    };
    let partition = browse::internal::partition_for_group(group, count).ok_or_else(not_found)?;
    let isolation = Isolation::ReadCommitted;
    let (low, end) = browse::watermarks(cluster, topic, partition, isolation).await?;
    let (mut hi, mut window, mut scanned) = (end, FIRST_WINDOW, 0_u64);
    let mut entries = Vec::new();
    while hi > low && entries.len() < LIMIT && end - hi < SCAN_BUDGET {
        let lo = hi
            .saturating_sub(window.min(SCAN_BUDGET - (end - hi)))
            .max(low);
        let options = Options {
            isolation,
            until: Some(hi),
            partition_max_bytes: FETCH_BYTES,
            ..Options::default()
        };
        let start = Start::Offset(lo);
        let mut browser =
            Browser::open(cluster.clone(), topic, Some(partition), &start, options).await?;
        let mut found = Vec::new();
        while !browser.finished() {
            for event in browser.next_events().await? {
                if let Event::Record(record) = event {
                    scanned += 1;
                    found.extend(entry(group, &record));
                }
            }
        }
        entries.extend(found.into_iter().rev());
        hi = lo;
        window = window.saturating_mul(4);
    }
    entries.truncate(LIMIT);
    // What the kept entries cover: up to the oldest kept when the limit cut.
    let from = if entries.len() >= LIMIT {
        entries.last().map_or(hi, |e| e.offset)
    } else {
        hi
    };
    Ok(History {
        partition,
        partitions: count,
        log: (low, end),
        from,
        scanned,
        entries,
    })
}
