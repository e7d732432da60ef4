//! The records of `__share_group_state` (Kafka 4.2+, KIP-932): the share
//! coordinator's state of each share-partition (a share group's view of one
//! topic partition), decoded from Kafka's public message schemas
//! (`share-coordinator/src/main/resources/common/message/`
//! `ShareSnapshotKey`, `ShareSnapshotValue`, `ShareUpdateKey`,
//! `ShareUpdateValue`), written by hand from them.
//!
//! A key is an `int16` record type (0: a snapshot, the whole state; 1: an
//! update, the batches changed since) and the share-partition: group id,
//! topic id (a uuid) and partition. A value is an `int16` version (0, the
//! only one, flexible: compact arrays and tagged fields) and the state:
//! snapshot and state epochs, leader epoch, start offset, the
//! delivery-complete count (a tagged field added in 4.2), for a snapshot
//! when it was created and written, and the state batches (first and last
//! offset, delivery state, delivery count). Other record types and value
//! versions are shown as bytes with their version, never guessed. A null
//! value is a tombstone: the share-partition's state was deleted.

use super::wire::{Read, Reader, WireError};
use crate::meta::snapshot::TopicId;

/// The topic these records live in.
pub const TOPIC: &str = "__share_group_state";

/// Record type (the key's `int16`) of a snapshot.
pub const SNAPSHOT: i16 = 0;
/// Record type (the key's `int16`) of an update.
pub const UPDATE: i16 = 1;

/// The name of a stored delivery state, as the schema lists them
/// (`unknown(N)` for any other).
pub fn delivery_state_name(state: i8) -> String {
    match state {
        0 => "Available".to_owned(),
        2 => "Acked".to_owned(),
        4 => "Archived".to_owned(),
        n => format!("unknown({n})"),
    }
}

/// Whose state a record holds: one topic partition as one share group
/// consumes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharePartition {
    pub group_id: String,
    pub topic_id: TopicId,
    pub partition: i32,
}

impl SharePartition {
    /// The share coordinator's key for it (`SharePartitionKey
    /// .asCoordinatorKey`): `group:topicId:partition`, the id in Kafka's
    /// text form.
    pub fn coordinator_key(&self) -> String {
        format!("{}:{}:{}", self.group_id, self.topic_id, self.partition)
    }
}

/// A run of offsets in one delivery state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateBatch {
    pub first_offset: i64,
    pub last_offset: i64,
    /// The stored state (see [`delivery_state_name`]).
    pub delivery_state: i8,
    pub delivery_count: i16,
}

/// A share-partition's state (`ShareSnapshotValue` or `ShareUpdateValue`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// The value's version (0).
    pub version: i16,
    pub snapshot_epoch: i32,
    /// The state epoch (snapshots only; `None` in an update).
    pub state_epoch: Option<i32>,
    pub leader_epoch: i32,
    /// The share-partition start offset (-1 in an update that leaves it).
    pub start_offset: i64,
    /// Offsets at or past the start offset whose delivery completed (tagged,
    /// Kafka 4.2+; -1 when absent).
    pub delivery_complete_count: i32,
    /// When the state was created and last written, ms since the epoch
    /// (snapshots only).
    pub create_timestamp: Option<i64>,
    pub write_timestamp: Option<i64>,
    pub batches: Vec<StateBatch>,
}

/// What a record's value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A null value: the share-partition's state was deleted.
    Tombstone,
    /// The state, whole (a snapshot) or the batches changed (an update).
    State(State),
    /// A value version or record type this decoder does not know: its
    /// version and bytes.
    Unknown {
        /// The value's version.
        version: i16,
        /// The bytes after the version.
        bytes: Vec<u8>,
    },
    /// The value could not be decoded: why.
    Error(String),
}

/// One decoded record of `__share_group_state`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The key's record type ([`SNAPSHOT`], [`UPDATE`], or one this
    /// decoder does not know).
    pub record_type: i16,
    /// The share-partition (`None` for a record type this decoder does not
    /// know).
    pub key: Option<SharePartition>,
    /// What the value holds.
    pub value: Value,
}

/// Decode a record's key and value; an error names why the key could not be
/// read (a value that cannot be read is [`Value::Error`] beside its key).
pub fn decode(key: Option<&[u8]>, value: Option<&[u8]>) -> Result<Decoded, WireError> {
    let key = key.ok_or_else(|| WireError("null key".to_owned()))?;
    let (record_type, share_partition) = decode_key(key)?;
    let value = match value {
        None => Value::Tombstone,
        Some(bytes) if share_partition.is_some() => {
            decode_value(record_type, bytes).unwrap_or_else(|e| Value::Error(e.0))
        }
        Some(bytes) => unknown(bytes),
    };
    Ok(Decoded {
        record_type,
        key: share_partition,
        value,
    })
}

