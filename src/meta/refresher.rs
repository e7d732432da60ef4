//! The refresher: the background task that keeps the snapshot current.
//!
//! It decides *when* to refresh and *what* — a full refresh when one is due
//! or asked for, otherwise a topic-scoped one of the topics on screen — and
//! leaves *how* to its owner, which hands it a function to run each round.
//! That function holds only a weak reference to the cluster, so the task
//! ends when the last `Cluster` is dropped (and dropping the refresher
//! aborts it).
//!
//! Invariants: one task per refresher (a second `spawn` is a no-op); a
//! wake-up (`wake`, a new set of watched topics) is never lost, since a
//! `Notify` permit is stored while the task is busy; a round never overlaps
//! the next (the task awaits each).

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, watch};
use tokio::task::AbortHandle;
use tokio::time::Instant;

use super::pacing::Pacer;

/// What one round is asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Round {
    /// The full refresh's interval has passed.
    pub full_due: bool,
    /// The topics on screen, for a topic-scoped refresh.
    pub watched: Vec<String>,
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

/// The background refresh task's schedule and handle.
#[derive(Debug)]
pub(super) struct Refresher {
    /// When the next full refresh runs (spaced by its cost when paced).
    pacer: Pacer,
    /// How often the watched topics get a topic-scoped refresh.
    watched_interval: Duration,
    /// Topics to refresh on the short interval (what is on screen).
    watched: Arc<Mutex<Vec<String>>>,
    /// Wakes the task for an immediate round (a permit is kept while the
    /// task is busy, so a wake-up is never lost).
    wake: Arc<Notify>,
    task: Mutex<Option<AbortHandle>>,
    alive: watch::Receiver<()>,
    alive_tx: Mutex<Option<watch::Sender<()>>>,
}

impl Refresher {
    /// A refresher not yet running.
    pub(super) fn new(pacer: Pacer, watched_interval: Duration) -> Self {
        let (alive_tx, alive) = watch::channel(());
        Self {
            pacer,
            watched_interval,
            watched: Arc::new(Mutex::new(Vec::new())),
            wake: Arc::new(Notify::new()),
            task: Mutex::new(None),
            alive,
            alive_tx: Mutex::new(Some(alive_tx)),
        }
    }

    /// Run a round now (an invalidation, a press of `r`).
    pub(super) fn wake(&self) {
        self.wake.notify_one();
    }

    /// The topics on screen: refreshed every `watched_interval` from now on.
    pub(super) fn watch_topics(&self, topics: Vec<String>) {
        if let Ok(mut watched) = self.watched.lock() {
            *watched = topics;
        }
        self.wake();
    }

    /// A probe that sees the task end.
    pub(super) fn probe(&self) -> RefresherProbe {
        RefresherProbe(self.alive.clone())
    }

    /// Start the task. Each round runs `round`, which returns `None` when
    /// the owner is gone (the task then ends) or a future saying whether it
    /// ran a full refresh (the full interval restarts then).
    pub(super) fn spawn<R, F>(&self, round: R)
    where
        R: Fn(Round) -> Option<F> + Send + 'static,
        F: Future<Output = bool> + Send,
    {
        let Some(alive) = self.alive_tx.lock().ok().and_then(|mut tx| tx.take()) else {
            return;
        };
        let (mut pacer, watched_interval) = (self.pacer.clone(), self.watched_interval);
        let (watched, wake) = (self.watched.clone(), self.wake.clone());
        let handle = tokio::spawn(async move {
            let _alive = alive;
            loop {
                let topics = watched.lock().map(|w| w.clone()).unwrap_or_default();
                let mut wake_at = pacer.next_full();
                if !topics.is_empty() {
                    wake_at = wake_at.min(Instant::now() + watched_interval);
                }
                tokio::select! {
                    () = tokio::time::sleep_until(wake_at) => {}
                    () = wake.notified() => {}
                }
                let full_due = pacer.due(Instant::now());
                let started = Instant::now();
                let Some(ran) = round(Round {
                    full_due,
                    watched: topics,
                }) else {
                    return;
                };
                if ran.await {
                    pacer.ran(started, Instant::now());
                    tracing::debug!(
                        cost = ?pacer.last_cost(),
                        next_in = ?pacer.next_full().saturating_duration_since(Instant::now()),
                        "full metadata refresh paced"
                    );
                }
            }
        });
        if let Ok(mut task) = self.task.lock() {
            *task = Some(handle.abort_handle());
        }
    }
}

