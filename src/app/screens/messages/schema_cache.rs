//! The schemas of Confluent-framed records on the Messages screen: asked of
//! the worker for the ids of the rows on screen and the record open (never
//! for every record read), kept for the session, and used to decode the
//! visible keys and values. Decoding with a fetched schema is pure CPU
//! ([`crate::schema::decoder::decode_with`]); the fetch itself is an
//! [`Effect::FetchSchema`], so a slow or dead registry never holds a frame:
//! until its answer lands the record shows "decoding…" beside its bytes.
//! Values without the wire prefix of a topic the config maps to a schema
//! (`topic_schemas`) decode with it the same way: the mapping is compiled
//! off the loop once ([`Effect::PrepareMapping`]), then decoding is CPU.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::browse::{Format, format::schema_id};
use crate::schema::decoder::{Decoded, Decoding, decode_with};
use crate::schema::mapping::Mappings;
use crate::schema::{self, SchemaInfo};

use crate::app::failure::Failure;

/// A transient failure (registry unreachable, a 5xx) is asked again after this.
pub const RETRY_AFTER: Duration = schema::decoder::RETRY_AFTER;
/// A fetch without an answer for this long is asked again.
const GIVE_UP: Duration = Duration::from_secs(30);
/// A cell's decoded JSON is cut after this many bytes (the column is narrower).
const CELL_CHARS: usize = 1600;
/// Bytes of a marked cell shown as hex.
const CELL_HEX: usize = 32;

#[derive(Debug)]
pub(in crate::app) enum Slot {
    Pending(Instant),
    Ready(Arc<SchemaInfo>),
    /// Why not (its message is the marker shown beside the bytes, e.g.
    /// `schema id 7 not found in the registry`), and when it landed.
    Failed(Failure, Instant),
}

/// The schemas asked for this session.
#[derive(Debug, Default)]
pub struct SchemaCache {
    /// The context has a schema registry (otherwise framed values show as
    /// bytes with their schema id, and nothing is asked).
    pub enabled: bool,
    pub(in crate::app) slots: HashMap<u32, Slot>,
    /// Answers received (the open record is laid out again on each).
    pub answers: u64,
    /// The context's per-topic schemas for values without the wire prefix.
    pub mappings: Mappings,
    /// Topics whose mapping was asked to be compiled.
    pub(in crate::app) preparing: HashSet<String>,
}

/// How a framed key or value shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    /// Not Confluent-framed (or the format shows bytes): as before.
    Bytes,
    /// Framed, but no registry is configured.
    NoRegistry(u32),
    /// Its schema is being fetched.
    Pending(u32),
    /// Decoded.
    Decoded(Box<Decoded>),
    /// Framed and not decodable: the marker.
    Failed(u32, String),
    /// Not framed, and the topic's mapping is being compiled.
    MappingPending,
    /// Not framed, and the topic's mapping does not decode it: why.
    MappingFailed(String),
}

impl SchemaCache {
    /// Forget every schema (another context), keeping `enabled`.
    pub fn reset(&mut self) {
        self.slots.clear();
        self.preparing.clear();
    }

    /// How a value of `topic` shows under `format`: as [`SchemaCache::shown`],
    /// and a value without the wire prefix by the topic's mapping, if any.
    pub fn shown_value(&self, topic: &str, bytes: &[u8], format: Format) -> Shown {
        let shown = self.shown(bytes, format);
        if shown != Shown::Bytes || !format.decodes() || schema_id(bytes).is_some() {
            return shown;
        }
        match self.mappings.decode_prepared(topic, bytes) {
            Some(Decoding::Decoded(decoded)) => Shown::Decoded(Box::new(decoded)),
            Some(Decoding::Failed { reason, .. }) => Shown::MappingFailed(reason),
            None if self.mappings.unprepared(topic) => Shown::MappingPending,
            Some(Decoding::NotFramed) | None => Shown::Bytes,
        }
    }

    /// How `bytes` show under `format`.
    pub fn shown(&self, bytes: &[u8], format: Format) -> Shown {
        let Some(id) = schema_id(bytes).filter(|_| format.decodes()) else {
            return Shown::Bytes;
        };
        if !self.enabled {
            return Shown::NoRegistry(id);
        }
        let info = match self.slots.get(&id) {
            None | Some(Slot::Pending(_)) => return Shown::Pending(id),
            Some(Slot::Failed(failure, _)) => return Shown::Failed(id, failure.message.clone()),
            Some(Slot::Ready(info)) => info,
        };
        let expected = match format {
            Format::Avro => Some(schema::Format::Avro),
            Format::Protobuf => Some(schema::Format::Protobuf),
            Format::JsonSchema => Some(schema::Format::JsonSchema),
            _ => None,
        };
        if let Some(expected) = expected.filter(|e| *e != info.format) {
            return Shown::Failed(
                id,
                format!(
                    "schema id {id} is {}, not {}",
                    info.format.name(),
                    expected.name()
                ),
            );
        }
        match decode_with(info, &bytes[5..]) {
            Decoding::Decoded(decoded) => Shown::Decoded(Box::new(decoded)),
            Decoding::Failed { reason, .. } => Shown::Failed(id, reason),
            Decoding::NotFramed => Shown::Bytes,
        }
    }

