//! Keeping the snapshot current: the full and topic-scoped refreshes, what
//! one background round does, and installing (epoch guard, address
//! learning, movement diff). The invariants of installing live in
//! [`SnapshotCell`](super::snapshot_cell); when rounds run, in
//! [`Refresher`](super::refresher).

use std::sync::Arc;
use std::time::SystemTime;

use tokio::sync::watch;

use super::error::{Disposition, Error, Result};
use crate::conn::ErrorCode;

use super::cluster::Cluster;
use super::metadata_answer::MetadataAnswer;
use super::metadata_request::{MetadataAsk, all_topics_request, topics_request};
use super::movement::{MovementEvent, diff};
use super::movement_log::MovementFeed;
use super::refresher::{RefresherProbe, Round};
use super::retry::drive;
use super::snapshot::MetadataSnapshot;
use super::snapshot_cell::{Degraded, Flight, Turn};

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
        let flight = match self.inner.cell.full_turn().await {
            Turn::Run(flight) => flight,
            Turn::Collapsed(outcome) => return outcome,
        };
        let outcome = self.fetch_full(&flight).await.map(|fresh| {
            let (guarded, refused) = self.snapshot().guard_epochs(fresh);
            if refused > 0 {
                tracing::debug!(
                    refused,
                    "kept partitions whose leader epoch would go backwards"
                );
            }
            self.install(&flight, Arc::new(guarded), None)
        });
        flight.finish(outcome)
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
        let flight = match self.inner.cell.collapsible_turn().await {
            Turn::Run(flight) => flight,
            Turn::Collapsed(outcome) => return outcome,
        };
        let outcome = self.merge_topics(&flight, topics).await;
        flight.finish(outcome.map(|(snapshot, _)| snapshot))
    }

    /// A topic-scoped refresh that also reports the topic errors in the
    /// answer (never collapsed: the caller needs this answer's errors).
    pub(super) async fn fetch_topics(
        &self,
        topics: &[&str],
    ) -> Result<(Arc<MetadataSnapshot>, Vec<(String, ErrorCode)>)> {
        let flight = self.inner.cell.exclusive_turn().await;
        let outcome = self.merge_topics(&flight, topics).await;
        let errors = outcome.as_ref().map(|(_, e)| e.clone()).unwrap_or_default();
        flight
            .finish(outcome.map(|(snapshot, _)| snapshot))
            .map(|snapshot| (snapshot, errors))
    }

    async fn merge_topics(
        &self,
        flight: &Flight<'_>,
        topics: &[&str],
    ) -> Result<(Arc<MetadataSnapshot>, Vec<(String, ErrorCode)>)> {
        let response = self.fetch(|_| topics_request(topics)).await?;
        let fresh = response.topics;
        let errors = fresh
            .iter()
            .filter_map(|t| t.error.map(|code| (t.name.clone(), code)))
            .collect();
        let names: Vec<String> = fresh.iter().map(|t| t.name.clone()).collect();
        let merged = self.snapshot().with_topics_merged(fresh);
        Ok((self.install(flight, Arc::new(merged), Some(&names)), errors))
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
        if !self.inner.cell.is_invalidated()
            && snapshot.age() < self.config().max_staleness
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
        let requested = self.inner.cell.invalidate(seen);
        if requested {
            self.inner.refresher.wake();
        }
        requested
    }

    /// The generation of the installed snapshot (0 before the first).
    pub fn generation(&self) -> u64 {
        self.inner.cell.generation()
    }

    /// A receiver that changes whenever a new snapshot is installed.
    pub fn watch_generation(&self) -> watch::Receiver<u64> {
        self.inner.cell.subscribe()
    }

    /// Whether refreshes are failing, since when, and why. Lock-free.
    pub fn degraded(&self) -> Option<Arc<Degraded>> {
        self.inner.cell.degraded()
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
        self.inner.refresher.watch_topics(topics);
    }

    /// A probe that sees the background refresh task end.
    pub fn refresher_probe(&self) -> RefresherProbe {
        self.inner.refresher.probe()
    }

    /// One round of the background task: a full refresh when due or asked
    /// for, otherwise a topic-scoped one of the watched topics. Returns
    /// whether a full refresh ran.
    pub(super) async fn background_round(&self, round: Round) -> bool {
        let full = round.full_due || self.inner.cell.is_invalidated();
        let result = if full {
            self.refresh().await.map(|_| ())
        } else if round.watched.is_empty() {
            Ok(())
        } else {
            let names: Vec<&str> = round.watched.iter().map(String::as_str).collect();
            self.refresh_topics(&names).await.map(|_| ())
        };
        if let Err(error) = result {
            tracing::debug!(%error, "background metadata refresh failed");
        }
        full
    }

    /// One full fetch. The invalidation flag is taken before the request
    /// is sent, so an invalidation made while it is in flight (its answer
    /// may predate whatever prompted it) stays set and runs another; it is
    /// put back when the fetch fails.
    async fn fetch_full(&self, flight: &Flight<'_>) -> Result<MetadataSnapshot> {
        let was_invalidated = flight.take_invalidation();
        let fetched = self.fetch_full_once().await;
        if fetched.is_err() && was_invalidated {
            flight.restore_invalidation();
        }
        fetched
    }

    async fn fetch_full_once(&self) -> Result<MetadataSnapshot> {
        let (response, asked) = tokio::join!(self.fetch(all_topics_request), self.ask_quorum());
        let snapshot = response?.into_snapshot();
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
        build: impl Fn(&crate::conn::Connection) -> MetadataAsk,
    ) -> Result<MetadataAnswer> {
        drive(
            &self.config().retry,
            || async {
                let connection = self.pool().any().await?;
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
    fn install(
        &self,
        flight: &Flight<'_>,
        snapshot: Arc<MetadataSnapshot>,
        scope: Option<&[String]>,
    ) -> Arc<MetadataSnapshot> {
        self.pool().learn_addresses(
            snapshot
                .brokers()
                .iter()
                .map(|broker| (broker.node_id, broker.address())),
        );
        flight.install(snapshot, |previous, installed| {
            self.inner
                .movements
                .extend(diff(previous, installed, scope, SystemTime::now()));
        })
    }
}
