//! The records of `__consumer_offsets`, decoded from Kafka's public message
//! schemas (`group-coordinator/src/main/resources/common/message/`), written
//! by hand from them.
//!
//! A key starts with an `int16` version that says what the record is: 0 and
//! 1 an offset commit (`OffsetCommitKey`: group, topic, partition), 2 a
//! classic group's metadata (`GroupMetadataKey`: group), 3 and up the new
//! coordinator's records (KIP-848 consumer, share and streams groups), whose
//! keys all begin with the group id; their values are shown as bytes with
//! their version, never guessed. A value starts with its own `int16`
//! version: `OffsetCommitValue` 0-4 and `GroupMetadataValue` 0-4 are read
//! (version 4 is flexible: compact strings, tagged fields). A null value is
//! a tombstone: the offset or the group was deleted.

use super::wire::{Read, Reader, WireError};

/// The topic these records live in.
pub const TOPIC: &str = "__consumer_offsets";

/// What a record's key says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    /// An offset commit's key (key version 0 or 1).
    OffsetCommit {
        /// The key's version.
        version: i16,
        group: String,
        /// The topic committed for.
        topic: String,
        /// The partition committed for.
        partition: i32,
    },
    /// A classic group's metadata key (key version 2).
    GroupMetadata { group: String },
    /// Another record type (version 3 and up): its key bytes, and the group
    /// id these keys begin with when it reads as one.
    Other {
        /// The key's version (the record type).
        version: i16,
        /// The group id at the start of the key, if it reads.
        group: Option<String>,
        /// The key's bytes after the version.
        bytes: Vec<u8>,
    },
}

impl Key {
    /// The group the record is about, if the key names one.
    pub fn group(&self) -> Option<&str> {
        match self {
            Key::OffsetCommit { group, .. } | Key::GroupMetadata { group } => Some(group),
            Key::Other { group, .. } => group.as_deref(),
        }
    }
}

/// An offset commit's value (`OffsetCommitValue`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffsetCommit {
    /// The value's version (0-4).
    pub version: i16,
    /// The committed offset.
    pub offset: i64,
    /// The leader epoch of the committed record (v3+; else -1).
    pub leader_epoch: i32,
    /// The consumer's metadata string.
    pub metadata: String,
    /// When it was committed (ms since the epoch).
    pub commit_timestamp: i64,
    /// When it expires (v1 only).
    pub expire_timestamp: Option<i64>,
}

/// One member of a classic group (`GroupMetadataValue.MemberMetadata`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub member_id: String,
    /// The static member's instance id (v3+).
    pub group_instance_id: Option<String>,
    pub client_id: String,
    /// The client's host.
    pub client_host: String,
    /// The rebalance timeout in ms (v1+).
    pub rebalance_timeout: Option<i32>,
    /// The session timeout in ms.
    pub session_timeout: i32,
    /// The subscription's size in bytes.
    pub subscription_bytes: usize,
    /// The assignment's size in bytes.
    pub assignment_bytes: usize,
}

/// A classic group's metadata (`GroupMetadataValue`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupMetadata {
    /// The value's version (0-4).
    pub version: i16,
    /// The protocol type (`consumer`, `connect`, …).
    pub protocol_type: String,
    pub generation: i32,
    /// The chosen assignor (null while empty).
    pub protocol: Option<String>,
    /// The leader's member id.
    pub leader: Option<String>,
    /// When the group entered its current state (v2+).
    pub current_state_timestamp: Option<i64>,
    pub members: Vec<Member>,
}

/// What a record's value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A null value: the offset or group was deleted.
    Tombstone,
    OffsetCommit(OffsetCommit),
    /// A group's metadata.
    GroupMetadata(GroupMetadata),
    /// A value of a version (or record type) this decoder does not know:
    /// its version and bytes, as they are.
    Unknown {
        /// The value's version.
        version: i16,
        /// The bytes after the version.
        bytes: Vec<u8>,
    },
    /// The value could not be decoded: why.
    Error(String),
}

/// One decoded record of `__consumer_offsets`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// What the key says.
    pub key: Key,
    /// What the value holds.
    pub value: Value,
}

/// Decode a record's key and value; an error names why the key could not be
/// read (a value that cannot be read is [`Value::Error`] beside its key).
pub fn decode(key: Option<&[u8]>, value: Option<&[u8]>) -> Result<Decoded, WireError> {
    let key = decode_key(key.ok_or_else(|| WireError("null key".to_owned()))?)?;
    let value = match value {
        None => Value::Tombstone,
        Some(bytes) => decode_value(&key, bytes).unwrap_or_else(|e| Value::Error(e.0)),
    };
    Ok(Decoded { key, value })
}

