//! `kscope consume TOPIC --key K`: find a key's records by reading only the
//! partition the Java client's default partitioner puts it in
//! ([`crate::browse::partitioner`]), newest first unless `--from` says where
//! to start.
//!
//! Newest first reads the partition backwards in windows of offsets (1,000
//! records, then four times more each time), each window forward, until
//! enough matches are found or the log start is reached; every window's
//! matches are printed newest first. A window's fetch asks for about the
//! bytes the window holds (bytes per offset as read so far, plus a tenth and
//! 64 KiB), so that one fetch reads it whole and little past its end (what
//! a fetch reads past its window was read already: fetched for nothing, it
//! counts against the goal of reading about one partition's share). A key is matched on its raw bytes, or,
//! with a schema registry, on the decoded value of a Confluent-framed key
//! (its text, or its JSON for a non-string).

use std::io::Write;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::Value;

use crate::browse::{self, Browser, Event, Options, Record, Start, partitioner};
use crate::meta::Cluster;
use crate::schema::{Decoder, Decoding};

use super::consume::{ConsumeArgs, Output};
use super::error::Error;

/// The first window read back from the end, in records.
const FIRST_WINDOW: i64 = 1000;
/// The per-partition fetch size of the first window (it ends at the log's
/// end, so nothing is read past it).
const FIRST_FETCH_BYTES: i32 = 1024 * 1024;
/// Bounds of a later window's fetch size.
const FETCH_BYTES: (u64, u64) = (64 * 1024, 8 * 1024 * 1024);

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

/// A later window's fetch size: the bytes `span` offsets hold at the rate
/// read so far (`fetched` bytes over `covered` offsets), a tenth more and
/// 64 KiB, within [`FETCH_BYTES`].
fn window_fetch(span: i64, fetched: u64, covered: i64) -> i32 {
    let (span, covered) = (
        u64::try_from(span).unwrap_or(0),
        u64::try_from(covered).unwrap_or(0).max(1),
    );
    let bytes = span.saturating_mul(fetched) / covered;
    let want = bytes
        .saturating_add(bytes / 10)
        .saturating_add(FETCH_BYTES.0);
    i32::try_from(want.clamp(FETCH_BYTES.0, FETCH_BYTES.1)).unwrap_or(i32::MAX)
}

/// Newest first: read `partition` backwards in windows, printing each
/// window's matches newest first, until `count` are printed or the log
/// start is reached. Returns the matches printed and the bytes fetched.
pub async fn newest_first(
    cluster: &Cluster,
    args: &ConsumeArgs,
    key: &KeyArg,
    partition: i32,
    output: &mut Output<'_>,
    out: &mut impl Write,
) -> Result<(u64, u64), Error> {
    let count = args.count.unwrap_or(1);
    let (low, end) = browse::watermarks(cluster, &args.topic, partition, args.isolation).await?;
    let (mut hi, mut window, mut printed, mut fetched) = (end, FIRST_WINDOW, 0_u64, 0_u64);
    while hi > low && printed < count {
        let lo = hi.saturating_sub(window).max(low);
        let partition_max_bytes = if hi == end {
            FIRST_FETCH_BYTES
        } else {
            window_fetch(hi - lo, fetched, end - hi)
        };
        let options = Options {
            isolation: args.isolation,
            until: Some(hi),
            partition_max_bytes,
            ..Options::default()
        };
        let mut browser = Browser::open(
            cluster.clone(),
            &args.topic,
            Some(partition),
            &Start::Offset(lo),
            options,
        )
        .await?;
        let mut found = Vec::new();
        while !browser.finished() {
            for event in browser.next_events().await? {
                match event {
                    Event::Notice(notice) => Output::notice(&args.topic, &notice),
                    Event::Record(record) => {
                        if key.matches(&record, output.decoder).await {
                            found.push(record);
                        }
                    }
                }
            }
        }
        fetched += browser.bytes_fetched();
        for record in found.iter().rev() {
            if printed >= count {
                break;
            }
            if output.print(args, record, out).await? {
                printed += 1;
            }
        }
        out.flush()?;
        hi = lo;
        window = window.saturating_mul(4);
    }
    Ok((printed, fetched))
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
    fn a_windows_fetch_asks_for_about_its_bytes() {
        // 250 bytes an offset so far: 4,000 offsets are ~1 MB, plus a tenth
        // and 64 KiB.
        assert_eq!(window_fetch(4000, 250_000, 1000), 1_100_000 + 65_536);
        assert_eq!(window_fetch(1, 10, 1000), 65_536, "at least 64 KiB");
        assert_eq!(
            window_fetch(i64::MAX, u64::MAX, 1),
            8 * 1024 * 1024,
            "at most 8 MiB"
        );
        assert_eq!(window_fetch(10, 0, 0), 65_536, "nothing read yet");
    }

    #[test]
    fn a_decoded_key_matches_its_text_or_its_json() {
        assert!(decoded_is(&Value::from("order-7"), "order-7"));
        assert!(decoded_is(&Value::from(4711), "4711"));
        assert!(decoded_is(&serde_json::json!({"id": 1}), "{\"id\":1}"));
        assert!(!decoded_is(&Value::from("order-7"), "\"order-7\""));
    }
}
