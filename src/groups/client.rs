//! [`GroupsClient`]: the groups layer's handle on a [`Cluster`], counting
//! every request it sends. Browsing only ever *reads*: nothing here sends
//! `JoinGroup`, `Heartbeat`, `ConsumerGroupHeartbeat` or `OffsetCommit`.

use std::sync::Arc;

use tokio::task::JoinSet;

use crate::conn::{self, Rpc};
use crate::meta::routing::CoordinatorKind;
use crate::meta::{self, Cluster};

use super::counter::{RequestCounter, RequestCounts};
use super::error::{Error, Result};
use super::listing::{self, GroupList};
use super::offset_fetch::DEFAULT_BATCH;
use super::topic_names::TopicNames;

/// Reads consumer groups through a [`Cluster`].
#[derive(Debug, Clone)]
pub struct GroupsClient {
    cluster: Cluster,
    counter: Arc<RequestCounter>,
    batch: usize,
    names: TopicNames,
}

impl GroupsClient {
    /// A client over `cluster`, batching [`DEFAULT_BATCH`] groups per request.
    pub fn new(cluster: Cluster) -> GroupsClient {
        GroupsClient {
            cluster,
            counter: Arc::new(RequestCounter::default()),
            batch: DEFAULT_BATCH,
            names: TopicNames::default(),
        }
    }

    /// The same, with `batch` groups per `OffsetFetch` / describe request.
    #[must_use]
    pub fn with_batch(mut self, batch: usize) -> GroupsClient {
        self.batch = batch.max(1);
        self
    }

    /// The groups per request.
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// The cluster underneath.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// The topic names every lag read shares.
    pub fn topic_names(&self) -> &TopicNames {
        &self.names
    }

    /// Requests sent so far, per API.
    pub fn counts(&self) -> RequestCounts {
        self.counter.counts()
    }

    /// Send to one broker, counted.
    pub(super) async fn send_to_node<R: Rpc + Clone>(
        &self,
        node: i32,
        request: R,
    ) -> meta::Result<R::Response> {
        self.counter.bump(R::API_KEY);
        self.cluster.send_to_node(node, request).await
    }

    /// The group's coordinator (cached by the cluster), counted.
    pub(super) async fn coordinator_for(&self, group: &str) -> meta::Result<i32> {
        self.counter.bump(conn::ApiKey::FindCoordinator);
        self.cluster.coordinator_for(group).await
    }

    /// The coordinators of many groups, looked up together (see
    /// [`Cluster::coordinators`]); counted as one `FindCoordinator`.
    pub(super) async fn coordinators_for(
        &self,
        groups: &[String],
        deadline: std::time::Instant,
    ) -> std::collections::BTreeMap<String, meta::Result<i32>> {
        self.counter.bump(conn::ApiKey::FindCoordinator);
        self.cluster
            .coordinators(CoordinatorKind::Group, groups, deadline)
            .await
    }

    /// Forget the group's cached coordinator.
    pub(super) fn invalidate_coordinator(&self, group: &str) {
        self.cluster
            .invalidate_coordinator(CoordinatorKind::Group, group);
    }

    /// Every group on the cluster: one `ListGroups` per broker, concurrently.
    /// A broker that cannot answer is reported in [`GroupList::failed`] rather
    /// than failing the list (its groups move to a live coordinator soon).
    pub async fn list_groups(&self) -> Result<GroupList> {
        // The broker list decides which groups are listed at all: one older
        // than `max_staleness` (the background refresh failing, or paced
        // down on a large cluster) is refreshed before answering.
        let snapshot = self.cluster.refresh_if_stale().await?;
        let mut requests = JoinSet::new();
        for broker in snapshot.brokers() {
            let client = self.clone();
            let node = broker.node_id;
            requests.spawn(async move {
                let answer = client.send_to_node(node, listing::request()).await;
                (node, answer)
            });
        }
        let mut lists = Vec::new();
        let mut failed = Vec::new();
        while let Some(joined) = requests.join_next().await {
            let (node, answer) = joined.map_err(|e| Error::Task(e.to_string()))?;
            match answer.map(|response| listing::read(node, &response)) {
                Ok(Ok(groups)) => lists.push(groups),
                Ok(Err(code)) => failed.push((node, code.to_string())),
                Err(error) => failed.push((node, error.to_string())),
            }
        }
        Ok(listing::merge(lists, failed))
    }
}
