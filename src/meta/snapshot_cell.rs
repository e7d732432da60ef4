//! The snapshot cell: where the current [`MetadataSnapshot`] lives, and the
//! only code that installs one.
//!
//! Invariants kept here and nowhere else:
//! - Readers never block: [`SnapshotCell::load`] is one `ArcSwap` load, and
//!   a reader sees the old snapshot or the new one, never a mixture.
//! - Refreshes are single flight: every fetch-and-install runs inside a
//!   [`Flight`], which holds the cell's lock, so installs never interleave.
//! - The generation counts installs: it goes up by exactly one per install,
//!   after the snapshot is stored (a receiver woken by it sees the new one).
//! - A full refresh that started after a caller arrived and finished while
//!   it waited answers that caller too ([`Turn::Collapsed`]); one already in
//!   flight when it arrived does not (its answer may predate the reason the
//!   caller asked).
//! - An invalidation names the generation it saw and is dropped when a newer
//!   snapshot is installed; the flag is taken when a full fetch starts and
//!   put back when that fetch fails.
//! - `degraded` is set while refreshes fail and cleared by the next success;
//!   the last good snapshot stays readable meanwhile.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::SystemTime;

use arc_swap::{ArcSwap, ArcSwapOption};
use tokio::sync::{Mutex, MutexGuard, watch};

use super::error::{Error, Result};
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

/// The current snapshot, its generation, and the single-flight lock.
#[derive(Debug)]
pub(super) struct SnapshotCell {
    snapshot: ArcSwap<MetadataSnapshot>,
    /// Bumped on every install; the UI waits on it.
    generation: watch::Sender<u64>,
    /// Makes refreshes single-flight; every install happens under it.
    lock: Mutex<()>,
    /// The ticket of the last full refresh started (each takes the next
    /// number, under `lock`).
    full_started: AtomicU64,
    /// The ticket of the last full refresh finished: a caller that arrived
    /// when `full_started` was `n` collapses into a finished ticket `> n`.
    full_done: AtomicU64,
    /// Set by an invalidation, taken by the next full fetch as it starts.
    invalidated: AtomicBool,
    /// Set while refreshes fail.
    degraded: ArcSwapOption<Degraded>,
}

/// What a caller waiting for the lock gets.
pub(super) enum Turn<'a> {
    /// Its turn to fetch and install.
    Run(Flight<'a>),
    /// A full refresh that started after it arrived has answered it.
    Collapsed(Result<Arc<MetadataSnapshot>>),
}

/// The right to install: held while one refresh fetches and installs.
pub(super) struct Flight<'a> {
    cell: &'a SnapshotCell,
    /// The full refresh's ticket, stored as done when it finishes.
    ticket: Option<u64>,
    _lock: MutexGuard<'a, ()>,
}

impl SnapshotCell {
    /// A cell holding `snapshot` at generation 0.
    pub(super) fn new(snapshot: MetadataSnapshot) -> Self {
        Self {
            snapshot: ArcSwap::from_pointee(snapshot),
            generation: watch::channel(0).0,
            lock: Mutex::new(()),
            full_started: AtomicU64::new(0),
            full_done: AtomicU64::new(0),
            invalidated: AtomicBool::new(false),
            degraded: ArcSwapOption::empty(),
        }
    }

    /// The current snapshot. Never blocks.
    pub(super) fn load(&self) -> Arc<MetadataSnapshot> {
        self.snapshot.load_full()
    }

    /// The generation of the installed snapshot (0 before the first).
    pub(super) fn generation(&self) -> u64 {
        *self.generation.borrow()
    }

    /// A receiver that changes whenever a snapshot is installed.
    pub(super) fn subscribe(&self) -> watch::Receiver<u64> {
        self.generation.subscribe()
    }

    /// Whether refreshes are failing, since when, and why. Lock-free.
    pub(super) fn degraded(&self) -> Option<Arc<Degraded>> {
        self.degraded.load_full()
    }

