//! The partition detail's producers and transactions: the partition's
//! active producers and the open transactions writing to it, asked while
//! the screen shows, every [`INTERVAL`], kept with their age.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::inspect::Error;
use crate::inspect::transactions::{OpenTransaction, Producer};

use super::action::Effect;
use super::screen::Screen;
use super::state::{AppState, Link};

/// How often the producers and transactions are re-read while shown.
pub const INTERVAL: Duration = Duration::from_secs(5);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// What the cluster answered for one partition.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Its active producers (asked of its leader).
    pub producers: Result<Vec<Producer>, Error>,
    /// The open transactions writing to it.
    pub transactions: Vec<OpenTransaction>,
    /// Brokers whose transactions could not be listed.
    pub failed: Vec<Error>,
}

/// The producers screen's data.
#[derive(Debug, Default)]
pub struct ProducersStore {
    /// The latest answer and the partition it is for.
    pub answer: Option<((String, i32), Arc<Answer>)>,
    /// When it landed.
    pub at: Option<Instant>,
    /// The request in flight: id, partition, when it left.
    pub in_flight: Option<(u64, (String, i32), Instant)>,
    /// The partition last asked for and when.
    pub last_request: Option<((String, i32), Instant)>,
    /// Answers received (rows depend on them).
    pub answers: u64,
    /// Request ids handed out.
    pub next_id: u64,
}

impl ProducersStore {
    /// Forget the cluster (another context), keeping the ids.
    pub fn reset(&mut self) {
        *self = ProducersStore {
            next_id: self.next_id,
            ..ProducersStore::default()
        };
    }

    /// Ask again at the next chance (the `r` key).
    pub fn expire(&mut self) {
        self.in_flight = None;
        self.last_request = None;
    }

    /// The answer for `topic`-`partition`, if the one held is for it.
    pub fn answer_for(&self, topic: &str, partition: i32) -> Option<&Answer> {
        self.answer
            .as_ref()
            .filter(|((t, p), _)| t == topic && *p == partition)
            .map(|(_, answer)| answer.as_ref())
    }

    /// The producers held for the partition, if any.
    pub fn producers(&self, topic: &str, partition: i32) -> &[Producer] {
        self.answer_for(topic, partition)
            .and_then(|a| a.producers.as_ref().ok())
            .map_or(&[], Vec::as_slice)
    }
}

/// Ask for the partition on screen if it is due.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    let Screen::Producers { topic, partition } = &state.view().screen else {
        return;
    };
    let what = (topic.clone(), *partition);
    let now = state.now;
    let store = &mut state.producers;
    let since = |at: Instant| now.saturating_duration_since(at);
    let due = match &store.in_flight {
        Some((_, asked, sent)) => *asked != what || since(*sent) >= GIVE_UP,
        None => match &store.last_request {
            Some((asked, at)) => *asked != what || since(*at) >= INTERVAL,
            None => true,
        },
    };
    if !due {
        return;
    }
    store.next_id += 1;
    store.in_flight = Some((store.next_id, what.clone(), now));
    store.last_request = Some((what.clone(), now));
    effects.push(Effect::FetchProducers {
        request: store.next_id,
        topic: what.0,
        partition: what.1,
    });
}

/// Take an answer; a stale one is dropped.
pub fn receive(state: &mut AppState, request: u64, answer: Arc<Answer>) {
    let store = &mut state.producers;
    match store.in_flight.take() {
        Some((id, what, _)) if id == request => {
            store.answers += 1;
            store.answer = Some((what, answer));
            store.at = Some(state.now);
        }
        other => store.in_flight = other,
    }
}

/// The rows of the producers screen, filtered by `keep` on the producer id.
pub fn build(
    store: &ProducersStore,
    (topic, partition): (&str, i32),
    keep: &mut impl FnMut(&str) -> bool,
) -> Vec<usize> {
    store
        .producers(topic, partition)
        .iter()
        .enumerate()
        .filter(|(_, p)| keep(&p.producer_id.to_string()))
        .map(|(i, _)| i)
        .collect()
}