/// A key: its version, then the fields that version has.
pub fn decode_key(bytes: &[u8]) -> Read<Key> {
    let mut r = Reader::new(bytes);
    let version = r.i16("key version")?;
    let key = match version {
        0 | 1 => Key::OffsetCommit {
            version,
            group: r.string("group")?,
            topic: r.string("topic")?,
            partition: r.i32("partition")?,
        },
        2 => Key::GroupMetadata {
            group: r.string("group")?,
        },
        v if v < 0 => return Err(WireError(format!("negative key version {v}"))),
        _ => {
            let bytes = r.rest().to_vec();
            Key::Other {
                version,
                group: r.string("group").ok(),
                bytes,
            }
        }
    };
    if matches!(key, Key::OffsetCommit { .. } | Key::GroupMetadata { .. }) && !r.rest().is_empty() {
        return Err(WireError(format!(
            "{} bytes after the key's fields",
            r.rest().len()
        )));
    }
    Ok(key)
}

fn decode_value(key: &Key, bytes: &[u8]) -> Read<Value> {
    let mut r = Reader::new(bytes);
    let version = r.i16("value version")?;
    let unknown = |r: &Reader<'_>| Value::Unknown {
        version,
        bytes: r.rest().to_vec(),
    };
    let value = match key {
        Key::OffsetCommit { .. } if (0..=4).contains(&version) => {
            Value::OffsetCommit(offset_commit(&mut r, version)?)
        }
        Key::GroupMetadata { .. } if (0..=4).contains(&version) => {
            Value::GroupMetadata(group_metadata(&mut r, version)?)
        }
        _ => return Ok(unknown(&r)),
    };
    if !r.rest().is_empty() {
        return Err(WireError(format!(
            "{} bytes after the fields of value version {version}",
            r.rest().len()
        )));
    }
    Ok(value)
}

fn offset_commit(r: &mut Reader<'_>, version: i16) -> Read<OffsetCommit> {
    r.flexible = version >= 4;
    let offset = r.i64("offset")?;
    let leader_epoch = if version >= 3 {
        r.i32("leader epoch")?
    } else {
        -1
    };
    let metadata = r.string("metadata")?;
    let commit_timestamp = r.i64("commit timestamp")?;
    let expire_timestamp = if version == 1 {
        Some(r.i64("expire timestamp")?)
    } else {
        None
    };
    r.tagged_fields("tagged fields")?;
    Ok(OffsetCommit {
        version,
        offset,
        leader_epoch,
        metadata,
        commit_timestamp,
        expire_timestamp,
    })
}

fn group_metadata(r: &mut Reader<'_>, version: i16) -> Read<GroupMetadata> {
    r.flexible = version >= 4;
    let protocol_type = r.string("protocol type")?;
    let generation = r.i32("generation")?;
    let protocol = r.nullable_string("protocol")?;
    let leader = r.nullable_string("leader")?;
    let current_state_timestamp = if version >= 2 {
        Some(r.i64("current state timestamp")?)
    } else {
        None
    };
    let count = r.count("members")?;
    let mut members = Vec::with_capacity(count);
    for _ in 0..count {
        members.push(member(r, version)?);
    }
    r.tagged_fields("tagged fields")?;
    Ok(GroupMetadata {
        version,
        protocol_type,
        generation,
        protocol,
        leader,
        current_state_timestamp,
        members,
    })
}

fn member(r: &mut Reader<'_>, version: i16) -> Read<Member> {
    let member_id = r.string("member id")?;
    let group_instance_id = if version >= 3 {
        r.nullable_string("group instance id")?
    } else {
        None
    };
    let client_id = r.string("client id")?;
    let client_host = r.string("client host")?;
    let rebalance_timeout = if version >= 1 {
        Some(r.i32("rebalance timeout")?)
    } else {
        None
    };
    let session_timeout = r.i32("session timeout")?;
    let subscription_bytes = r.bytes_len("subscription")?;
    let assignment_bytes = r.bytes_len("assignment")?;
    r.tagged_fields("member tagged fields")?;
    Ok(Member {
        member_id,
        group_instance_id,
        client_id,
        client_host,
        rebalance_timeout,
        session_timeout,
        subscription_bytes,
        assignment_bytes,
    })
}

/// The group a record's key names, read without decoding the rest (for
/// `consume __consumer_offsets --group G`); `None` when the key does not
/// read or names no group.
pub fn key_group(key: &[u8]) -> Option<String> {
    let mut r = Reader::new(key);
    let version = r.i16("key version").ok()?;
    (version >= 0).then(|| r.string("group").ok()).flatten()
}

#[cfg(test)]
#[path = "consumer_offsets_tests.rs"]
mod tests;
