//! The metadata cache and the RPC dispatcher.
//!
//! Everything above this layer sends requests through [`Cluster`], which knows
//! four things the connection layer does not: which broker a request belongs
//! to, what the cluster currently looks like, which errors mean "your view is
//! stale", and how long to wait before trying again.
//!
//! The snapshot lives behind an `ArcSwap`. Readers take an `Arc` and never
//! block, never wait on a refresh in progress, and never observe a partially
//! updated cluster — a UI rendering a topic list while a refresh lands gets the
//! old list or the new one, not a mixture.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use super::error::{Disposition, Error, Result};
use crate::conn::{Connection, ConnectionConfig, ErrorCode, Rpc};

use super::coordinator_cache::CoordinatorCache;
use super::liveness::Liveness;
use super::movement_log::{DEFAULT_CAPACITY, MovementLog};
use super::pacing::Pacer;
use super::pool::BrokerPool;
use super::refresher::Refresher;
use super::retry::{RetryPolicy, drive};
use super::routing::{BrokerSelector, CoordinatorKind, Routing, routing};
use super::snapshot::MetadataSnapshot;
use super::snapshot_cell::SnapshotCell;

/// How to build a [`Cluster`].
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// Per-connection settings.
    pub connection: ConnectionConfig,
    /// Retry behaviour for routed requests.
    pub retry: RetryPolicy,
    /// How often the background task refreshes metadata.
    ///
    /// Kafka's own client default is five minutes. A UI wants fresher than
    /// that, and metadata for a large cluster is not cheap, so thirty seconds
    /// is the compromise — with on-demand invalidation doing the real work.
    pub refresh_interval: Duration,
    /// Refresh before answering when the snapshot is older than this.
    pub max_staleness: Duration,
    /// How often the topics on screen ([`Cluster::watch_topics`]) get a
    /// topic-scoped refresh between full ones: cheap, so much more often.
    pub watched_refresh_interval: Duration,
    /// How many movement events the log keeps.
    pub movement_log_capacity: usize,
    /// Space full refreshes by their cost (`meta::pacing`): `refresh_interval`
    /// becomes the least spacing and `max_staleness` the most. For the TUI
    /// idling on a large cluster; off where an interval was asked for.
    pub pace_full_refresh: bool,
    /// How long a full refresh (and a liveness check) waits for the quorum's
    /// `DescribeQuorum` before counting it silent. A headless command, which
    /// must not hold its answer back for a hung controller, waits less than
    /// the TUI.
    pub quorum_deadline: Duration,
    /// Run the liveness check every [`super::liveness::LIVENESS_INTERVAL`]
    /// in the background. Off for a caller that checks on its own cadence
    /// (the fleet, which keeps many clusters and polls each every 15 s).
    pub background_liveness: bool,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        Self {
            connection: ConnectionConfig::default(),
            retry: RetryPolicy::default(),
            refresh_interval: Duration::from_secs(30),
            max_staleness: Duration::from_mins(5),
            watched_refresh_interval: Duration::from_secs(2),
            movement_log_capacity: DEFAULT_CAPACITY,
            pace_full_refresh: false,
            quorum_deadline: super::quorum::QUORUM_DEADLINE,
            background_liveness: true,
        }
    }
}

/// A connected Kafka cluster: metadata, routing, connections and retries.
#[derive(Debug, Clone)]
pub struct Cluster {
    pub(super) inner: Arc<Inner>,
}

/// A `Cluster` that does not keep it alive: what the background tasks
/// hold, so they end when the last `Cluster` is dropped.
#[derive(Debug, Clone)]
pub(super) struct WeakCluster(Weak<Inner>);

impl WeakCluster {
    /// The cluster, while any `Cluster` still holds it.
    pub(super) fn upgrade(&self) -> Option<Cluster> {
        self.0.upgrade().map(|inner| Cluster { inner })
    }
}

/// The owned parts. Each keeps its own invariants in its own file: the
/// snapshot cell (install, generation, single flight), the coordinator
/// cache, the refresher (when rounds run), liveness, the movement log.
#[derive(Debug)]
pub(super) struct Inner {
    pub(super) pool: BrokerPool,
    pub(super) config: ClusterConfig,
    pub(super) cell: SnapshotCell,
    pub(super) coordinators: CoordinatorCache,
    pub(super) refresher: Refresher,
    pub(super) movements: MovementLog,
    /// kscope's own reachability of the quorum and the brokers.
    pub(super) liveness: Liveness,
}