    /// Whether an invalidation waits for the next full refresh.
    pub(super) fn is_invalidated(&self) -> bool {
        self.invalidated.load(Ordering::Acquire)
    }

    /// Invalidate the snapshot of generation `seen`: a no-op (false) when a
    /// newer one is installed already.
    pub(super) fn invalidate(&self, seen: u64) -> bool {
        if seen < self.generation() {
            return false;
        }
        self.invalidated.store(true, Ordering::Release);
        true
    }

    /// Wait for a full refresh's turn; collapses into a full refresh that
    /// started after the caller arrived.
    pub(super) async fn full_turn(&self) -> Turn<'_> {
        match self.collapsible_turn().await {
            Turn::Run(mut flight) => {
                flight.ticket = Some(self.full_started.fetch_add(1, Ordering::AcqRel) + 1);
                Turn::Run(flight)
            }
            collapsed @ Turn::Collapsed(_) => collapsed,
        }
    }

    /// Wait for a topic-scoped refresh's turn; collapses like a full one
    /// (a full answer covers the topics too).
    pub(super) async fn collapsible_turn(&self) -> Turn<'_> {
        let arrived = self.full_started.load(Ordering::Acquire);
        let flight = self.exclusive_turn().await;
        if self.full_done.load(Ordering::Acquire) > arrived {
            return Turn::Collapsed(self.collapsed());
        }
        Turn::Run(flight)
    }

    /// Wait for a turn that never collapses (the caller needs its own answer).
    pub(super) async fn exclusive_turn(&self) -> Flight<'_> {
        Flight {
            cell: self,
            ticket: None,
            _lock: self.lock.lock().await,
        }
    }

    /// What a collapsed caller is told: the last refresh's failure, or the
    /// snapshot it installed.
    fn collapsed(&self) -> Result<Arc<MetadataSnapshot>> {
        match self.degraded() {
            Some(degraded) => Err(degraded.last_error.clone()),
            None => Ok(self.load()),
        }
    }
}

