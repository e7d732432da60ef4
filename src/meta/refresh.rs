//! Keeping the snapshot current: single-flight refreshes, generations,
//! degraded status, installing (epoch guard + movement diff), and the
//! background task.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::SystemTime;

use tokio::sync::watch;
use tokio::time::Instant;

use super::error::{Error, Result};
use crate::conn::ErrorCode;
use crate::conn::protocol::messages::{MetadataRequest, MetadataResponse};

use super::cluster::Cluster;
use super::metadata_request::{all_topics_request, decode_metadata, decode_topics, topics_request};
use super::movement::{MovementEvent, diff};
use super::movement_log::MovementFeed;
use super::retry::{Disposition, drive};
use super::snapshot::MetadataSnapshot;

/// Refreshes are failing; the snapshot shown is the last good one.
#[derive(Debug, Clone)]
pub struct Degraded {
    /// When the first failure of this run of failures happened.
    pub since: SystemTime,
    /// The latest failure.
    pub last_error: Error,
    /// How many refreshes in a row failed.
    pub failures: u32,
}

/// Lets a caller (a test) see the background task end.
#[derive(Debug, Clone)]
pub struct RefresherProbe(watch::Receiver<()>);

impl RefresherProbe {
    /// Whether the background task is still running.
    pub fn is_running(&self) -> bool {
        self.0.has_changed().is_ok()
    }

    /// Wait until the background task has ended.
    pub async fn stopped(mut self) {
        while self.0.changed().await.is_ok() {}
    }
}

impl Cluster {
    /// Fetch metadata for the whole cluster and install it.
    ///
    /// Single-flight: a caller that waited while another full refresh ran
    /// gets that refresh's outcome instead of sending a second request, but
    /// only when that refresh started after the caller arrived. A refresh
    /// already in flight when it arrived may have been answered before
    /// whatever made the caller ask (an `r` pressed, a stale leader seen), so
    /// the caller runs one more after it.
    pub async fn refresh(&self) -> Result<Arc<MetadataSnapshot>> {
        let arrived = self.inner.full_started.load(Ordering::Acquire);
        let _flight = self.inner.refresh_lock.lock().await;
        if self.inner.full_done.load(Ordering::Acquire) > arrived {
            return self.collapsed();
        }
        let ticket = self.inner.full_started.fetch_add(1, Ordering::AcqRel) + 1;
        let outcome = self.fetch_full().await;
        self.inner.full_done.store(ticket, Ordering::Release);
        self.finish(outcome.map(|fresh| {
            let (guarded, refused) = self.snapshot().guard_epochs(fresh);
            if refused > 0 {
                tracing::debug!(
                    refused,
                    "kept partitions whose leader epoch would go backwards"
                );
            }
            self.install(Arc::new(guarded), None)
        }))
    }

    /// Fetch metadata for specific topics and merge it in.
    ///
    /// Cheaper than a full refresh by orders of magnitude on a large cluster,
    /// and the only sane thing to do when the trigger was one partition's
    /// leader moving. Never creates a topic, whatever the broker's
    /// `auto.create.topics.enable` says. Collapses into a full refresh that
    /// started after it arrived and finished while it waited for its turn.
    pub async fn refresh_topics(&self, topics: &[&str]) -> Result<Arc<MetadataSnapshot>> {
        if topics.is_empty() {
            return Ok(self.snapshot());
        }
        let arrived = self.inner.full_started.load(Ordering::Acquire);
        let _flight = self.inner.refresh_lock.lock().await;
        if self.inner.full_done.load(Ordering::Acquire) > arrived {
            return self.collapsed();
        }
        let outcome = self.merge_topics(topics).await;
        self.finish(outcome.map(|(snapshot, _)| snapshot))
    }

    /// A topic-scoped refresh that also reports the topic errors in the
    /// answer (never collapsed: the caller needs this answer's errors).
    pub(super) async fn fetch_topics(
        &self,
        topics: &[&str],
    ) -> Result<(Arc<MetadataSnapshot>, Vec<(String, ErrorCode)>)> {
        let _flight = self.inner.refresh_lock.lock().await;
        let outcome = self.merge_topics(topics).await;
        let errors = outcome.as_ref().map(|(_, e)| e.clone()).unwrap_or_default();
        self.finish(outcome.map(|(snapshot, _)| snapshot))
            .map(|snapshot| (snapshot, errors))
    }

