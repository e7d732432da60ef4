//! A group member and its assignment, for every group type (a streams
//! member's tasks included).

use std::collections::BTreeMap;

use bytes::{Buf, Bytes};

use crate::conn::budget::within_budget;
use crate::conn::protocol::Decodable;
use crate::conn::protocol::messages::{ConsumerProtocolAssignment, ConsumerProtocolSubscription};

/// Partitions per topic, sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Assignment(pub BTreeMap<String, Vec<i32>>);

impl Assignment {
    /// An assignment from `(topic, partitions)` pairs; partitions are sorted
    /// and de-duplicated, topics with none dropped.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, Vec<i32>)>) -> Assignment {
        let mut map: BTreeMap<String, Vec<i32>> = BTreeMap::new();
        for (topic, partitions) in pairs {
            map.entry(topic).or_default().extend(partitions);
        }
        map.retain(|_, partitions| {
            partitions.sort_unstable();
            partitions.dedup();
            !partitions.is_empty()
        });
        Assignment(map)
    }

    /// How many partitions in all.
    pub fn len(&self) -> usize {
        self.0.values().map(Vec::len).sum()
    }

    /// Whether nothing is assigned.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `topic-partition` pairs, sorted.
    pub fn partitions(&self) -> impl Iterator<Item = (&str, i32)> {
        self.0
            .iter()
            .flat_map(|(topic, ps)| ps.iter().map(move |p| (topic.as_str(), *p)))
    }

    /// `orders:0,1,2 audit:4` (empty string for no partitions).
    pub fn compact(&self) -> String {
        self.0
            .iter()
            .map(|(topic, ps)| {
                let list: Vec<String> = ps.iter().map(ToString::to_string).collect();
                format!("{topic}:{}", list.join(","))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// One member of a group.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Member {
    /// The member id the coordinator gave it.
    pub member_id: String,
    /// `group.instance.id` for a static member.
    pub instance_id: Option<String>,
    /// The client's `client.id`.
    pub client_id: String,
    /// Where the client connects from, as the broker sees it (`/10.0.0.5`).
    pub client_host: String,
    /// `client.rack` (KIP-848 only).
    pub rack: Option<String>,
    /// The member's epoch (KIP-848 only).
    pub member_epoch: Option<i32>,
    /// The topics the member subscribes to (decoded from the classic
    /// subscription metadata when the protocol type is `consumer`).
    pub subscribed_topics: Vec<String>,
    /// The subscription regex (KIP-848 only).
    pub subscribed_regex: Option<String>,
    /// What the member owns now.
    pub assignment: Assignment,
    /// What the coordinator wants it to own (KIP-848 only; classic groups
    /// have no separate target).
    pub target_assignment: Option<Assignment>,
    /// Streams: the application instance (one process may run several
    /// members, one per stream thread).
    pub process_id: Option<String>,
    /// Streams: the tasks it has (active, standby, warm-up); `assignment`
    /// holds the partitions its active tasks read.
    pub tasks: Option<StreamsTasks>,
    /// Streams: the tasks the coordinator wants it to have.
    pub target_tasks: Option<StreamsTasks>,
}

impl Member {
    /// KIP-848: the member has not yet converged on its target assignment.
    pub fn is_reconciling(&self) -> bool {
        self.target_assignment
            .as_ref()
            .is_some_and(|target| *target != self.assignment)
    }
}

/// The highest `ConsumerProtocol*` version the codec reads. Newer versions
/// only append fields, so a newer payload is read as this one.
const MAX_CONSUMER_PROTOCOL_VERSION: i16 = 3;

fn versioned(bytes: &Bytes) -> Option<(i16, Bytes)> {
    let mut buf = bytes.clone();
    if buf.remaining() < 2 {
        return None;
    }
    let version = buf.get_i16();
    (version >= 0).then_some((version.min(MAX_CONSUMER_PROTOCOL_VERSION), buf))
}

/// A classic consumer member's assignment bytes (`ConsumerProtocolAssignment`
/// behind a version prefix); `None` when they are empty or not that format.
pub fn decode_classic_assignment(bytes: &Bytes) -> Option<Assignment> {
    let (version, mut buf) = versioned(bytes)?;
    let (decoded, _) = within_budget(bytes.len(), || {
        ConsumerProtocolAssignment::decode(&mut buf, version)
    });
    let decoded = decoded.ok()?;
    Some(Assignment::from_pairs(
        decoded
            .assigned_partitions
            .into_iter()
            .map(|tp| (tp.topic.0.to_string(), tp.partitions)),
    ))
}

/// A classic consumer member's subscribed topics (`ConsumerProtocolSubscription`).
pub fn decode_classic_subscription(bytes: &Bytes) -> Option<Vec<String>> {
    let (version, mut buf) = versioned(bytes)?;
    let (decoded, _) = within_budget(bytes.len(), || {
        ConsumerProtocolSubscription::decode(&mut buf, version)
    });
    let decoded = decoded.ok()?;
    let mut topics: Vec<String> = decoded.topics.iter().map(ToString::to_string).collect();
    topics.sort();
    Some(topics)
}

/// Tasks per subtopology id, partitions sorted.
pub type TaskMap = BTreeMap<String, Vec<i32>>;

/// A streams member's tasks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamsTasks {
    /// Tasks it processes.
    pub active: TaskMap,
    /// Tasks it keeps a hot copy of the state for.
    pub standby: TaskMap,
    /// Tasks it is catching up on before taking them over.
    pub warmup: TaskMap,
}

impl StreamsTasks {
    /// `0:0,1 1:2` — subtopology and its partitions, for one kind of task.
    pub fn compact(tasks: &TaskMap) -> String {
        tasks
            .iter()
            .map(|(sub, ps)| {
                let list: Vec<String> = ps.iter().map(ToString::to_string).collect();
                format!("{sub}:{}", list.join(","))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// How many tasks of every kind.
    pub fn len(&self) -> usize {
        [&self.active, &self.standby, &self.warmup]
            .iter()
            .flat_map(|m| m.values())
            .map(Vec::len)
            .sum()
    }

    /// Whether it has no task at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::TopicName;
    use crate::conn::protocol::messages::consumer_protocol_assignment::TopicPartition;
    use crate::conn::protocol::{Encodable, StrBytes};
    use bytes::{BufMut, BytesMut};

    #[test]
    fn a_classic_assignment_round_trips_through_its_wire_form() {
        let assignment = ConsumerProtocolAssignment::default().with_assigned_partitions(vec![
            TopicPartition::default()
                .with_topic(TopicName(StrBytes::from_static_str("orders")))
                .with_partitions(vec![2, 0]),
        ]);
        let mut buf = BytesMut::new();
        buf.put_i16(1);
        assignment.encode(&mut buf, 1).expect("encodes");
        let decoded = decode_classic_assignment(&buf.freeze()).expect("decodes");
        assert_eq!(decoded.compact(), "orders:0,2");
        assert_eq!(decoded.len(), 2);
        assert_eq!(decode_classic_assignment(&Bytes::new()), None);
        assert_eq!(
            decode_classic_assignment(&Bytes::from_static(&[0, 1, 0xff])),
            None
        );
    }

    #[test]
    fn a_member_reconciles_until_its_assignment_is_its_target() {
        let current = Assignment::from_pairs([("t".to_owned(), vec![0])]);
        let target = Assignment::from_pairs([("t".to_owned(), vec![0, 1])]);
        let mut member = Member {
            assignment: current,
            target_assignment: Some(target.clone()),
            ..Member::default()
        };
        assert!(member.is_reconciling());
        member.assignment = target;
        assert!(!member.is_reconciling());
        assert!(!Member::default().is_reconciling());
    }
}
