//! How `watch` prints one event: `watch leaders` in its original format
//! ([`json`], [`line`]), `watch events` with the event model's fields
//! ([`record`], [`table_line`]).

use std::fmt::Write as _;

use serde_json::{Map, Value};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::anonymize::{self, Kind};
use crate::meta::{MovementEvent, MovementKind};

/// RFC 3339 in UTC, e.g. `2026-12-02T14:03:07.123456789Z`.
pub fn rfc3339(time: std::time::SystemTime) -> String {
    // Not `OffsetDateTime::from`: it panics past year 9999, and a record's
    // timestamp is whatever its producer wrote (i64::MAX ms included).
    let nanos = match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(after) => i128::try_from(after.as_nanos()).unwrap_or(i128::MAX),
        Err(before) => -i128::try_from(before.duration().as_nanos()).unwrap_or(i128::MAX),
    };
    OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The event as one JSON object: `time`, `kind`, `topic`, `partition`, and
/// the kind's own fields (`from`, `to`, `epoch`, `isr`, …).
pub fn json(event: &MovementEvent) -> Value {
    let mut object = Map::new();
    object.insert("time".to_owned(), Value::from(rfc3339(event.time)));
    object.insert("kind".to_owned(), Value::from(event.kind.name()));
    object.insert(
        "topic".to_owned(),
        event.topic.clone().map_or(Value::Null, Value::from),
    );
    object.insert(
        "partition".to_owned(),
        event.partition.map_or(Value::Null, Value::from),
    );
    let mut fields = serde_json::to_value(&event.kind);
    if let (Some(anonymizer), Ok(fields)) = (anonymize::active(), &mut fields) {
        anonymizer.json(fields);
    }
    if let Ok(Value::Object(fields)) = fields {
        for (key, value) in fields {
            if key != "kind" {
                object.insert(key, value);
            }
        }
    }
    Value::Object(object)
}

/// The fields every `watch events` record has, in order. Stable: scripts
/// read them by name.
pub const RECORD_FIELDS: &[&str] = &[
    "time",
    "kind",
    "severity",
    "source",
    "topic",
    "partition",
    "broker",
    "group",
    "before",
    "after",
];

/// The event as one `watch events` JSON object: [`RECORD_FIELDS`] (null
/// where they do not apply), then the kind's own fields as `watch leaders`
/// prints them (`from`, `to`, `epoch`, `isr`, `removed`, `suppressed`,
/// `count`, …).
pub fn record(event: &MovementEvent) -> Value {
    let (before, after) = change(&event.kind);
    let optional = |v: Option<i32>| v.map_or(Value::Null, Value::from);
    let mut object = Map::new();
    object.insert("time".to_owned(), Value::from(rfc3339(event.time)));
    object.insert("kind".to_owned(), Value::from(event.kind.name()));
    let severity = event.kind.severity().name();
    object.insert("severity".to_owned(), Value::from(severity));
    object.insert("source".to_owned(), Value::from(event.kind.source().name()));
    let topic = event.topic.clone().map_or(Value::Null, Value::from);
    object.insert("topic".to_owned(), topic);
    object.insert("partition".to_owned(), optional(event.partition));
    object.insert("broker".to_owned(), optional(event.broker()));
    let group = event.group().map_or(Value::Null, Value::from);
    object.insert("group".to_owned(), group);
    let mut fields = serde_json::to_value(&event.kind);
    let (mut before, mut after) = (before, after);
    if let Some(anonymizer) = anonymize::active() {
        // A reconciliation's before/after name members and topics.
        anonymizer.json(&mut before);
        anonymizer.json(&mut after);
        if let Ok(fields) = &mut fields {
            anonymizer.json(fields);
        }
    }
    object.insert("before".to_owned(), before);
    object.insert("after".to_owned(), after);
    if let Ok(Value::Object(fields)) = fields {
        for (key, value) in fields {
            object.entry(key).or_insert(value);
        }
    }
    Value::Object(object)
}