/// The record type and, for a known one, the share-partition.
fn decode_key(key: &[u8]) -> Read<(i16, Option<SharePartition>)> {
    let mut r = Reader::new(key);
    let record_type = r.i16("record type")?;
    if record_type < 0 {
        return Err(WireError(format!("negative record type {record_type}")));
    }
    if record_type != SNAPSHOT && record_type != UPDATE {
        return Ok((record_type, None));
    }
    let group_id = r.string("group id")?;
    let topic_id = TopicId::from_bytes(r.uuid("topic id")?);
    let partition = r.i32("partition")?;
    if !r.rest().is_empty() {
        return Err(WireError(format!(
            "{} bytes after the key's fields",
            r.rest().len()
        )));
    }
    Ok((
        record_type,
        Some(SharePartition {
            group_id,
            topic_id,
            partition,
        }),
    ))
}

/// A value of a record type this decoder does not know: its version (when
/// it has one) and bytes.
fn unknown(bytes: &[u8]) -> Value {
    match super::wire::versioned_bytes(bytes) {
        Ok((version, bytes)) => Value::Unknown { version, bytes },
        Err(e) => Value::Error(e.0),
    }
}

fn decode_value(record_type: i16, bytes: &[u8]) -> Read<Value> {
    let mut r = Reader::new(bytes);
    let version = r.i16("value version")?;
    if version != 0 {
        return Ok(Value::Unknown {
            version,
            bytes: r.rest().to_vec(),
        });
    }
    r.flexible = true;
    let snapshot = record_type == SNAPSHOT;
    let snapshot_epoch = r.i32("snapshot epoch")?;
    let state_epoch = snapshot.then(|| r.i32("state epoch")).transpose()?;
    let leader_epoch = r.i32("leader epoch")?;
    let start_offset = r.i64("start offset")?;
    let create_timestamp = snapshot.then(|| r.i64("create timestamp")).transpose()?;
    let write_timestamp = snapshot.then(|| r.i64("write timestamp")).transpose()?;
    let batches = batches(&mut r)?;
    let mut state = State {
        version,
        snapshot_epoch,
        state_epoch,
        leader_epoch,
        start_offset,
        delivery_complete_count: -1,
        create_timestamp,
        write_timestamp,
        batches,
    };
    r.each_tagged("tagged fields", |tag, bytes| {
        if tag == 0 {
            state.delivery_complete_count = Reader::new(bytes).i32("delivery complete count")?;
        }
        // A tag added later: skipped, as Kafka's own readers do.
        Ok(())
    })?;
    if !r.rest().is_empty() {
        return Err(WireError(format!(
            "{} bytes after the fields of value version {version}",
            r.rest().len()
        )));
    }
    Ok(Value::State(state))
}

fn batches(r: &mut Reader<'_>) -> Read<Vec<StateBatch>> {
    let count = r.count("state batches")?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(StateBatch {
            first_offset: r.i64("first offset")?,
            last_offset: r.i64("last offset")?,
            delivery_state: r.i8("delivery state")?,
            delivery_count: r.i16("delivery count")?,
        });
        r.tagged_fields("state batch tagged fields")?;
    }
    Ok(out)
}

/// The group a record's key names, read without decoding the rest.
pub fn key_group(key: &[u8]) -> Option<String> {
    decode_key(key).ok()?.1.map(|sp| sp.group_id)
}

/// The share-partition a record's key names (`None` for a key that cannot
/// be read or of a record type this decoder does not know).
pub fn key_share_partition(key: &[u8]) -> Option<SharePartition> {
    decode_key(key).ok()?.1
}

/// The `__share_group_state` partition that holds a share-partition's
/// records, as the share coordinator places it
/// (`ShareCoordinatorService.partitionFor`): `Utils.abs(key.hashCode()) %
/// partitions` over the coordinator key `group:topicId:partition`.
/// `None` when the topic has no partitions.
pub fn partition_for(share_partition: &SharePartition, partitions: i32) -> Option<i32> {
    super::placement::partition_for_group(&share_partition.coordinator_key(), partitions)
}

#[cfg(test)]
#[path = "share_group_state_tests.rs"]
mod tests;
