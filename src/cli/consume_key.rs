//! `kscope consume TOPIC --key K`: find a key's records by reading only the
//! partition the Java client's default partitioner puts it in
//! ([`crate::browse::partitioner`]), newest first (`consume_newest`) unless
//! `--from` says where to start. A key is matched on its raw bytes, or,
//! with a schema registry, on the decoded value of a Confluent-framed key
//! (its text, or its JSON for a non-string).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::Value;

use crate::browse::{self, Record, partitioner};
use crate::meta::Cluster;
use crate::schema::{Decoder, Decoding};

use super::error::Error;

/// The key asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyArg {
    /// Its bytes, hashed and compared with each record's key.
    pub bytes: Vec<u8>,
    /// How the user wrote it (for messages and the decoded-key match).
    pub text: String,
    /// Read every partition instead of the key's.
    pub scan: bool,
}

impl KeyArg {
    /// `--key TEXT`: its UTF-8 bytes.
    pub fn text(text: &str, scan: bool) -> KeyArg {
        KeyArg {
            bytes: text.as_bytes().to_vec(),
            text: text.to_owned(),
            scan,
        }
    }

    /// `--key-raw hex:…|base64:…`.
    pub fn raw(spec: &str, scan: bool) -> Result<KeyArg, Error> {
        let bad = |why: &str| Error::Usage(format!("--key-raw '{spec}': {why}"));
        let bytes = if let Some(hex) = spec.strip_prefix("hex:") {
            decode_hex(hex).ok_or_else(|| bad("not an even number of hex digits"))?
        } else if let Some(b64) = spec.strip_prefix("base64:") {
            BASE64.decode(b64).map_err(|e| bad(&e.to_string()))?
        } else {
            return Err(bad("give the bytes as hex:HEX or base64:BASE64"));
        };
        Ok(KeyArg {
            bytes,
            text: spec.to_owned(),
            scan,
        })
    }

    /// Whether `record` has this key: the same bytes, or (with a registry)
    /// a framed key whose decoded value reads as the text asked for.
    pub async fn matches(&self, record: &Record, decoder: Option<&Decoder>) -> bool {
        let Some(key) = record.key.as_deref() else {
            return false;
        };
        if key == self.bytes.as_slice() {
            return true;
        }
        match decoder {
            Some(decoder) if key.first() == Some(&0) && key.len() > 5 => {
                match decoder.decode(key).await {
                    Decoding::Decoded(found) => decoded_is(&found.value, &self.text),
                    _ => false,
                }
            }
            _ => false,
        }
    }
}

/// Whether a decoded key is `text`: a string equal to it, or other JSON
/// whose compact text is it (`4711`, `{"id":1}`).
fn decoded_is(value: &Value, text: &str) -> bool {
    match value {
        Value::String(s) => s == text,
        other => serde_json::to_string(other).is_ok_and(|json| json == text),
    }
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    let hex = hex.as_bytes();
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    hex.chunks_exact(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// `topic`'s partition count, freshly read (it decides where a key or a
/// group lives); an error when the topic does not exist.
pub async fn partition_count(cluster: &Cluster, topic: &str) -> Result<i32, Error> {
    let snapshot = cluster
        .refresh_topics(&[topic])
        .await
        .map_err(|_| browse::Error::TopicNotFound(topic.to_owned()))?;
    let count = snapshot
        .topic(topic)
        .map(|t| t.partitions.len())
        .ok_or_else(|| browse::Error::TopicNotFound(topic.to_owned()))?;
    Ok(i32::try_from(count).unwrap_or(i32::MAX))
}

/// The partition `key` maps to in `topic` (said on stderr, with the caveat
/// about partition-count changes).
pub async fn partition(cluster: &Cluster, topic: &str, key: &KeyArg) -> Result<i32, Error> {
    let count = partition_count(cluster, topic).await?;
    let partition = partitioner::partition_for_key(&key.bytes, count)
        .ok_or_else(|| Error::Usage(format!("topic '{topic}' has no partitions")))?;
    eprintln!(
        "kscope: key '{}' is in partition {partition} of {count} (murmur2, the Java client's default partitioner); \
records written before the topic's partition count changed, or by a producer with another partitioner, \
may sit in another partition: --key-scan reads every partition",
        crate::untrusted::escape(&key.text)
    );
    Ok(partition)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_keys_read_hex_and_base64() {
        let hex = KeyArg::raw("hex:0000000001", false).map(|k| k.bytes);
        assert_eq!(hex.ok(), Some(vec![0, 0, 0, 0, 1]));
        let b64 = KeyArg::raw("base64:AAAAAAE=", false).map(|k| k.bytes);
        assert_eq!(b64.ok(), Some(vec![0, 0, 0, 0, 1]));
        for bad in ["00ff", "hex:abc", "hex:zz", "base64:!!"] {
            assert!(KeyArg::raw(bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_decoded_key_matches_its_text_or_its_json() {
        assert!(decoded_is(&Value::from("order-7"), "order-7"));
        assert!(decoded_is(&Value::from(4711), "4711"));
        assert!(decoded_is(&serde_json::json!({"id": 1}), "{\"id\":1}"));
        assert!(!decoded_is(&Value::from("order-7"), "\"order-7\""));
    }
}
