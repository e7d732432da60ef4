//! What a recording holds: its [`Header`] and the [`Frame`]s after it.
//!
//! These are the recording's own types, not the metadata layer's: the
//! file format changes only when these do, and a change here must keep
//! reading version 1 (the fixture under `tests/recording_fixture/`).
//! Field names are short because every frame repeats them (zstd takes most
//! of the repetition, the rest is cheap to keep).

use serde::{Deserialize, Serialize};

use super::group_row::GroupRowJson;
use crate::meta::{MovementEvent, MovementKind, Severity};

/// The file's first words: what wrote it and when, never a secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The kscope version that wrote it (`CARGO_PKG_VERSION`).
    pub kscope: String,
    /// The context name it was recorded from (a name, never its settings).
    pub context: Option<String>,
    /// When recording started, milliseconds since the Unix epoch.
    pub start_ms: i64,
    /// The topic filter (`--topics`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics: Option<String>,
    /// The group filter (`--groups`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub groups: Option<String>,
}

/// One timestamped entry: `t` is when kscope recorded it (ms since the
/// Unix epoch); the body says what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// Milliseconds since the Unix epoch.
    pub t: i64,
    /// What was recorded.
    #[serde(flatten)]
    pub body: Body,
}

impl Frame {
    /// The frame one JSON line holds. The derived `Deserialize` (a body
    /// flattened beside `t`, internally tagged by `type`) first buffers the
    /// whole line as generic values, then clones them again per try: ~85 %
    /// of the time of reading a 100k-partition recording. Here the line is
    /// read twice instead: once for `t` and `type` (the rest skipped, not
    /// kept), then as the body's own type (which skips `t` and `type`).
    ///
    /// # Errors
    /// The line is not a frame (a missing or unknown `type`, a field of the
    /// wrong shape).
    pub fn from_json(line: &[u8]) -> serde_json::Result<Frame> {
        #[derive(Deserialize)]
        struct Events {
            events: Vec<Event>,
        }
        #[derive(Deserialize)]
        struct Groups {
            groups: Vec<GroupRowJson>,
            #[serde(default)]
            failed: Vec<(i32, String)>,
        }
        let (t, kind) = Frame::tag(line)?;
        let body = match kind.as_str() {
            "snapshot" => Body::Snapshot(serde_json::from_slice(line)?),
            "delta" => Body::Delta(serde_json::from_slice(line)?),
            "events" => Body::Events {
                events: serde_json::from_slice::<Events>(line)?.events,
            },
            "health" => Body::Health(serde_json::from_slice(line)?),
            "groups" => {
                let Groups { groups, failed } = serde_json::from_slice(line)?;
                Body::Groups { groups, failed }
            }
            other => {
                return Err(serde::de::Error::unknown_variant(
                    other,
                    &["snapshot", "delta", "events", "health", "groups"],
                ));
            }
        };
        Ok(Frame { t, body })
    }

    /// A line's `t` and `type` alone (the body skipped, not kept).
    ///
    /// # Errors
    /// The line is not a JSON object with both.
    pub fn tag(line: &[u8]) -> serde_json::Result<(i64, String)> {
        #[derive(Deserialize)]
        struct Tag {
            t: i64,
            #[serde(rename = "type")]
            kind: String,
        }
        let tag: Tag = serde_json::from_slice(line)?;
        Ok((tag.t, tag.kind))
    }
}

/// What a frame holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Body {
    /// The whole metadata: the first frame, and whenever a full restatement
    /// is cheaper to replay from than a long run of deltas.
    Snapshot(Metadata),
    /// What changed in the metadata since the frame before.
    Delta(Delta),
    /// Events as kscope derived them (the `watch events` feed).
    Events {
        /// In the order they were derived.
        events: Vec<Event>,
    },
    /// kscope's own liveness view: brokers not answering, frozen quorum.
    Health(Health),
    /// The group list with lag (what `get groups` prints), when it changed.
    Groups {
        /// One row per group, as `get groups -o json` prints it.
        groups: Vec<GroupRowJson>,
        /// Brokers whose group listing failed, with why.
        #[serde(default)]
        failed: Vec<(i32, String)>,
    },
}