    async fn merge_topics(
        &self,
        topics: &[&str],
    ) -> Result<(Arc<MetadataSnapshot>, Vec<(String, ErrorCode)>)> {
        let response = self.fetch(|_| topics_request(topics)).await?;
        let fresh = decode_topics(response.topics);
        let errors = fresh
            .iter()
            .filter_map(|t| t.error.map(|code| (t.name.clone(), code)))
            .collect();
        let names: Vec<String> = fresh.iter().map(|t| t.name.clone()).collect();
        let merged = self.snapshot().with_topics_merged(fresh);
        Ok((self.install(Arc::new(merged), Some(&names)), errors))
    }

    /// Refresh only if the snapshot has gone stale (older than
    /// `max_staleness`) or was invalidated; otherwise the snapshot as it is.
    ///
    /// For answers that are only as complete as the snapshot's broker list
    /// (listing every group asks each broker): the background refresh keeps
    /// the snapshot young while it works, and this bounds what is answered
    /// from when it does not.
    pub async fn refresh_if_stale(&self) -> Result<Arc<MetadataSnapshot>> {
        let snapshot = self.snapshot();
        let invalidated = self.inner.invalidated.load(Ordering::Acquire);
        if !invalidated
            && snapshot.age() < self.inner.config.max_staleness
            && !snapshot.brokers().is_empty()
        {
            return Ok(snapshot);
        }
        self.refresh().await
    }

    /// Mark the snapshot stale and have the background task refresh now.
    ///
    /// Unlike the seed, which installed an empty snapshot, the current one
    /// stays readable: a UI never goes blank because someone invalidated.
    pub fn invalidate(&self) {
        self.invalidate_generation(self.generation());
    }

    /// Invalidate the snapshot of generation `seen`; a no-op when a newer
    /// one is already installed (someone else's refresh answered it).
    /// Returns whether a refresh was requested.
    pub fn invalidate_generation(&self, seen: u64) -> bool {
        if seen < self.generation() {
            return false;
        }
        self.inner.invalidated.store(true, Ordering::Release);
        self.inner.wake.notify_one();
        true
    }

    /// The generation of the installed snapshot (0 before the first).
    pub fn generation(&self) -> u64 {
        *self.inner.generation.borrow()
    }

    /// A receiver that changes whenever a new snapshot is installed.
    pub fn watch_generation(&self) -> watch::Receiver<u64> {
        self.inner.generation.subscribe()
    }

    /// Whether refreshes are failing, since when, and why. Lock-free.
    pub fn degraded(&self) -> Option<Arc<Degraded>> {
        self.inner.degraded.load_full()
    }

    /// The recent movement events, oldest first.
    pub fn movements(&self) -> Vec<MovementEvent> {
        self.inner.movements.recent()
    }

    /// Follow movement events as they are observed.
    pub fn subscribe_movements(&self) -> MovementFeed {
        self.inner.movements.subscribe()
    }

    /// The topics on screen: refreshed every `watched_refresh_interval`.
    pub fn watch_topics(&self, topics: Vec<String>) {
        if let Ok(mut watched) = self.inner.watched.lock() {
            *watched = topics;
        }
        self.inner.wake.notify_one();
    }

    /// A probe that sees the background refresh task end.
    pub fn refresher_probe(&self) -> RefresherProbe {
        RefresherProbe(self.inner.task_alive.clone())
    }

    fn collapsed(&self) -> Result<Arc<MetadataSnapshot>> {
        match self.degraded() {
            Some(degraded) => Err(degraded.last_error.clone()),
            None => Ok(self.snapshot()),
        }
    }

    /// Record a refresh's outcome: set or clear `degraded`.
    fn finish(&self, outcome: Result<Arc<MetadataSnapshot>>) -> Result<Arc<MetadataSnapshot>> {
        match &outcome {
            Ok(_) => self.inner.degraded.store(None),
            Err(error) => {
                let previous = self.degraded();
                self.inner.degraded.store(Some(Arc::new(Degraded {
                    since: previous.as_ref().map_or_else(SystemTime::now, |d| d.since),
                    last_error: error.clone(),
                    failures: previous.map_or(1, |d| d.failures.saturating_add(1)),
                })));
            }
        }
        outcome
    }