    /// A key's or value's one-line cell when it is framed and a registry is
    /// configured: the decoded JSON, or its bytes (as hex) behind a marker
    /// (`[schema 7 decoding…]`, `[schema 7 not decoded]`); `None` otherwise
    /// (the caller shows the bytes as usual).
    pub fn cell(&self, bytes: Option<&[u8]>, format: Format) -> Option<String> {
        Self::cell_of(bytes?, self.shown(bytes?, format))
    }

    /// A value's cell: as [`SchemaCache::cell`], and decoded by `topic`'s
    /// mapping when it has no wire prefix.
    pub fn value_cell(&self, topic: &str, bytes: Option<&[u8]>, format: Format) -> Option<String> {
        Self::cell_of(bytes?, self.shown_value(topic, bytes?, format))
    }

    fn cell_of(bytes: &[u8], shown: Shown) -> Option<String> {
        let hex =
            || crate::browse::format::hex_preview(bytes.get(5..).unwrap_or_default(), CELL_HEX);
        let raw = || crate::browse::format::hex_preview(bytes, CELL_HEX);
        match shown {
            Shown::Bytes | Shown::NoRegistry(_) => None,
            Shown::Decoded(decoded) => {
                let mut text = decoded.value.to_string();
                if text.len() > CELL_CHARS {
                    let cut = (0..=CELL_CHARS)
                        .rev()
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap_or(0);
                    text.truncate(cut);
                    text.push('…');
                }
                Some(text)
            }
            Shown::Pending(id) => Some(format!("[schema {id} decoding…] {}", hex())),
            Shown::Failed(id, _) => Some(format!("[schema {id} not decoded] {}", hex())),
            Shown::MappingPending => Some(format!("[topic schema decoding…] {}", raw())),
            Shown::MappingFailed(_) => Some(format!("[topic schema not decoded] {}", raw())),
        }
    }

    /// Whether id `id` should be asked for now.
    pub(in crate::app) fn due(&self, id: u32, now: Instant) -> bool {
        match self.slots.get(&id) {
            None => true,
            Some(Slot::Ready(_)) => false,
            Some(Slot::Pending(at)) => now.saturating_duration_since(*at) >= GIVE_UP,
            Some(Slot::Failed(failure, at)) => {
                failure.is_transient() && now.saturating_duration_since(*at) >= RETRY_AFTER
            }
        }
    }

    /// The number of schema ids held (asked, answered or failed).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no schema id was met yet.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::failure::Kind;

    #[test]
    fn unframed_bytes_text_formats_and_no_registry() {
        let mut cache = SchemaCache::default();
        assert_eq!(cache.shown(b"{\"a\":1}", Format::Auto), Shown::Bytes);
        assert_eq!(cache.shown(b"\0\0\0\0\x07{}", Format::Hex), Shown::Bytes);
        assert_eq!(
            cache.shown(b"\0\0\0\0\x07{}", Format::Auto),
            Shown::NoRegistry(7)
        );
        cache.enabled = true;
        assert_eq!(
            cache.shown(b"\0\0\0\0\x07{}", Format::Avro),
            Shown::Pending(7)
        );
    }

    #[test]
    fn a_transient_failure_is_due_again_after_the_retry_delay_a_final_one_never() {
        let now = Instant::now();
        let mut cache = SchemaCache {
            enabled: true,
            ..SchemaCache::default()
        };
        let failure = |kind| Failure::new(kind, "x");
        cache
            .slots
            .insert(1, Slot::Failed(failure(Kind::Transient), now));
        cache
            .slots
            .insert(2, Slot::Failed(failure(Kind::Final), now));
        cache.slots.insert(3, Slot::Pending(now));
        assert!(!cache.due(1, now));
        assert!(cache.due(1, now + RETRY_AFTER));
        assert!(!cache.due(2, now + RETRY_AFTER * 100));
        assert!(!cache.due(3, now + RETRY_AFTER));
        assert!(cache.due(3, now + GIVE_UP));
        assert!(cache.due(4, now));
        assert_eq!(
            cache.shown(b"\0\0\0\0\x02{}", Format::Auto),
            Shown::Failed(2, "x".to_owned())
        );
    }
}
