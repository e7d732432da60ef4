//! How `watch` prints one movement event.

use std::fmt::Write as _;

use serde_json::{Map, Value};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::meta::MovementEvent;

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
    if let Ok(Value::Object(fields)) = serde_json::to_value(&event.kind) {
        for (key, value) in fields {
            if key != "kind" {
                object.insert(key, value);
            }
        }
    }
    Value::Object(object)
}

/// The event as one text line: time, kind, where, then `key=value` fields.
pub fn line(event: &MovementEvent) -> String {
    let place = match (&event.topic, event.partition) {
        (Some(topic), Some(partition)) => format!("{topic}/{partition}"),
        (Some(topic), None) => topic.clone(),
        _ => "-".to_owned(),
    };
    let mut text = format!(
        "{}  {:<18}  {place}",
        rfc3339(event.time),
        event.kind.name()
    );
    if let Ok(Value::Object(fields)) = serde_json::to_value(&event.kind) {
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
}
