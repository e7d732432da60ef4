//! Under-min-ISR: partitions with a leader whose in-sync replicas are fewer
//! than their topic's effective `min.insync.replicas` (producers with
//! `acks=all` are refused there). A topic's effective value is what
//! `DescribeConfigs` of the topic answers: the topic's own setting, else
//! the broker's (dynamic default or static), else Kafka's default.
//!
//! Read in a bounded way, like the lag sweep: each poll asks one
//! `DescribeConfigs` for at most [`TOPICS_PER_POLL`] topics with only the
//! `min.insync.replicas` key (no synonyms, no documentation), topics never
//! read first, then those read longest ago once older than [`REFRESH`].
//! A 10k-topic cluster is read once over its first ten polls, then about
//! 250 topics a poll; never every topic every poll. The count covers the
//! topics whose value is known ([`MinIsr::count`] says how many).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::DescribeConfigsRequest;
use crate::conn::protocol::messages::describe_configs_request::DescribeConfigsResource;
use crate::inspect::config_source::ConfigResource;
use crate::inspect::configs::{self, TopicSummary};
use crate::meta::{Cluster, MetadataSnapshot};

/// Topics whose `min.insync.replicas` one poll asks for at most.
pub const TOPICS_PER_POLL: usize = 1_000;
/// How old a topic's value may get before it is asked again.
pub const REFRESH: Duration = Duration::from_mins(10);
/// The one key asked.
const KEY: &str = "min.insync.replicas";

/// What the fleet remembers of one context's topics' `min.insync.replicas`.
#[derive(Debug, Clone, Default)]
pub struct MinIsr {
    /// Each topic asked: its value (`None`: the broker gave none, e.g. not
    /// authorized) and when it was asked.
    topics: BTreeMap<String, (Option<usize>, Instant)>,
}

impl MinIsr {
    /// The topics of `snapshot` to ask at `now`: never asked first (in name
    /// order), then those asked longest ago once older than [`REFRESH`];
    /// at most `limit`.
    pub fn due(&self, snapshot: &MetadataSnapshot, now: Instant, limit: usize) -> Vec<String> {
        let mut fresh: Vec<&str> = Vec::new();
        let mut stale: Vec<(Instant, &str)> = Vec::new();
        for topic in snapshot.topics() {
            match self.topics.get(&topic.name) {
                None => fresh.push(&topic.name),
                Some((_, at)) if now.saturating_duration_since(*at) >= REFRESH => {
                    stale.push((*at, &topic.name));
                }
                Some(_) => {}
            }
        }
        stale.sort_unstable();
        fresh
            .into_iter()
            .chain(stale.into_iter().map(|(_, name)| name))
            .take(limit)
            .map(str::to_owned)
            .collect()
    }

    /// Take in a poll: forget topics `snapshot` no longer lists, remember
    /// each of `asked` as asked at `now`, with its value from `read` if any.
    pub fn record(
        &mut self,
        snapshot: &MetadataSnapshot,
        asked: Vec<String>,
        read: &BTreeMap<String, usize>,
        now: Instant,
    ) {
        self.topics.retain(|name, _| snapshot.topic(name).is_some());
        for name in asked {
            let value = read.get(&name).copied();
            // A failed re-read keeps the value known before.
            let value = value.or_else(|| self.topics.get(&name).and_then(|(v, _)| *v));
            self.topics.insert(name, (value, now));
        }
    }

    /// Partitions of `snapshot` with a leader and fewer in-sync replicas
    /// than their topic's known minimum, and how many topics' minimum is
    /// known; `None` while no topic's is, and `(0, 0)` for a cluster with
    /// no topics (nothing there can be below its minimum).
    pub fn count(&self, snapshot: &MetadataSnapshot) -> Option<(usize, usize)> {
        let (mut under, mut known) = (0, 0);
        for topic in snapshot.topics() {
            let Some((Some(min), _)) = self.topics.get(&topic.name) else {
                continue;
            };
            known += 1;
            under += topic
                .partitions
                .iter()
                .filter(|p| p.leader.is_some() && p.isr.len() < *min)
                .count();
        }
        (known > 0 || snapshot.topics().is_empty()).then_some((under, known))
    }
}

/// One `DescribeConfigs` for `topics` asking only `min.insync.replicas`.
pub fn request(topics: &[String]) -> DescribeConfigsRequest {
    DescribeConfigsRequest::default()
        .with_resources(
            topics
                .iter()
                .map(|name| {
                    DescribeConfigsResource::default()
                        .with_resource_type(ConfigResource::Topic(String::new()).wire_type())
                        .with_resource_name(StrBytes::from_string(name.clone()))
                        .with_configuration_keys(Some(vec![StrBytes::from_static_str(KEY)]))
                })
                .collect(),
        )
        .with_include_synonyms(false)
        .with_include_documentation(false)
}