impl Drop for Refresher {
    fn drop(&mut self) {
        if let Ok(mut task) = self.task.lock()
            && let Some(task) = task.take()
        {
            task.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc;

    fn started(full: u64, watched: u64) -> (Arc<Refresher>, mpsc::UnboundedReceiver<Round>) {
        let full = Duration::from_secs(full);
        let refresher = Arc::new(Refresher::new(
            Pacer::new(full, full),
            Duration::from_secs(watched),
        ));
        let (tx, rx) = mpsc::unbounded_channel();
        refresher.spawn(move |round: Round| {
            let full = round.full_due;
            let sent = tx.send(round).is_ok();
            sent.then_some(async move { full })
        });
        (refresher, rx)
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_round_comes_due_on_its_interval() {
        let (_refresher, mut rounds) = started(30, 2);
        let round = rounds.recv().await.expect("a round");
        assert!(round.full_due);
        assert!(round.watched.is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn watched_topics_get_rounds_between_full_ones() {
        let (refresher, mut rounds) = started(30, 2);
        refresher.watch_topics(vec!["orders".to_owned()]);
        let woken = rounds.recv().await.expect("the wake-up's round");
        assert!(!woken.full_due);
        let next = rounds.recv().await.expect("a watched round");
        assert_eq!(next.watched, vec!["orders".to_owned()]);
        assert!(!next.full_due, "2 s in, the full refresh is not due");
    }

    #[tokio::test(start_paused = true)]
    async fn a_wake_runs_a_round_at_once() {
        let (refresher, mut rounds) = started(3600, 2);
        let before = Instant::now();
        refresher.wake();
        let round = rounds.recv().await.expect("a round");
        assert!(!round.full_due);
        assert!(Instant::now() - before < Duration::from_secs(1));
    }

    #[tokio::test(start_paused = true)]
    async fn the_task_ends_with_its_owner() {
        let (refresher, _rounds) = started(30, 2);
        let probe = refresher.probe();
        assert!(probe.is_running());
        drop(refresher);
        probe.stopped().await;
    }

    #[tokio::test(start_paused = true)]
    async fn a_costly_full_refresh_spaces_the_next_while_watched_topics_keep_their_interval() {
        let refresher = Arc::new(Refresher::new(
            Pacer::new(Duration::from_secs(10), Duration::from_mins(5)),
            Duration::from_secs(2),
        ));
        refresher.watch_topics(vec!["orders".to_owned()]);
        let (tx, mut rounds) = mpsc::unbounded_channel();
        refresher.spawn(move |round: Round| {
            let full = round.full_due;
            let sent = tx.send((Instant::now(), full)).is_ok();
            sent.then_some(async move {
                if full {
                    // This full refresh costs 300 ms: the next is 100 s on.
                    tokio::time::advance(Duration::from_millis(300)).await;
                }
                full
            })
        });
        let mut fulls = Vec::new();
        let mut watched = 0;
        while fulls.len() < 2 {
            let (at, full) = rounds.recv().await.expect("a round");
            if full {
                fulls.push(at);
            } else {
                watched += 1;
            }
        }
        let spacing = fulls[1] - fulls[0];
        assert!(
            spacing >= Duration::from_millis(100_300) && spacing < Duration::from_secs(103),
            "{spacing:?}"
        );
        // Meanwhile the topic on screen was refreshed every 2 s or so.
        assert!(watched >= 45, "{watched} watched rounds in {spacing:?}");
    }
}
