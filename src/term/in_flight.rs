//! The per-view fetches in flight, one of each kind: a new fetch of a kind
//! cancels the one it supersedes, so a broker that never answers (a
//! blackholed host, a hung JVM) holds at most one fetch per kind however
//! often the view asks again, instead of a pile waiting out their timeouts.

use std::collections::HashMap;

use tokio::task::JoinHandle;

/// What a fetch is for: a later fetch of the same kind makes it moot (its
/// answer would be dropped as stale by request id anyway).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fetch {
    /// Watermarks of the partitions on screen.
    Watermarks,
    /// Every broker's log dirs.
    Sizes,
    /// The Messages screen's browse session (runs until replaced or stopped).
    Browse,
    /// The Messages screen's `:find` scan.
    Find,
    /// A screen module's fetch, one per module and lane
    /// (`screens::Query::lane`).
    Query((std::mem::Discriminant<crate::app::screens::Query>, u8)),
}

/// At most one running task per [`Fetch`] kind.
#[derive(Debug, Default)]
pub struct InFlight {
    running: HashMap<Fetch, JoinHandle<()>>,
}

impl InFlight {
    /// Track `task` as the fetch of `kind`, cancelling the one it replaces.
    pub fn replace(&mut self, kind: Fetch, task: JoinHandle<()>) {
        if let Some(superseded) = self.running.insert(kind, task) {
            superseded.abort();
        }
    }

    /// Cancel the fetch of `kind`, if any.
    pub fn stop(&mut self, kind: Fetch) {
        if let Some(task) = self.running.remove(&kind) {
            task.abort();
        }
    }

    /// Cancel every fetch (the cluster they ask is being dropped).
    pub fn abort_all(&mut self) {
        for (_, task) in self.running.drain() {
            task.abort();
        }
    }

    /// How many tracked fetches have not finished.
    #[cfg(test)]
    pub fn running(&self) -> usize {
        self.running.values().filter(|t| !t.is_finished()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fetch that never answers; the receiver sees it end (cancelled).
    fn hung() -> (JoinHandle<()>, tokio::sync::oneshot::Receiver<()>) {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let _dropped_when_cancelled = tx;
            std::future::pending::<()>().await;
        });
        (task, rx)
    }

    #[tokio::test]
    async fn a_new_fetch_of_a_kind_cancels_the_one_it_supersedes_and_no_other() {
        let mut in_flight = InFlight::default();
        let (first, first_ended) = hung();
        let (sizes, sizes_ended) = hung();
        in_flight.replace(Fetch::Watermarks, first);
        in_flight.replace(Fetch::Sizes, sizes);
        for _ in 0..100 {
            let (next, _) = hung();
            in_flight.replace(Fetch::Watermarks, next);
        }

        assert!(
            first_ended.await.is_err(),
            "the superseded fetch was cancelled"
        );
        assert_eq!(
            in_flight.running(),
            2,
            "one watermarks fetch, one sizes fetch"
        );
        in_flight.abort_all();
        assert!(sizes_ended.await.is_err(), "abort_all cancels the rest");
        assert_eq!(in_flight.running(), 0);
    }
}