/// What the event's subject was and is: the leader, the ISR, the replica
/// set, the partition count, the controller, a config's value; for
/// presence and liveness, a state word (`absent`/`present`,
/// `answering`/`not_answering`, `unfenced`/`fenced`, `live`/`frozen`); null where there is no
/// before (or after).
pub fn change(kind: &MovementKind) -> (Value, Value) {
    use MovementKind as K;
    let id = |v: Option<i32>| v.map_or(Value::Null, Value::from);
    let word = |a: &str, b: &str| (Value::from(a), Value::from(b));
    match kind {
        K::LeaderChanged { from, to, .. } => (Value::from(*from), Value::from(*to)),
        K::PartitionOffline { from, .. } => (Value::from(*from), Value::Null),
        K::PartitionOnline { to, .. } => (Value::Null, Value::from(*to)),
        K::IsrShrank { isr, removed } => {
            let before: Vec<i32> = isr.iter().chain(removed).copied().collect();
            (Value::from(before), Value::from(isr.clone()))
        }
        K::IsrExpanded { isr, added } => {
            let before: Vec<i32> = isr.iter().filter(|r| !added.contains(r)).copied().collect();
            (Value::from(before), Value::from(isr.clone()))
        }
        K::ReplicasChanged { from, to } => (Value::from(from.clone()), Value::from(to.clone())),
        K::PartitionsAdded { from, to } | K::GroupMembersChanged { from, to, .. } => {
            (Value::from(*from), Value::from(*to))
        }
        K::ControllerChanged { from, to } => (id(*from), id(*to)),
        K::QuorumLeaderChanged { from, to, .. } => (id(*from), Value::from(*to)),
        K::BrokerJoined { .. } | K::TopicCreated { .. } => word("absent", "present"),
        K::BrokerLeft { .. } | K::TopicDeleted => word("present", "absent"),
        K::BrokerNotAnswering { .. } => word("answering", "not_answering"),
        K::BrokerAnswering { .. } => word("not_answering", "answering"),
        K::BrokerFenced { .. } => word("unfenced", "fenced"),
        K::BrokerUnfenced { .. } => word("fenced", "unfenced"),
        K::MetadataFrozen { .. } => word("live", "frozen"),
        K::MetadataLive { .. } => word("frozen", "live"),
        K::GroupStuck { .. } => word("moving", "stuck"),
        K::GroupLagTrendChanged { from, to, .. } => word(from, to),
        K::GroupReconciling { members, .. } | K::GroupReconciled { members, .. } => {
            reconciliation(members)
        }
        K::UnderMinIsr { isr, .. } | K::MinIsrRestored { isr, .. } => {
            (Value::Null, Value::from(isr.clone()))
        }
        K::GroupMoving { .. } => word("stuck", "moving"),
        K::EventsSuppressed { .. } => (Value::Null, Value::Null),
        K::GroupStateChanged { from, to, .. } => {
            (Value::from(from.as_str()), Value::from(to.as_str()))
        }
        K::GroupRecordsLost {
            committed, start, ..
        } => (Value::from(*committed), Value::from(*start)),
        K::TopicConfigChanged { from, to, .. } | K::BrokerConfigChanged { from, to, .. } => {
            let value = |v: &Option<String>| v.as_deref().map_or(Value::Null, Value::from);
            (value(from), value(to))
        }
    }
}

/// A reconciliation's members before and after: each member's id, client
/// id and `assignment` (its partitions per topic) before, and after (its
/// target, or the target it reached).
fn reconciliation(members: &[crate::meta::MemberChange]) -> (Value, Value) {
    let side = |m: &crate::meta::MemberChange, assignment: &crate::meta::movement::Partitions| {
        serde_json::json!({
            "member_id": m.member_id,
            "client_id": m.client_id,
            "assignment": assignment,
        })
    };
    let before = members.iter().map(|m| side(m, &m.assignment));
    let after = members.iter().map(|m| side(m, &m.target_assignment));
    (
        Value::Array(before.collect()),
        Value::Array(after.collect()),
    )
}

