//! One sweep of the cluster's configs, for what is derived from them beside
//! the metadata (config-change events, min-ISR events): every topic's
//! configs, and each broker's and the cluster-wide broker defaults' dynamic
//! configs.
//!
//! Bounded cost: the topics go [`CHUNK`] to a `DescribeConfigs`, one
//! request at a time, and each broker (and the defaults) one request, all
//! asking for values only (no synonyms, no documentation: a tenth of the
//! bytes). A sweep is repeated [`SWEEP_EVERY`] after the last one ended, or
//! [`COST_FACTOR`] times as long as it took when that is longer
//! ([`pause`]): a sweep of 10k topics that takes 2 s is repeated every 30
//! s, one that takes 20 s every 80 s. What a sweep keeps is small: per
//! topic its `min.insync.replicas` and its overrides ([`Overrides`]: the
//! configs set on it, not Kafka's defaults), per broker its dynamic
//! configs. Only reads.

use std::collections::BTreeMap;
use std::time::Duration;

use regex::Regex;

use super::config_overrides::Overrides;
use super::config_source::ConfigResource;
use super::configs::{self, Described, TopicSummary};
use crate::meta::{Cluster, TopicId};

/// Topics per `DescribeConfigs` request.
pub const CHUNK: usize = 1000;
/// Between the end of a sweep and the start of the next, at least.
pub const SWEEP_EVERY: Duration = Duration::from_secs(30);
/// How many times its own duration a sweep waits before the next, at least.
pub const COST_FACTOR: u32 = 4;

/// The wait after a sweep that took `took`.
pub fn pause(took: Duration) -> Duration {
    SWEEP_EVERY.max(took * COST_FACTOR)
}

/// What a sweep read of one topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicConfigs {
    /// Its id when read (a recreated topic has another).
    pub id: TopicId,
    /// Its `min.insync.replicas`.
    pub min_isr: Option<usize>,
    /// The configs set on it.
    pub overrides: Overrides,
}

/// Whose dynamic broker configs: one broker's, or (`None`) the cluster-wide
/// defaults.
pub type BrokerScope = Option<i32>;

/// One sweep. A resource that did not answer is `None` (what was known of
/// it stands); one absent was not asked (deleted, or not matched).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sweep {
    /// Every topic asked, by name.
    pub topics: BTreeMap<String, Option<TopicConfigs>>,
    /// Every broker asked, and the defaults (`None` first).
    pub brokers: BTreeMap<BrokerScope, Option<Overrides>>,
}

impl Sweep {
    /// The `min.insync.replicas` of `topic`, when it answered.
    pub fn min_isr(&self, topic: &str) -> Option<usize> {
        self.topics.get(topic)?.as_ref()?.min_isr
    }

    /// How many topics answered.
    pub fn topics_read(&self) -> usize {
        self.topics.values().filter(|t| t.is_some()).count()
    }

    /// How many brokers answered (the defaults not counted).
    pub fn brokers_read(&self) -> usize {
        self.brokers
            .iter()
            .filter(|(scope, read)| scope.is_some() && read.is_some())
            .count()
    }
}

/// Sweep the configs of every topic of the current snapshot (those `only`
/// matches, when given), of every broker it lists, and the broker
/// defaults. A request that fails leaves its resources unread (`None`) and
/// is logged, never retried within the sweep.
pub async fn read(cluster: &Cluster, only: Option<&Regex>) -> Sweep {
    let snapshot = cluster.snapshot();
    let mut sweep = Sweep::default();
    let topics: Vec<(&str, TopicId)> = snapshot
        .topics()
        .iter()
        .filter(|t| only.is_none_or(|re| re.is_match(&t.name)))
        .map(|t| (t.name.as_str(), t.topic_id))
        .collect();
    for chunk in topics.chunks(CHUNK) {
        let resources: Vec<ConfigResource> = chunk
            .iter()
            .map(|(name, _)| ConfigResource::Topic((*name).to_owned()))
            .collect();
        let described = values(cluster, &resources).await;
        for ((name, id), (_, entries)) in chunk.iter().zip(described) {
            let read = entries.map(|entries| TopicConfigs {
                id: *id,
                min_isr: TopicSummary::of(&entries).min_isr,
                overrides: Overrides::topic(&entries),
            });
            sweep.topics.insert((*name).to_owned(), read);
        }
    }
    let mut brokers = vec![ConfigResource::BrokerDefaults];
    brokers.extend(
        snapshot
            .brokers()
            .iter()
            .map(|b| ConfigResource::Broker(b.node_id)),
    );
    for (resource, entries) in values(cluster, &brokers).await {
        let (scope, overrides) = match resource {
            ConfigResource::Broker(id) => (Some(id), entries.map(|e| Overrides::broker(&e))),
            _ => (None, entries.map(|e| Overrides::broker_defaults(&e))),
        };
        sweep.brokers.insert(scope, overrides);
    }
    sweep
}

/// The entries of each of `resources` (values only), in their order; a
/// failure fails its resources only, and is logged.
async fn values(
    cluster: &Cluster,
    resources: &[ConfigResource],
) -> Vec<(ConfigResource, Option<Vec<super::ConfigEntry>>)> {
    let described: Vec<Described> = match configs::describe_values(cluster, resources).await {
        Ok(described) => described,
        Err(error) => {
            tracing::warn!(%error, "config sweep: configs unread");
            return resources.iter().map(|r| (r.clone(), None)).collect();
        }
    };
    let mut by_resource: BTreeMap<ConfigResource, Option<Vec<super::ConfigEntry>>> = described
        .into_iter()
        .map(|(resource, entries)| {
            let entries = entries
                .map_err(|error| tracing::debug!(%error, "config sweep: {resource} unread"))
                .ok();
            (resource, entries)
        })
        .collect();
    resources
        .iter()
        .map(|r| (r.clone(), by_resource.remove(r).flatten()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_costly_sweep_waits_four_times_its_length_a_cheap_one_thirty_seconds() {
        assert_eq!(pause(Duration::from_millis(200)), SWEEP_EVERY);
        assert_eq!(pause(Duration::from_secs(20)), Duration::from_secs(80));
    }

    #[test]
    fn what_answered_is_counted_and_an_unread_topic_has_no_min_isr() {
        let mut sweep = Sweep::default();
        let read = TopicConfigs {
            id: TopicId::NIL,
            min_isr: Some(2),
            overrides: Overrides::default(),
        };
        sweep.topics.insert("a".to_owned(), Some(read));
        sweep.topics.insert("b".to_owned(), None);
        sweep.brokers.insert(None, Some(Overrides::default()));
        sweep.brokers.insert(Some(1), Some(Overrides::default()));
        sweep.brokers.insert(Some(2), None);
        assert_eq!((sweep.topics_read(), sweep.brokers_read()), (1, 1));
        assert_eq!((sweep.min_isr("a"), sweep.min_isr("b")), (Some(2), None));
    }
}