impl Cluster {
    /// Connect and fetch the first metadata snapshot.
    pub async fn connect(
        bootstrap: impl IntoIterator<Item = impl Into<String>>,
        config: ClusterConfig,
    ) -> Result<Self> {
        let pool = BrokerPool::new(bootstrap, config.connection.clone(), config.retry);
        let movements = MovementLog::new(config.movement_log_capacity);
        let ceiling = if config.pace_full_refresh {
            config.max_staleness
        } else {
            config.refresh_interval
        };
        let pacer = Pacer::new(config.refresh_interval, ceiling);
        let refresher = Refresher::new(pacer, config.watched_refresh_interval);
        let cluster = Cluster {
            inner: Arc::new(Inner {
                pool,
                config,
                cell: SnapshotCell::new(MetadataSnapshot::empty()),
                coordinators: CoordinatorCache::default(),
                refresher,
                movements,
                liveness: Liveness::default(),
            }),
        };
        cluster.refresh().await?;
        let weak = cluster.downgrade();
        cluster.inner.refresher.spawn(move |round| {
            let cluster = weak.upgrade()?;
            Some(async move { cluster.background_round(round).await })
        });
        if cluster.inner.config.background_liveness {
            cluster.spawn_liveness_task();
        }
        Ok(cluster)
    }

    /// A handle that does not keep the cluster alive.
    pub(super) fn downgrade(&self) -> WeakCluster {
        WeakCluster(Arc::downgrade(&self.inner))
    }

    /// The current snapshot. Never blocks.
    pub fn snapshot(&self) -> Arc<MetadataSnapshot> {
        self.inner.cell.load()
    }

    /// The underlying connection pool.
    pub fn pool(&self) -> &BrokerPool {
        &self.inner.pool
    }

    /// The configuration the cluster was built with.
    pub fn config(&self) -> &ClusterConfig {
        &self.inner.config
    }

    /// The version a connection would send a specific request at.
    ///
    /// Exposed because several requests change *shape* with the version rather
    /// than merely gaining fields — `Fetch` names its topics by string up to
    /// v12 and by uuid from v13 — and the codec rejects a field set outside
    /// its own range rather than ignoring it.
    pub async fn negotiated_for<R: Rpc>(&self) -> Result<i16> {
        Ok(self.inner.pool.any().await?.negotiated_for::<R>()?)
    }

    /// The leader of a partition, refreshing if the snapshot does not know.
    pub async fn leader_for(&self, topic: &str, partition: i32) -> Result<i32> {
        if let Some(leader) = self.snapshot().leader_for(topic, partition) {
            return Ok(leader);
        }
        // Unlike the seed, the topic's error is read from the fresh response:
        // a snapshot only holds topics that exist.
        let (snapshot, errors) = self.fetch_topics(&[topic]).await?;
        snapshot.leader_for(topic, partition).ok_or_else(|| {
            match errors.iter().find(|(name, _)| name == topic) {
                Some((_, code)) => Error::from_code(*code, Some(format!("topic '{topic}'"))),
                None => Error::from_code(
                    ErrorCode::LeaderNotAvailable,
                    Some(format!("topic '{topic}' partition {partition}")),
                ),
            }
        })
    }

    /// The active controller.
    pub async fn controller(&self) -> Result<i32> {
        if let Some(id) = self.snapshot().controller_id() {
            return Ok(id);
        }
        self.refresh()
            .await?
            .controller_id()
            .ok_or_else(|| Error::from_code(ErrorCode::NotController, None))
    }

    /// Send a request to any broker.
    pub async fn send_any<R: Rpc + Clone>(&self, request: R) -> Result<R::Response> {
        self.dispatch(Target::Any, request).await
    }

    /// Send a request to the controller.
    pub async fn send_to_controller<R: Rpc + Clone>(&self, request: R) -> Result<R::Response> {
        self.dispatch(Target::Controller, request).await
    }

    /// Send a request to one named broker.
    pub async fn send_to_node<R: Rpc + Clone>(
        &self,
        node_id: i32,
        request: R,
    ) -> Result<R::Response> {
        self.dispatch(Target::Node(node_id), request).await
    }

    /// Send a request to a group or transaction coordinator.
    pub async fn send_to_coordinator<R: Rpc + Clone>(
        &self,
        kind: CoordinatorKind,
        key: &str,
        request: R,
    ) -> Result<R::Response> {
        self.dispatch(Target::Coordinator(kind, key.to_owned()), request)
            .await
    }

    /// Send a request to a partition's leader.
    pub async fn send_to_leader<R: Rpc + Clone>(
        &self,
        topic: &str,
        partition: i32,
        request: R,
    ) -> Result<R::Response> {
        self.dispatch(Target::Leader(topic.to_owned(), partition), request)
            .await
    }

    /// Send a request to wherever [`routing`] says it belongs.
    ///
    /// Only usable for the `Any` and `Controller` classes; coordinator- and
    /// broker-routed requests need a key the api key alone does not carry, so
    /// asking for them here is a caller error rather than a guess.
    pub async fn send_routed<R: Rpc + Clone>(&self, request: R) -> Result<R::Response> {
        match routing(R::API_KEY) {
            Routing::Any => self.send_any(request).await,
            Routing::Controller => self.send_to_controller(request).await,
            Routing::Coordinator(_) => Err(Error::Unroutable {
                api: R::API_KEY,
                how: "is routed to a coordinator; use send_to_coordinator",
            }),
            Routing::Specific(BrokerSelector::Caller) => Err(Error::Unroutable {
                api: R::API_KEY,
                how: "is routed to one broker; use send_to_node",
            }),
            Routing::Specific(BrokerSelector::PartitionLeader) => Err(Error::Unroutable {
                api: R::API_KEY,
                how: "is routed to a partition leader; use send_to_leader",
            }),
        }
    }