/// Each of `topics`' effective `min.insync.replicas`, from one request;
/// topics the broker gave no value for (an error, not authorized) are
/// left out. A failed request reads nothing.
pub async fn read(cluster: &Cluster, topics: &[String]) -> BTreeMap<String, usize> {
    let mut found = BTreeMap::new();
    if topics.is_empty() {
        return found;
    }
    let response = match cluster.send_any(request(topics)).await {
        Ok(response) => response,
        Err(error) => {
            tracing::debug!(%error, "fleet: min.insync.replicas unavailable");
            return found;
        }
    };
    let resources: Vec<ConfigResource> = topics
        .iter()
        .map(|t| ConfigResource::Topic(t.clone()))
        .collect();
    for (resource, entries) in configs::read(&response, &resources) {
        let (ConfigResource::Topic(name), Ok(entries)) = (resource, entries) else {
            continue;
        };
        if let Some(min) = TopicSummary::of(&entries).min_isr {
            found.insert(name, min);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::{NodeIds, PartitionInfo, TopicInfo};

    fn partition(index: i32, leader: Option<i32>, isr: &[i32]) -> PartitionInfo {
        PartitionInfo {
            partition: index,
            leader,
            leader_epoch: 0,
            replicas: NodeIds::from(&[1, 2, 3][..]),
            isr: NodeIds::from(isr),
            offline_replicas: NodeIds::default(),
            error: None,
        }
    }

    fn snapshot(topics: &[(&str, Vec<PartitionInfo>)]) -> MetadataSnapshot {
        let topics = topics
            .iter()
            .map(|(name, partitions)| TopicInfo {
                name: (*name).to_owned(),
                topic_id: crate::meta::TopicId::NIL,
                internal: false,
                partitions: partitions.clone(),
                error: None,
            })
            .collect();
        MetadataSnapshot::new(Vec::new(), topics, None, None)
    }

    fn names(asked: &[String]) -> Vec<&str> {
        asked.iter().map(String::as_str).collect()
    }

    #[test]
    fn unread_topics_come_first_then_the_stale_ones_oldest_first_a_bounded_few() {
        let snap = snapshot(&[("a", vec![]), ("b", vec![]), ("c", vec![]), ("d", vec![])]);
        let start = Instant::now();
        let mut min = MinIsr::default();
        let first = min.due(&snap, start, 2);
        assert_eq!(names(&first), ["a", "b"]);
        min.record(&snap, first, &[("a".to_owned(), 2)].into(), start);
        let second = min.due(&snap, start, 2);
        assert_eq!(names(&second), ["c", "d"]);
        let later = start + Duration::from_secs(1);
        min.record(&snap, second, &BTreeMap::new(), later);
        assert!(min.due(&snap, later, 2).is_empty(), "nothing due yet");
        // Past the refresh: the oldest read first.
        let stale = min.due(&snap, later + REFRESH, 3);
        assert_eq!(names(&stale), ["a", "b", "c"]);
        // A failed re-read keeps the value known.
        min.record(
            &snap,
            vec!["a".to_owned()],
            &BTreeMap::new(),
            later + REFRESH,
        );
        assert_eq!(min.topics["a"].0, Some(2));
        // A deleted topic is forgotten.
        let fewer = snapshot(&[("b", vec![])]);
        min.record(&fewer, Vec::new(), &BTreeMap::new(), later);
        assert_eq!(min.topics.len(), 1);
    }

    #[test]
    fn a_partition_counts_when_its_isr_is_below_the_known_minimum_and_it_has_a_leader() {
        let snap = snapshot(&[
            (
                "orders",
                vec![
                    partition(0, Some(1), &[1]),
                    partition(1, Some(1), &[1, 2]),
                    partition(2, None, &[1]),
                ],
            ),
            ("unknown", vec![partition(0, Some(1), &[1])]),
        ]);
        let mut min = MinIsr::default();
        assert_eq!(min.count(&snap), None, "nothing known yet");
        let now = Instant::now();
        min.record(
            &snap,
            vec!["orders".to_owned(), "unknown".to_owned()],
            &[("orders".to_owned(), 2)].into(),
            now,
        );
        assert_eq!(min.count(&snap), Some((1, 1)));
        assert_eq!(
            MinIsr::default().count(&snapshot(&[])),
            Some((0, 0)),
            "no topics: none below"
        );
    }

    #[test]
    fn the_request_asks_only_the_one_key_of_each_topic() {
        let request = request(&["a".to_owned(), "b".to_owned()]);
        assert_eq!(request.resources.len(), 2);
        assert!(!request.include_synonyms && !request.include_documentation);
        let keys = request.resources[1]
            .configuration_keys
            .as_ref()
            .expect("keys");
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].as_str(), KEY);
        assert_eq!(request.resources[1].resource_type, 2);
    }
}
