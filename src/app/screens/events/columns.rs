//! The events timeline's table (`:events`): every kind of the event model,
//! newest first, with how bad it is and how kscope learned it.

use crate::columns::Column;
use crate::columns::format::{clock, movement_detail};
use crate::meta::MovementEvent;

/// What an event is about: `topic-partition`, a topic, `broker N`, or the
/// cluster (quorum, metadata liveness); its group and topic as
/// `--anonymize` shows them (made from the event's fields, not guessed from
/// the text).
pub fn subject(event: &MovementEvent) -> String {
    use crate::anonymize::{Kind, name};
    let group = event.group().map(|group| name(Kind::Group, group));
    let topic = event.topic.as_deref().map(|topic| name(Kind::Topic, topic));
    subject_of(event, group.as_deref(), topic.as_ref())
}

/// [`subject`] with the real names: what sorting compares.
fn real_subject(event: &MovementEvent) -> String {
    subject_of(event, event.group(), event.topic.as_ref())
}

/// What an event is about, with its group and topic named as given.
fn subject_of(event: &MovementEvent, group: Option<&str>, topic: Option<&String>) -> String {
    if let Some(group) = group {
        return match (topic, event.partition) {
            (Some(topic), Some(partition)) => format!("group {group} {topic}-{partition}"),
            _ => format!("group {group}"),
        };
    }
    match (topic, event.partition, event.broker()) {
        (Some(topic), Some(partition), _) => format!("{topic}-{partition}"),
        (Some(topic), None, _) => topic.clone(),
        (None, _, Some(broker)) => format!("broker {broker}"),
        (None, _, None) => "cluster".to_owned(),
    }
}

/// The columns: time, severity, kind, subject, how it was learned, and what
/// it says.
pub fn table<'a>() -> [Column<&'a MovementEvent>; 6] {
    [
        Column::text(
            "TIME",
            (8, 8),
            |e| clock(e.time),
            // The timeline is kept in arrival order.
            None,
        ),
        Column::text(
            "SEVERITY",
            (8, 8),
            |e| e.kind.severity().name().to_owned(),
            Some(|a, b| a.kind.severity().cmp(&b.kind.severity())),
        ),
        Column::text(
            "EVENT",
            (12, 21),
            |e| e.kind.name().to_owned(),
            Some(|a, b| a.kind.name().cmp(b.kind.name())),
        ),
        Column::text(
            "SUBJECT",
            (8, 60),
            |e| subject(e),
            Some(|a, b| real_subject(a).cmp(&real_subject(b))),
        ),
        Column::text(
            "SOURCE",
            (8, 8),
            |e| e.kind.source().name().to_owned(),
            Some(|a, b| a.kind.source().name().cmp(b.kind.source().name())),
        ),
        Column::fill("DETAIL", (1, 20), |e| movement_detail(&e.kind), None),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;
    use crate::meta::MovementKind;
    use std::time::{Duration, UNIX_EPOCH};

    fn event(topic: Option<&str>, partition: Option<i32>, kind: MovementKind) -> MovementEvent {
        MovementEvent {
            time: UNIX_EPOCH + Duration::from_hours(1),
            topic: topic.map(str::to_owned),
            partition,
            kind,
        }
    }

    #[test]
    fn each_event_names_its_subject_severity_and_source() {
        let offline = event(
            Some("orders"),
            Some(3),
            MovementKind::PartitionOffline { from: 2, epoch: 7 },
        );
        let row = cells(&table(), &&offline);
        assert_eq!(
            row[1..5],
            ["critical", "partition_offline", "orders-3", "reported"]
        );
        let silent = event(None, None, MovementKind::BrokerNotAnswering { broker: 2 });
        let row = cells(&table(), &&silent);
        assert_eq!(
            row[1..5],
            ["critical", "broker_not_answering", "broker 2", "observed"]
        );
        let added = event(
            Some("orders"),
            None,
            MovementKind::PartitionsAdded { from: 3, to: 6 },
        );
        assert_eq!(subject(&added), "orders");
        let elected = event(
            None,
            None,
            MovementKind::QuorumLeaderChanged {
                from: Some(1),
                to: 2,
                epoch: 5,
            },
        );
        assert_eq!(subject(&elected), "cluster");
    }
}
