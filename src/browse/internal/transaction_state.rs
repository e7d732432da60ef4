//! The records of `__transaction_state`, decoded from Kafka's public message
//! schemas (`transaction-coordinator/src/main/resources/common/message/`
//! `TransactionLogKey` and `TransactionLogValue`), written by hand from them.
//!
//! A key is an `int16` version (0, the only one) and the transactional id.
//! A value is an `int16` version and the transaction's metadata as the
//! coordinator last wrote it: version 0, or version 1 (flexible: compact
//! strings and arrays, and the previous and next producer ids and the
//! client's transaction version as tagged fields). Other versions are shown
//! as bytes with their version, never guessed. A null value is a tombstone:
//! the transactional id expired and was removed.

use super::wire::{Read, Reader, WireError};

/// The topic these records live in.
pub const TOPIC: &str = "__transaction_state";

/// The transaction states as the coordinator numbers them (Kafka's
/// `TransactionState`): the index is the stored `int8`.
const STATES: [&str; 8] = [
    "Empty",
    "Ongoing",
    "PrepareCommit",
    "PrepareAbort",
    "CompleteCommit",
    "CompleteAbort",
    "Dead",
    "PrepareEpochFence",
];

/// The name of stored transaction state `status` (`unknown(N)` beyond
/// those this kscope knows).
pub fn state_name(status: i8) -> String {
    usize::try_from(status)
        .ok()
        .and_then(|i| STATES.get(i))
        .map_or_else(|| format!("unknown({status})"), |s| (*s).to_owned())
}

/// One topic's partitions in a transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicPartitions {
    pub topic: String,
    pub partitions: Vec<i32>,
}

/// A transactional id's metadata (`TransactionLogValue`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    /// The value's version (0 or 1).
    pub version: i16,
    /// The producer id the transactional id uses.
    pub producer_id: i64,
    /// The producer id of the last committed transaction (v1, tagged; -1
    /// when absent).
    pub previous_producer_id: i64,
    /// The producer id last handed to the producer (v1, tagged; -1 when absent).
    pub next_producer_id: i64,
    pub producer_epoch: i16,
    /// The transaction timeout in ms.
    pub timeout_ms: i32,
    /// The stored state (see [`state_name`]).
    pub status: i8,
    /// The partitions in the transaction (none when null or empty).
    pub partitions: Vec<TopicPartitions>,
    /// When the coordinator last updated it (ms since the epoch).
    pub last_update_timestamp: i64,
    /// When the transaction started (ms since the epoch; -1 when none is open).
    pub start_timestamp: i64,
    /// The client's transaction version (v1, tagged; 0 when absent).
    pub client_transaction_version: i16,
}

/// What a record's value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A null value: the transactional id was removed.
    Tombstone,
    /// The transaction's metadata.
    Transaction(Transaction),
    /// A value version this decoder does not know: its version and bytes.
    Unknown {
        /// The value's version.
        version: i16,
        /// The bytes after the version.
        bytes: Vec<u8>,
    },
    /// The value could not be decoded: why.
    Error(String),
}

/// One decoded record of `__transaction_state`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The key's version.
    pub key_version: i16,
    /// The transactional id the record is about (`None` for a key version
    /// this decoder does not know).
    pub transactional_id: Option<String>,
    /// What the value holds.
    pub value: Value,
}

/// Decode a record's key and value; an error names why the key could not be
/// read (a value that cannot be read is [`Value::Error`] beside its key).
pub fn decode(key: Option<&[u8]>, value: Option<&[u8]>) -> Result<Decoded, WireError> {
    let mut r = Reader::new(key.ok_or_else(|| WireError("null key".to_owned()))?);
    let key_version = r.i16("key version")?;
    if key_version < 0 {
        return Err(WireError(format!("negative key version {key_version}")));
    }
    let transactional_id = if key_version == 0 {
        let id = r.string("transactional id")?;
        if !r.rest().is_empty() {
            return Err(WireError(format!(
                "{} bytes after the key's fields",
                r.rest().len()
            )));
        }
        Some(id)
    } else {
        None
    };
    let value = match value {
        None => Value::Tombstone,
        Some(bytes) if key_version == 0 => {
            decode_value(bytes).unwrap_or_else(|e| Value::Error(e.0))
        }
        Some(bytes) => unknown(bytes),
    };
    Ok(Decoded {
        key_version,
        transactional_id,
        value,
    })
}

/// A value of a key version this decoder does not know: its version (when
/// it has one) and bytes.
fn unknown(bytes: &[u8]) -> Value {
    match super::wire::versioned_bytes(bytes) {
        Ok((version, bytes)) => Value::Unknown { version, bytes },
        Err(e) => Value::Error(e.0),
    }
}

fn decode_value(bytes: &[u8]) -> Read<Value> {
    let mut r = Reader::new(bytes);
    let version = r.i16("value version")?;
    if !(0..=1).contains(&version) {
        return Ok(Value::Unknown {
            version,
            bytes: r.rest().to_vec(),
        });
    }
    r.flexible = version >= 1;
    let producer_id = r.i64("producer id")?;
    let producer_epoch = r.i16("producer epoch")?;
    let timeout_ms = r.i32("transaction timeout")?;
    let status = r.i8("transaction status")?;
    let partitions = partitions(&mut r)?;
    let last_update_timestamp = r.i64("last update timestamp")?;
    let start_timestamp = r.i64("start timestamp")?;
    let mut transaction = Transaction {
        version,
        producer_id,
        previous_producer_id: -1,
        next_producer_id: -1,
        producer_epoch,
        timeout_ms,
        status,
        partitions,
        last_update_timestamp,
        start_timestamp,
        client_transaction_version: 0,
    };
    r.each_tagged("tagged fields", |tag, bytes| {
        let mut field = Reader::new(bytes);
        match tag {
            0 => transaction.previous_producer_id = field.i64("previous producer id")?,
            1 => transaction.next_producer_id = field.i64("next producer id")?,
            2 => transaction.client_transaction_version = field.i16("client txn version")?,
            // A tag added later: skipped, as Kafka's own readers do.
            _ => {}
        }
        Ok(())
    })?;
    if !r.rest().is_empty() {
        return Err(WireError(format!(
            "{} bytes after the fields of value version {version}",
            r.rest().len()
        )));
    }
    Ok(Value::Transaction(transaction))
}

fn partitions(r: &mut Reader<'_>) -> Read<Vec<TopicPartitions>> {
    let count = r.count("transaction partitions")?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let topic = r.string("topic")?;
        let ids = r.count("partition ids")?;
        let mut partitions = Vec::with_capacity(ids);
        for _ in 0..ids {
            partitions.push(r.i32("partition id")?);
        }
        r.tagged_fields("partition tagged fields")?;
        out.push(TopicPartitions { topic, partitions });
    }
    Ok(out)
}

/// The transactional id a record's key names, read without decoding the
/// rest (for `consume __transaction_state --transactional-id T`).
pub fn key_transactional_id(key: &[u8]) -> Option<String> {
    let mut r = Reader::new(key);
    (r.i16("key version").ok()? == 0)
        .then(|| r.string("transactional id").ok())
        .flatten()
}

#[cfg(test)]
#[path = "transaction_state_tests.rs"]
mod tests;