/// The whole metadata at one moment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    pub cluster_id: Option<String>,
    /// The active controller.
    pub controller: Option<i32>,
    /// The quorum's voters.
    #[serde(default)]
    pub voters: Vec<i32>,
    /// Every broker the metadata names.
    pub brokers: Vec<Broker>,
    /// Every recorded topic (those `--topics` matches), by name.
    pub topics: Vec<Topic>,
}

/// A change to the metadata. Brokers are few: when any changed, the whole
/// list is restated. Topics created, recreated or grown come whole;
/// partitions whose leader, epoch, ISR or replicas changed come alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delta {
    /// The controller, when it changed (`Some(None)`, written as `null`:
    /// none known now; absent: unchanged).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub controller: Option<Option<i32>>,
    /// The voters, when they changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voters: Option<Vec<i32>>,
    /// The broker list, when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brokers: Option<Vec<Broker>>,
    /// Topics new, recreated (another id) or with a new partition count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<Topic>,
    /// Partitions that changed, by topic name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<(String, Partition)>,
    /// Topics gone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deleted: Vec<String>,
}

/// A field that is there, `null` included: `Some` of what it holds (serde
/// alone reads a `null` as absent, which would turn "no controller now"
/// into "unchanged").
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

impl Delta {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        *self == Delta::default()
    }
}

/// A broker as the metadata names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Broker {
    /// Node id.
    pub id: i32,
    /// Advertised host.
    pub host: String,
    /// Advertised port.
    pub port: i32,
    /// Rack, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<String>,
}

/// A topic with its partitions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Topic {
    pub name: String,
    /// Topic id, 32 hex digits (all zeros when the broker sent none).
    pub id: String,
    /// Internal (`__consumer_offsets`, …).
    #[serde(default)]
    pub internal: bool,
    /// Partitions by index.
    pub partitions: Vec<Partition>,
}

/// One partition's placement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partition {
    /// Index.
    pub p: i32,
    /// Leader; absent when offline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leader: Option<i32>,
    /// Leader epoch.
    pub epoch: i32,
    /// Replica set, preferred leader first.
    pub replicas: Vec<i32>,
    /// In-sync replicas.
    pub isr: Vec<i32>,
    /// Offline replicas.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offline: Vec<i32>,
}

/// kscope's liveness view.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// Brokers not answering kscope, with since when (ms since the epoch).
    #[serde(default)]
    pub not_answering: Vec<(i32, i64)>,
    /// Why the metadata is frozen, while it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frozen: Option<String>,
}

/// One event: when it was observed (ms since the epoch), where, and its
/// kind with the kind's own fields (as `watch leaders -o json` names them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawEvent")]
pub struct Event {
    /// When kscope observed it.
    pub at: i64,
    /// The topic, for topic and partition events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// The partition, for partition events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<i32>,
    /// What happened.
    #[serde(flatten)]
    pub kind: MovementKind,
    /// For `events_suppressed`: the severity of the kind folded (the kind's
    /// own serialization leaves it out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folded: Option<Severity>,
}

/// An [`Event`] as read, its kind still JSON: the kind is decoded from an
/// owned value, since an event kind holds `'static` names.
#[derive(Deserialize)]
struct RawEvent {
    at: i64,
    #[serde(default)]
    topic: Option<String>,
    #[serde(default)]
    partition: Option<i32>,
    #[serde(default)]
    folded: Option<Severity>,
    #[serde(flatten)]
    kind: serde_json::Map<String, serde_json::Value>,
}

impl TryFrom<RawEvent> for Event {
    type Error = serde_json::Error;

    fn try_from(raw: RawEvent) -> Result<Self, Self::Error> {
        Ok(Event {
            at: raw.at,
            topic: raw.topic,
            partition: raw.partition,
            kind: MovementKind::deserialize(serde_json::Value::Object(raw.kind))?,
            folded: raw.folded,
        })
    }
}

