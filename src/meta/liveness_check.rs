//! The liveness check, as the cluster runs it: ping every listed broker (and
//! ask which brokers are fenced meanwhile), ask the quorum, feed all to the
//! liveness part (`liveness`: the tracker and
//! the published [`Health`]), log what changed as movement events, and
//! repeat in the background. This file is the `Cluster` side, so that
//! `liveness` and `cluster` do not import each other.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::SystemTime;

use tokio::task::JoinSet;

use super::cluster::Cluster;
use super::error::{Error, Result};
use super::fencing::{FENCING_VERSION, fencing_request, read_fencing};
use super::liveness::{BROKER_DEADLINE, Health, LIVENESS_INTERVAL};
use super::metadata_request::base_metadata_request;
use super::movement::MovementEvent;
use super::quorum::Quorum;
use crate::conn::protocol::messages::DescribeClusterRequest;

impl Cluster {
    /// What the last liveness check found (`None` before the first). Lock-free.
    pub fn health(&self) -> Option<Arc<Health>> {
        self.inner.liveness.health()
    }

    /// Check now: every broker the snapshot names (and, meanwhile, which
    /// brokers are fenced), then the quorum, each within its deadline (so
    /// this takes at most about three seconds). A
    /// quorum outcome from the last second (the full refresh beside which
    /// `Cluster::connect` asked) is used instead of asking again.
    pub async fn check_liveness(&self) -> Arc<Health> {
        let brokers = self.listed_brokers();
        let mut pings = JoinSet::new();
        for id in brokers {
            let cluster = self.clone();
            pings.spawn(async move { (id, cluster.ping(id).await) });
        }
        let pinged = async {
            let mut answers = BTreeMap::new();
            while let Some(joined) = pings.join_next().await {
                if let Ok((id, answered)) = joined {
                    answers.insert(id, answered);
                }
            }
            answers
        };
        let (answers, fenced) = tokio::join!(pinged, self.ask_fencing());
        let asked = match self.inner.liveness.take_recent_quorum() {
            Some(asked) => asked,
            None => self.ask_quorum_for_liveness().await,
        };
        self.publish_liveness(Some(&asked), &answers, fenced)
    }

    /// Each registered broker and whether the controller fenced it
    /// (`DescribeCluster` v2, KIP-1073), within [`BROKER_DEADLINE`]; `None`
    /// when the broker asked offers no v2 (before Kafka 3.9, or `ZooKeeper`
    /// mode) or did not answer: then nothing is said of fencing.
    pub(super) async fn ask_fencing(&self) -> Option<BTreeMap<i32, bool>> {
        let asked = async {
            let connection = self.inner.pool.any().await.ok()?;
            let version = connection.negotiated_for::<DescribeClusterRequest>().ok()?;
            if version < FENCING_VERSION {
                return None;
            }
            match connection.send(fencing_request()).await {
                Ok(response) => read_fencing(&response)
                    .map_err(|error| tracing::debug!(%error, "fenced brokers unread"))
                    .ok(),
                Err(error) => {
                    tracing::debug!(%error, "fenced brokers unread");
                    None
                }
            }
        };
        tokio::time::timeout(BROKER_DEADLINE, asked)
            .await
            .ok()
            .flatten()
    }

    /// The node ids the snapshot lists: the brokers a check asks.
    pub(super) fn listed_brokers(&self) -> Vec<i32> {
        self.snapshot()
            .brokers()
            .iter()
            .map(|b| b.node_id)
            .collect()
    }

    /// Take in a check's findings: the quorum's outcome (`None`: it did not
    /// answer in time, which says nothing yet), each broker's answer, and
    /// which brokers are fenced (`None`: not known).
    /// Marks the brokers in the pool, logs the transitions as movement
    /// events and publishes the health.
    pub(super) fn publish_liveness(
        &self,
        asked: Option<&Result<Option<Quorum>>>,
        answers: &BTreeMap<i32, bool>,
        fenced: Option<BTreeMap<i32, bool>>,
    ) -> Arc<Health> {
        for (&id, &answered) in answers {
            self.inner.pool.mark_answering(id, answered);
        }
        let now = SystemTime::now();
        let (events, health) = self.inner.liveness.observe(asked, answers, fenced, now);
        if !events.is_empty() {
            self.inner.movements.extend(
                events
                    .into_iter()
                    .map(|kind| MovementEvent {
                        time: now,
                        topic: None,
                        partition: None,
                        kind,
                    })
                    .collect(),
            );
        }
        self.inner.liveness.publish(health.clone());
        health
    }

    /// Ask the quorum now, within [`BROKER_DEADLINE`]. After the pings: a
    /// broker answers one connection's requests in order, and a
    /// `DescribeQuorum` stuck on a lost quorum must not hold up a ping
    /// behind it (it is abandoned at its deadline).
    pub(super) async fn ask_quorum_for_liveness(&self) -> Result<Option<Quorum>> {
        match tokio::time::timeout(BROKER_DEADLINE, self.ask_quorum()).await {
            Ok(asked) => asked,
            Err(_) => Err(Error::Conn(crate::conn::Error::Timeout {
                broker: "any broker".to_owned(),
                what: "DescribeQuorum".to_owned(),
                after: BROKER_DEADLINE,
            })),
        }
    }

    /// Whether broker `id` answers a `Metadata` request for no topics within
    /// [`BROKER_DEADLINE`]; a connection that did not is abandoned.
    pub(super) async fn ping(&self, id: i32) -> bool {
        let pool = &self.inner.pool;
        let Ok(Ok(connection)) = tokio::time::timeout(BROKER_DEADLINE, pool.get_checked(id)).await
        else {
            return false;
        };
        let sent = tokio::time::timeout(BROKER_DEADLINE, connection.send(base_metadata_request()));
        if let Ok(answer) = sent.await {
            answer.is_ok()
        } else {
            connection.abandon("no answer to a liveness check");
            false
        }
    }

    /// Check every [`LIVENESS_INTERVAL`] until the last `Cluster` is dropped.
    pub(super) fn spawn_liveness_task(&self) {
        let weak = self.downgrade();
        let handle = tokio::spawn(async move {
            loop {
                tokio::time::sleep(LIVENESS_INTERVAL).await;
                let Some(cluster) = weak.upgrade() else {
                    return;
                };
                cluster.check_liveness().await;
            }
        });
        self.inner.liveness.keep_task(handle.abort_handle());
    }
}