/// The event as one `watch events` table line: time, severity, source,
/// kind, subject, and what happened in words.
pub fn table_line(event: &MovementEvent) -> String {
    let topic = event
        .topic
        .as_deref()
        .map(|t| anonymize::name(Kind::Topic, t));
    let subject = match (topic, event.partition, event.broker(), event.group()) {
        (Some(topic), Some(partition), _, _) => format!("{topic}/{partition}"),
        (Some(topic), None, _, _) => topic,
        (None, _, Some(broker), _) => format!("broker {broker}"),
        (None, _, None, Some(group)) => format!("group {}", anonymize::name(Kind::Group, group)),
        (None, _, None, None) => "-".to_owned(),
    };
    format!(
        "{}  {:<8}  {:<8}  {:<21}  {subject}  {}",
        rfc3339(event.time),
        event.kind.severity().name(),
        event.kind.source().name(),
        event.kind.name(),
        crate::columns::format::movement_detail(&event.kind)
    )
}

/// The event as one text line: time, kind, where, then `key=value` fields.
pub fn line(event: &MovementEvent) -> String {
    let topic = event
        .topic
        .as_deref()
        .map(|t| anonymize::name(Kind::Topic, t));
    let place = match (topic, event.partition) {
        (Some(topic), Some(partition)) => format!("{topic}/{partition}"),
        (Some(topic), None) => topic,
        _ => "-".to_owned(),
    };
    let mut text = format!(
        "{}  {:<18}  {place}",
        rfc3339(event.time),
        event.kind.name()
    );
    let mut fields = serde_json::to_value(&event.kind);
    if let (Some(anonymizer), Ok(fields)) = (anonymize::active(), &mut fields) {
        anonymizer.json(fields);
    }
    if let Ok(Value::Object(fields)) = fields {
        for (key, value) in fields.into_iter().filter(|(k, _)| k != "kind") {
            let value = match value {
                Value::Array(items) => items
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
                Value::Null => "-".to_owned(),
                Value::String(s) => s,
                other => other.to_string(),
            };
            let _ = write!(text, "  {key}={value}");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::*;
    use crate::meta::MovementKind;

    #[test]
    fn an_event_prints_with_its_stable_fields() {
        let event = MovementEvent {
            time: SystemTime::UNIX_EPOCH + Duration::from_secs(1_790_000_000),
            topic: Some("orders".to_owned()),
            partition: Some(3),
            kind: MovementKind::LeaderChanged {
                from: 1,
                to: 2,
                epoch: 7,
            },
        };
        let value = json(&event);
        assert_eq!(value["kind"], "leader_changed");
        assert_eq!(value["time"], "2026-09-21T14:13:20Z");
        assert_eq!(
            (
                value["from"].as_i64(),
                value["to"].as_i64(),
                value["epoch"].as_i64()
            ),
            (Some(1), Some(2), Some(7))
        );
        assert_eq!(value["partition"], 3);
        assert_eq!(
            line(&event),
            "2026-09-21T14:13:20Z  leader_changed      orders/3  from=1  to=2  epoch=7"
        );
    }

    #[test]
    fn a_watch_events_record_has_every_stable_field() {
        let event = MovementEvent {
            time: SystemTime::UNIX_EPOCH + Duration::from_secs(1_790_000_000),
            topic: Some("orders".to_owned()),
            partition: Some(3),
            kind: MovementKind::IsrShrank {
                isr: vec![1, 2],
                removed: vec![3],
            },
        };
        let value = record(&event);
        let keys: Vec<&str> = value
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert!(RECORD_FIELDS.iter().all(|f| keys.contains(f)), "{keys:?}");
        assert_eq!(value["severity"], "warn");
        assert_eq!(value["source"], "reported");
        assert_eq!(value["before"], serde_json::json!([1, 2, 3]));
        assert_eq!(value["after"], serde_json::json!([1, 2]));
        assert_eq!(value["removed"], serde_json::json!([3]));
        assert_eq!(value["broker"], Value::Null);
        assert_eq!(
            table_line(&event),
            "2026-09-21T14:13:20Z  warn      reported  isr_shrank             orders/3  isr 1,2 (-3)"
        );
        let silent = MovementEvent {
            topic: None,
            partition: None,
            kind: MovementKind::BrokerNotAnswering { broker: 2 },
            ..event
        };
        let value = record(&silent);
        assert_eq!(
            (&value["severity"], &value["source"], &value["broker"]),
            (
                &Value::from("critical"),
                &Value::from("observed"),
                &Value::from(2)
            )
        );
        assert_eq!(
            (&value["before"], &value["after"]),
            (&Value::from("answering"), &Value::from("not_answering"))
        );
    }

    #[test]
    fn the_group_dynamics_kinds_carry_their_before_and_after() {
        use std::collections::BTreeMap;
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_790_000_000);
        let trend = MovementEvent {
            time: at,
            topic: Some("orders".to_owned()),
            partition: None,
            kind: MovementKind::GroupLagTrendChanged {
                group: "billing".to_owned(),
                from: "steady".to_owned(),
                to: "growing".to_owned(),
                rate_before: -3,
                rate_after: 420,
                lag: 9000,
            },
        };
        let value = record(&trend);
        assert_eq!(
            (&value["before"], &value["after"], &value["group"]),
            (
                &Value::from("steady"),
                &Value::from("growing"),
                &Value::from("billing")
            )
        );
        assert_eq!(
            (&value["severity"], &value["source"]),
            (&Value::from("warn"), &Value::from("observed"))
        );
        assert_eq!(
            (&value["rate_after"], &value["lag"]),
            (&Value::from(420), &Value::from(9000))
        );
        assert!(
            table_line(&trend)
                .ends_with("orders  group billing lag steady → growing (-3/s → +420/s, lag 9000)"),
            "{}",
            table_line(&trend)
        );

        let parts = |ps: &[i32]| BTreeMap::from([("orders".to_owned(), ps.to_vec())]);
        let members = vec![crate::meta::MemberChange {
            member_id: "m-1".to_owned(),
            client_id: "app-1".to_owned(),
            assignment: parts(&[0, 1]),
            target_assignment: parts(&[0]),
        }];
        let reconciling = MovementEvent {
            time: at,
            topic: None,
            partition: None,
            kind: MovementKind::GroupReconciling {
                group: "billing".to_owned(),
                group_epoch: Some(4),
                assignment_epoch: Some(4),
                members,
            },
        };
        let value = record(&reconciling);
        assert_eq!(
            value["before"],
            serde_json::json!([{"member_id": "m-1", "client_id": "app-1", "assignment": {"orders": [0, 1]}}])
        );
        assert_eq!(
            value["after"][0]["assignment"],
            serde_json::json!({"orders": [0]})
        );
        assert_eq!(
            value["members"][0]["target_assignment"],
            serde_json::json!({"orders": [0]})
        );
        assert_eq!(
            (&value["severity"], &value["source"], &value["group_epoch"]),
            (
                &Value::from("info"),
                &Value::from("reported"),
                &Value::from(4)
            )
        );
        assert!(
            table_line(&reconciling)
                .ends_with("group billing reconciling: app-1 orders:0,1 → orders:0"),
            "{}",
            table_line(&reconciling)
        );
        // Read back as a recording reads it.
        let text = serde_json::to_string(&reconciling.kind).expect("json");
        // `MovementKind` reads from 'static text (its folded kinds' names).
        let back: MovementKind =
            serde_json::from_str(Box::leak(text.into_boxed_str())).expect("reads back");
        assert_eq!(back, reconciling.kind);
    }
}