    /// Resolve a broker, send, and on failure do what its disposition says
    /// ([`drive`], the one retry driver).
    ///
    /// Two independent axes: a stale leader and a moved coordinator are
    /// different caches, and refreshing the wrong one leaves the retry
    /// pointed at the same wrong broker. A leader or coordinator the
    /// liveness check found silent may have moved: it is looked up again,
    /// like after a refused connection; a request for one named broker has
    /// nowhere else to go.
    async fn dispatch<R: Rpc + Clone>(&self, target: Target, request: R) -> Result<R::Response> {
        let coordinator = matches!(&target, Target::Coordinator(..));
        // The generation each attempt was routed by: a refresh for a stale
        // view names it, and is a no-op once a newer one is installed.
        let seen = AtomicU64::new(0);
        let (target, seen, request) = (&target, &seen, &request);
        drive(
            &self.inner.config.retry,
            move || {
                seen.store(self.generation(), Ordering::Release);
                self.attempt(target, request.clone())
            },
            |error| match error {
                Error::NotAnswering(_) if matches!(target, Target::Node(_)) => Disposition::Fatal,
                Error::NotAnswering(_) if coordinator => Disposition::RefreshCoordinator,
                Error::NotAnswering(_) => Disposition::RefreshMetadata,
                error => error.disposition(coordinator),
            },
            move |disposition, error| {
                let lost = error.needs_metadata_refresh();
                self.recover(target, seen.load(Ordering::Acquire), disposition, lost)
            },
        )
        .await
    }

    /// What a failed attempt's disposition asks of the caches: forget a
    /// moved coordinator (and, after a lost connection, have the
    /// background task refresh the metadata), or put right the view the
    /// attempt was routed by (generation `seen`).
    async fn recover(&self, target: &Target, seen: u64, disposition: Disposition, lost: bool) {
        match (disposition, target) {
            (Disposition::RefreshCoordinator, Target::Coordinator(kind, key)) => {
                self.invalidate_coordinator(*kind, key);
                if lost {
                    self.invalidate_generation(seen);
                }
            }
            (Disposition::RefreshMetadata, target) => self.on_stale_metadata(target, seen).await,
            _ => {}
        }
    }

    async fn attempt<R: Rpc + Clone>(&self, target: &Target, request: R) -> Result<R::Response> {
        let connection = self.resolve(target).await?;
        Ok(connection.send(request).await?)
    }

    async fn resolve(&self, target: &Target) -> Result<Connection> {
        match target {
            Target::Any => self.inner.pool.any().await,
            Target::Node(node_id) => self.inner.pool.get(*node_id).await,
            Target::Controller => {
                // KRaft brokers forward controller-bound requests, and a
                // dedicated controller is not reachable on a broker listener:
                // a controller that is no broker means any broker.
                let controller = self.controller().await?;
                if self.snapshot().broker(controller).is_some() {
                    self.inner.pool.get(controller).await
                } else {
                    self.inner.pool.any().await
                }
            }
            Target::Coordinator(kind, key) => {
                let node = self.coordinator(*kind, key).await?;
                self.inner.pool.get(node).await
            }
            Target::Leader(topic, partition) => {
                let leader = self.leader_for(topic, *partition).await?;
                self.inner.pool.get(leader).await
            }
        }
    }

    /// Put right the view a failed attempt was routed by (generation
    /// `seen`): a stale leader refreshes its topic only; the controller
    /// needs a full refresh before the retry can be routed, unless one
    /// newer than `seen` is already installed; anything else (any broker,
    /// a named one, a coordinator's address) asks the background task for
    /// a full refresh and retries at once.
    async fn on_stale_metadata(&self, target: &Target, seen: u64) {
        let refreshed = match target {
            Target::Leader(topic, _) => self.refresh_topics(&[topic.as_str()]).await.map(|_| ()),
            Target::Controller if self.generation() == seen => self.refresh().await.map(|_| ()),
            _ => {
                self.invalidate_generation(seen);
                Ok(())
            }
        };
        if let Err(error) = refreshed {
            tracing::debug!(%error, "metadata refresh after a stale-view error failed");
        }
    }
}

/// Where a request is going.
#[derive(Debug, Clone)]
enum Target {
    Any,
    Controller,
    Node(i32),
    Coordinator(CoordinatorKind, String),
    Leader(String, i32),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::ApiKey;

    #[test]
    fn send_routed_refuses_the_classes_it_cannot_resolve() {
        // Compile-time proof that the routing table is consulted; the runtime
        // check is exercised in the integration suite.
        assert_eq!(
            routing(ApiKey::OffsetFetch),
            Routing::Coordinator(CoordinatorKind::Group)
        );
        assert_eq!(
            routing(ApiKey::DescribeLogDirs),
            Routing::Specific(BrokerSelector::Caller)
        );
    }
}