impl From<&MovementEvent> for Event {
    fn from(event: &MovementEvent) -> Self {
        Event {
            at: millis(event.time),
            topic: event.topic.clone(),
            partition: event.partition,
            kind: event.kind.clone(),
            folded: match &event.kind {
                MovementKind::EventsSuppressed { severity, .. } => Some(*severity),
                _ => None,
            },
        }
    }
}

impl From<Event> for MovementEvent {
    fn from(event: Event) -> Self {
        let mut kind = event.kind;
        if let (MovementKind::EventsSuppressed { severity, .. }, Some(folded)) =
            (&mut kind, event.folded)
        {
            *severity = folded;
        }
        MovementEvent {
            time: time(event.at),
            topic: event.topic,
            partition: event.partition,
            kind,
        }
    }
}

/// Milliseconds since the Unix epoch (negative before it, saturating).
pub fn millis(time: std::time::SystemTime) -> i64 {
    match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
        Err(before) => -i64::try_from(before.duration().as_millis()).unwrap_or(i64::MAX),
    }
}

/// The time `ms` milliseconds from the Unix epoch.
pub fn time(ms: i64) -> std::time::SystemTime {
    let offset = std::time::Duration::from_millis(ms.unsigned_abs());
    if ms >= 0 {
        std::time::UNIX_EPOCH
            .checked_add(offset)
            .unwrap_or(std::time::UNIX_EPOCH)
    } else {
        std::time::UNIX_EPOCH
            .checked_sub(offset)
            .unwrap_or(std::time::UNIX_EPOCH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies() -> Vec<Body> {
        let partition = Partition {
            p: 0,
            leader: Some(1),
            epoch: 3,
            replicas: vec![1, 2],
            isr: vec![1],
            offline: Vec::new(),
        };
        let broker = Broker {
            id: 1,
            host: "h".to_owned(),
            port: 9092,
            rack: Some("r".to_owned()),
        };
        vec![
            Body::Snapshot(Metadata {
                cluster_id: Some("c".to_owned()),
                controller: Some(1),
                voters: vec![1],
                brokers: vec![broker.clone()],
                topics: vec![Topic {
                    name: "type".to_owned(),
                    id: "0".repeat(32),
                    internal: false,
                    partitions: vec![partition.clone()],
                }],
            }),
            Body::Delta(Delta {
                controller: Some(None),
                brokers: Some(vec![broker]),
                partitions: vec![("t".to_owned(), partition)],
                deleted: vec!["gone".to_owned()],
                ..Delta::default()
            }),
            Body::Events { events: Vec::new() },
            Body::Health(Health {
                not_answering: vec![(2, 5)],
                frozen: Some("why".to_owned()),
            }),
            Body::Groups {
                groups: Vec::new(),
                failed: vec![(1, "no".to_owned())],
            },
        ]
    }

    #[test]
    fn every_body_reads_back_as_the_derived_reader_reads_it() {
        for body in bodies() {
            let frame = Frame { t: 42, body };
            let line = serde_json::to_vec(&frame).unwrap();
            assert_eq!(Frame::from_json(&line).unwrap(), frame);
            let derived: Frame = serde_json::from_slice(&line).unwrap();
            assert_eq!(derived, frame);
        }
    }

    #[test]
    fn a_line_that_is_no_frame_is_an_error() {
        let unknown = Frame::from_json(br#"{"t":1,"type":"later"}"#).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown variant `later`"),
            "{unknown}"
        );
        assert!(
            Frame::from_json(br#"{"type":"health"}"#).is_err(),
            "no time"
        );
        assert!(Frame::from_json(br#"{"t":1}"#).is_err(), "no type");
        assert!(Frame::from_json(br#"{"t":1,"type":"delta","partitions":7}"#).is_err());
        assert!(Frame::from_json(b"{\"t\":1,\"type\":\"sn").is_err(), "cut");
    }
}
