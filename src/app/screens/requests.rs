//! The request bookkeeping every screen store uses: [`Requests`] for a
//! screen that shows one thing fetched at a time (a partition's producers,
//! a security listing): the request in flight and when it left, what was
//! last asked and when, the answer held and its age. A request is due when
//! the thing on screen changed, when the last one is older than the
//! screen's interval, or when the one in flight was given up on (its late
//! answer is then dropped as stale).
//!
//! Request ids come from one [`RequestIds`] counter that outlives the
//! stores: a store replaced on `:ctx` starts empty, and a late answer from
//! the previous cluster still carries an id no new request has.

use std::sync::Arc;
use std::time::{Duration, Instant};

/// The source of request ids: never reset, so an id is never handed out
/// twice in a session.
#[derive(Debug, Default)]
pub struct RequestIds {
    last: u64,
}

impl RequestIds {
    /// A fresh id, greater than every one before.
    pub fn fresh(&mut self) -> u64 {
        self.last += 1;
        self.last
    }
}

/// One screen's fetches of `W` (what is shown) answered with `A`; with
/// the defaults (`Requests<()>`) only the bookkeeping of one kind of request
/// whose answer the store absorbs in its own way (the group list).
#[derive(Debug)]
pub struct Requests<W = (), A = ()> {
    /// The latest answer and what it is for.
    pub answer: Option<(W, Arc<A>)>,
    /// When it landed.
    pub at: Option<Instant>,
    /// The request in flight: id, what it asks, when it left.
    pub in_flight: Option<(u64, W, Instant)>,
    /// What was last asked for and when.
    pub last_request: Option<(W, Instant)>,
    /// Answers received (rows depend on them).
    pub answers: u64,
}

impl<W, A> Default for Requests<W, A> {
    fn default() -> Self {
        Requests {
            answer: None,
            at: None,
            in_flight: None,
            last_request: None,
            answers: 0,
        }
    }
}

impl<W: Clone + PartialEq, A> Requests<W, A> {
    /// Forget the cluster (another context).
    pub fn reset(&mut self) {
        *self = Requests::default();
    }

    /// Ask again at the next chance (the `r` key).
    pub fn expire(&mut self) {
        self.in_flight = None;
        self.last_request = None;
    }

    /// The answer held, if it is for `what`.
    pub fn held_for(&self, what: &W) -> Option<&A> {
        self.answer
            .as_ref()
            .filter(|(held, _)| held == what)
            .map(|(_, answer)| answer.as_ref())
    }

    /// Whether a request for `what` is due at `now`: none was sent, the
    /// thing on screen changed, the last one is older than `interval`, or
    /// the one in flight is older than `give_up`.
    pub fn due(&self, what: &W, now: Instant, (interval, give_up): (Duration, Duration)) -> bool {
        let since = |at: Instant| now.saturating_duration_since(at);
        match &self.in_flight {
            Some((_, asked, sent)) => asked != what || since(*sent) >= give_up,
            None => match &self.last_request {
                Some((asked, at)) => asked != what || since(*at) >= interval,
                None => true,
            },
        }
    }

    /// Whether a request is in flight and not yet given up on (younger
    /// than `give_up`).
    pub fn busy(&self, now: Instant, give_up: Duration) -> bool {
        self.in_flight
            .as_ref()
            .is_some_and(|(_, _, sent)| now.saturating_duration_since(*sent) < give_up)
    }

    /// Record a request for `what` sent at `now`: its id, taken from `ids`.
    pub fn send(&mut self, ids: &mut RequestIds, what: &W, now: Instant) -> u64 {
        let id = ids.fresh();
        self.in_flight = Some((id, what.clone(), now));
        self.last_request = Some((what.clone(), now));
        id
    }

    /// Ask for `what` at `now` if due (re-read every `interval`, a request
    /// in flight given up on after `give_up`): the new request's id, taken
    /// from `ids`.
    pub fn ask(
        &mut self,
        ids: &mut RequestIds,
        what: &W,
        now: Instant,
        every: (Duration, Duration),
    ) -> Option<u64> {
        self.due(what, now, every)
            .then(|| self.send(ids, what, now))
    }

    /// Whether `request` is the one in flight; if so it is no longer (its
    /// answer landed and the store absorbs it its own way). An answer to
    /// any other request is stale.
    pub fn landed(&mut self, request: u64) -> bool {
        let current = self.is_in_flight(request);
        if current {
            self.in_flight = None;
            self.answers += 1;
        }
        current
    }

    /// Whether `request` is the one in flight.
    pub fn is_in_flight(&self, request: u64) -> bool {
        self.in_flight
            .as_ref()
            .is_some_and(|(id, _, _)| *id == request)
    }

    /// Take the answer to `request`, landed at `now`; an answer to any other
    /// request is stale and dropped. Whether it was taken.
    pub fn receive(&mut self, request: u64, answer: Arc<A>, now: Instant) -> bool {
        match self.in_flight.take() {
            Some((id, what, _)) if id == request => {
                self.answers += 1;
                self.answer = Some((what, answer));
                self.at = Some(now);
                true
            }
            other => {
                self.in_flight = other;
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn due_on_a_change_an_interval_or_a_give_up_and_stale_answers_dropped() {
        let mut store: Requests<u8, &str> = Requests::default();
        let mut ids = RequestIds::default();
        let every = (5 * SECOND, 20 * SECOND);
        let t0 = Instant::now();
        let first = store.ask(&mut ids, &1, t0, every);
        assert_eq!(first, Some(1));
        assert_eq!(store.ask(&mut ids, &1, t0 + SECOND, every), None);
        let changed = store.ask(&mut ids, &2, t0 + SECOND, every);
        assert_eq!(changed, Some(2), "another thing on screen");
        assert!(!store.receive(1, Arc::new("late"), t0 + SECOND), "stale");
        assert!(store.receive(2, Arc::new("two"), t0 + 2 * SECOND));
        assert_eq!(store.held_for(&2), Some(&"two"));
        assert_eq!(store.held_for(&1), None);
        assert_eq!(store.ask(&mut ids, &2, t0 + 3 * SECOND, every), None);
        assert_eq!(
            store.ask(&mut ids, &2, t0 + 6 * SECOND, every),
            Some(3),
            "the interval passed"
        );
        assert_eq!(
            store.ask(&mut ids, &2, t0 + 27 * SECOND, every),
            Some(4),
            "given up on"
        );
        store.reset();
        assert!(store.answer.is_none());
        assert_eq!(store.ask(&mut ids, &2, t0, every), Some(5), "ids go on");
    }
}
