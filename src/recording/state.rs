//! Between the metadata layer and the recording: a snapshot as recorded
//! [`Metadata`] (filtered by topic), the [`Delta`] between two of them, and
//! the way back — applying deltas and building a [`MetadataSnapshot`] that
//! the `get` row builders read as if it were live.

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use regex::Regex;

use crate::meta::{BrokerInfo, MetadataSnapshot, PartitionInfo, TopicId, TopicInfo};

use super::frame::{Broker, Delta, Metadata, Partition, Topic};

impl Metadata {
    /// What `snapshot` holds of the topics `topics` matches (every topic
    /// when `None`).
    pub fn from_snapshot(snapshot: &MetadataSnapshot, topics: Option<&Regex>) -> Metadata {
        Metadata {
            cluster_id: snapshot.cluster_id().map(str::to_owned),
            controller: snapshot.controller_id(),
            voters: snapshot.quorum_voters().to_vec(),
            brokers: snapshot
                .brokers()
                .iter()
                .map(|b| Broker {
                    id: b.node_id,
                    host: b.host.clone(),
                    port: b.port,
                    rack: b.rack.clone(),
                })
                .collect(),
            topics: snapshot
                .topics()
                .iter()
                .filter(|t| topics.is_none_or(|re| re.is_match(&t.name)))
                .map(|t| Topic::from(t.as_ref()))
                .collect(),
        }
    }

    /// What changed from `self` to `new` (topics sorted by name in both).
    pub fn delta(&self, new: &Metadata) -> Delta {
        let mut delta = Delta {
            controller: (self.controller != new.controller).then_some(new.controller),
            voters: (self.voters != new.voters).then(|| new.voters.clone()),
            brokers: (self.brokers != new.brokers).then(|| new.brokers.clone()),
            ..Delta::default()
        };
        let old: BTreeMap<&str, &Topic> =
            self.topics.iter().map(|t| (t.name.as_str(), t)).collect();
        for topic in &new.topics {
            match old.get(topic.name.as_str()) {
                Some(was)
                    if was.id == topic.id && was.partitions.len() == topic.partitions.len() =>
                {
                    for (before, now) in was.partitions.iter().zip(&topic.partitions) {
                        if before != now {
                            delta.partitions.push((topic.name.clone(), now.clone()));
                        }
                    }
                }
                _ => delta.topics.push(topic.clone()),
            }
        }
        let names: std::collections::BTreeSet<&str> =
            new.topics.iter().map(|t| t.name.as_str()).collect();
        delta.deleted = self
            .topics
            .iter()
            .filter(|t| !names.contains(t.name.as_str()))
            .map(|t| t.name.clone())
            .collect();
        delta
    }

    /// Apply `delta` (what [`Metadata::delta`] made).
    pub fn apply(&mut self, delta: &Delta) {
        if let Some(controller) = delta.controller {
            self.controller = controller;
        }
        if let Some(voters) = &delta.voters {
            self.voters.clone_from(voters);
        }
        if let Some(brokers) = &delta.brokers {
            self.brokers.clone_from(brokers);
        }
        self.topics.retain(|t| !delta.deleted.contains(&t.name));
        for topic in &delta.topics {
            match self.topics.binary_search_by(|t| t.name.cmp(&topic.name)) {
                Ok(at) => self.topics[at] = topic.clone(),
                Err(at) => self.topics.insert(at, topic.clone()),
            }
        }
        for (name, partition) in &delta.partitions {
            let Ok(at) = self.topics.binary_search_by(|t| t.name.cmp(name)) else {
                continue;
            };
            let partitions = &mut self.topics[at].partitions;
            match partitions.binary_search_by_key(&partition.p, |p| p.p) {
                Ok(i) => partitions[i] = partition.clone(),
                Err(i) => partitions.insert(i, partition.clone()),
            }
        }
    }

    /// The snapshot this describes, for the row builders.
    pub fn to_snapshot(&self) -> MetadataSnapshot {
        let brokers = self
            .brokers
            .iter()
            .map(|b| BrokerInfo {
                node_id: b.id,
                host: b.host.clone(),
                port: b.port,
                rack: b.rack.clone(),
            })
            .collect();
        let topics = self.topics.iter().map(Topic::to_info).collect();
        MetadataSnapshot::new(brokers, topics, self.controller, self.cluster_id.clone())
            .with_quorum(self.controller, self.voters.clone())
    }
}

impl From<&TopicInfo> for Topic {
    fn from(t: &TopicInfo) -> Self {
        Topic {
            name: t.name.clone(),
            id: t.topic_id.to_string(),
            internal: t.internal,
            partitions: t
                .partitions
                .iter()
                .map(|p| Partition {
                    p: p.partition,
                    leader: p.leader,
                    epoch: p.leader_epoch,
                    replicas: p.replicas.to_vec(),
                    isr: p.isr.to_vec(),
                    offline: p.offline_replicas.to_vec(),
                })
                .collect(),
        }
    }
}

impl Topic {
    fn to_info(&self) -> TopicInfo {
        let mut id = [0u8; 16];
        if let Ok(bytes) = URL_SAFE_NO_PAD.decode(&self.id)
            && let Ok(exact) = <[u8; 16]>::try_from(bytes.as_slice())
        {
            id = exact;
        }
        TopicInfo {
            name: self.name.clone(),
            topic_id: TopicId::from_bytes(id),
            internal: self.internal,
            partitions: self
                .partitions
                .iter()
                .map(|p| PartitionInfo {
                    partition: p.p,
                    leader: p.leader,
                    leader_epoch: p.epoch,
                    replicas: p.replicas.as_slice().into(),
                    isr: p.isr.as_slice().into(),
                    offline_replicas: p.offline.as_slice().into(),
                    error: None,
                })
                .collect(),
            error: None,
        }
    }
}