impl Flight<'_> {
    /// Take the invalidation flag as a full fetch starts (an invalidation
    /// made while the fetch is in flight stays set and runs another).
    pub(super) fn take_invalidation(&self) -> bool {
        self.cell.invalidated.swap(false, Ordering::AcqRel)
    }

    /// Put an invalidation back after the fetch that took it failed.
    pub(super) fn restore_invalidation(&self) {
        self.cell.invalidated.store(true, Ordering::Release);
    }

    /// Store `snapshot`, run `observe(previous, new)` (the movement diff,
    /// address learning) before the generation is bumped, then bump it.
    pub(super) fn install(
        &self,
        snapshot: Arc<MetadataSnapshot>,
        observe: impl FnOnce(&MetadataSnapshot, &MetadataSnapshot),
    ) -> Arc<MetadataSnapshot> {
        let previous = self.cell.snapshot.swap(snapshot.clone());
        observe(&previous, &snapshot);
        self.cell.generation.send_modify(|g| *g += 1);
        snapshot
    }

    /// Record the refresh's outcome (set or clear `degraded`; a full
    /// refresh's ticket becomes done) and release the lock.
    pub(super) fn finish(
        self,
        outcome: Result<Arc<MetadataSnapshot>>,
    ) -> Result<Arc<MetadataSnapshot>> {
        if let Some(ticket) = self.ticket {
            self.cell.full_done.store(ticket, Ordering::Release);
        }
        match &outcome {
            Ok(_) => self.cell.degraded.store(None),
            Err(error) => {
                let previous = self.cell.degraded();
                self.cell.degraded.store(Some(Arc::new(Degraded {
                    since: previous.as_ref().map_or_else(SystemTime::now, |d| d.since),
                    last_error: error.clone(),
                    failures: previous.map_or(1, |d| d.failures.saturating_add(1)),
                })));
            }
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell() -> SnapshotCell {
        SnapshotCell::new(MetadataSnapshot::empty())
    }

    #[tokio::test]
    async fn each_install_bumps_the_generation_once_after_storing() {
        let cell = cell();
        let rx = cell.subscribe();
        let flight = cell.exclusive_turn().await;
        flight.install(Arc::new(MetadataSnapshot::empty()), |_, _| {});
        flight.install(Arc::new(MetadataSnapshot::empty()), |_, _| {});
        drop(flight.finish(Ok(cell.load())));
        assert_eq!(cell.generation(), 2);
        assert!(rx.has_changed().unwrap_or(false), "receivers are woken");
    }

    #[tokio::test]
    async fn an_invalidation_of_an_older_generation_is_dropped() {
        let cell = cell();
        let flight = cell.exclusive_turn().await;
        flight.install(Arc::new(MetadataSnapshot::empty()), |_, _| {});
        drop(flight.finish(Ok(cell.load())));
        assert!(!cell.invalidate(0), "generation 0 was replaced");
        assert!(!cell.is_invalidated());
        assert!(cell.invalidate(1));
        assert!(cell.is_invalidated());
    }

    #[tokio::test]
    async fn a_failed_fetch_puts_its_invalidation_back() {
        let cell = cell();
        assert!(cell.invalidate(0));
        let Turn::Run(flight) = cell.full_turn().await else {
            panic!("nothing ran before: the first caller runs");
        };
        assert!(flight.take_invalidation());
        assert!(!cell.is_invalidated(), "taken while the fetch is in flight");
        flight.restore_invalidation();
        let failed = flight.finish(Err(Error::NoBrokers));
        assert!(failed.is_err());
        assert!(cell.is_invalidated());
        assert_eq!(cell.degraded().map(|d| d.failures), Some(1));
    }

    #[tokio::test]
    async fn degraded_counts_failures_in_a_row_and_clears_on_success() {
        let cell = cell();
        for _ in 0..3 {
            drop(cell.exclusive_turn().await.finish(Err(Error::NoBrokers)));
        }
        let degraded = cell.degraded().expect("three failures");
        assert_eq!(degraded.failures, 3);
        drop(cell.exclusive_turn().await.finish(Ok(cell.load())));
        assert!(cell.degraded().is_none());
    }

    #[tokio::test]
    async fn a_caller_collapses_only_into_a_full_refresh_started_after_it_arrived() {
        let cell = Arc::new(cell());
        // A full refresh is in flight when the second caller arrives.
        let Turn::Run(first) = cell.full_turn().await else {
            panic!("the first caller runs");
        };
        let waiter = {
            let cell = cell.clone();
            tokio::spawn(async move { matches!(cell.full_turn().await, Turn::Run(_)) })
        };
        tokio::task::yield_now().await;
        drop(first.finish(Ok(cell.load())));
        assert!(
            waiter.await.unwrap_or(false),
            "the refresh in flight may predate the reason it asked: it runs its own"
        );

        // A caller that arrived before a full refresh took its ticket
        // collapses into it. The lock is FIFO: the full refresh queues first,
        // the caller behind it, then the gate opens.
        let gate = cell.exclusive_turn().await;
        let full = {
            let cell = cell.clone();
            tokio::spawn(async move {
                if let Turn::Run(flight) = cell.full_turn().await {
                    drop(flight.finish(Ok(cell.load())));
                    true
                } else {
                    false
                }
            })
        };
        tokio::task::yield_now().await;
        let caller = {
            let cell = cell.clone();
            tokio::spawn(
                async move { matches!(cell.collapsible_turn().await, Turn::Collapsed(Ok(_))) },
            )
        };
        tokio::task::yield_now().await;
        drop(gate);
        assert!(full.await.unwrap_or(false), "the full refresh ran");
        assert!(
            caller.await.unwrap_or(false),
            "answered by the full refresh that started after it arrived"
        );
    }
}