    /// One full fetch. The invalidation flag is taken before the request
    /// is sent, so an invalidation made while it is in flight (its answer
    /// may predate whatever prompted it) stays set and runs another; it is
    /// put back when the fetch fails.
    async fn fetch_full(&self) -> Result<MetadataSnapshot> {
        let was_invalidated = self.inner.invalidated.swap(false, Ordering::AcqRel);
        let fetched = self.fetch_full_once().await;
        if fetched.is_err() && was_invalidated {
            self.inner.invalidated.store(true, Ordering::Release);
        }
        fetched
    }

    async fn fetch_full_once(&self) -> Result<MetadataSnapshot> {
        let (response, asked) = tokio::join!(self.fetch(all_topics_request), self.ask_quorum());
        let snapshot = decode_metadata(response?);
        let (controller, voters) = self.active_controller(&asked, snapshot.controller_id());
        let snapshot = snapshot.with_quorum(controller, voters);
        if snapshot.brokers().is_empty() {
            // Never install a cluster without brokers: nothing could be routed.
            return Err(Error::NoBrokers);
        }
        Ok(snapshot)
    }

    /// Send one metadata request to any broker, retrying transport failures
    /// on another connection (through [`drive`], never `dispatch`: a
    /// stale-metadata error there triggers a refresh, which would be this).
    async fn fetch(
        &self,
        build: impl Fn(&crate::conn::Connection) -> MetadataRequest,
    ) -> Result<MetadataResponse> {
        drive(
            &self.inner.config.retry,
            || async {
                let connection = self.inner.pool.any().await?;
                Ok(connection.send(build(&connection)).await?)
            },
            |error| {
                if error.retriable() {
                    Disposition::Retry
                } else {
                    Disposition::Fatal
                }
            },
            |_, _| std::future::ready(()),
        )
        .await
    }

    /// Install a snapshot: learn broker addresses, diff it against the one it
    /// replaces into the movement log, store it, bump the generation.
    /// Called with the refresh lock held, so installs never interleave.
    fn install(
        &self,
        snapshot: Arc<MetadataSnapshot>,
        scope: Option<&[String]>,
    ) -> Arc<MetadataSnapshot> {
        self.inner.pool.learn_addresses(
            snapshot
                .brokers()
                .iter()
                .map(|broker| (broker.node_id, broker.address())),
        );
        let previous = self.inner.snapshot.swap(snapshot.clone());
        self.inner
            .movements
            .extend(diff(&previous, &snapshot, scope, SystemTime::now()));
        self.inner.generation.send_modify(|g| *g += 1);
        snapshot
    }

    /// Refresh in the background, and stop when the last `Cluster` is dropped.
    pub(super) fn spawn_refresh_task(&self) {
        let Some(alive) = self
            .inner
            .task_alive_tx
            .lock()
            .ok()
            .and_then(|mut tx| tx.take())
        else {
            return;
        };
        let weak = Arc::downgrade(&self.inner);
        let wake = self.inner.wake.clone();
        let watched = self.inner.watched.clone();
        let config = self.inner.config.clone();
        let handle = tokio::spawn(async move {
            let _alive = alive;
            let mut next_full = Instant::now() + config.refresh_interval;
            loop {
                let topics = watched.lock().map(|w| w.clone()).unwrap_or_default();
                let mut wake_at = next_full;
                if !topics.is_empty() {
                    wake_at = wake_at.min(Instant::now() + config.watched_refresh_interval);
                }
                tokio::select! {
                    () = tokio::time::sleep_until(wake_at) => {}
                    () = wake.notified() => {}
                }
                let Some(inner) = weak.upgrade() else {
                    return;
                };
                background_round(Cluster { inner }, &mut next_full, &topics, &config).await;
            }
        });
        if let Ok(mut task) = self.inner.task.lock() {
            *task = Some(handle.abort_handle());
        }
    }
}

/// One wake-up of the background task: a full refresh when due or asked
/// for, otherwise a topic-scoped one of the watched topics.
async fn background_round(
    cluster: Cluster,
    next_full: &mut Instant,
    topics: &[String],
    config: &super::cluster::ClusterConfig,
) {
    let invalidated = cluster.inner.invalidated.load(Ordering::Acquire);
    let result = if invalidated || Instant::now() >= *next_full {
        *next_full = Instant::now() + config.refresh_interval;
        cluster.refresh().await.map(|_| ())
    } else if !topics.is_empty() {
        let names: Vec<&str> = topics.iter().map(String::as_str).collect();
        cluster.refresh_topics(&names).await.map(|_| ())
    } else {
        Ok(())
    };
    if let Err(error) = result {
        tracing::debug!(%error, "background metadata refresh failed");
    }
}
