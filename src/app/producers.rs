//! The partition detail's producers and transactions: the partition's
//! active producers and the open transactions writing to it, asked while
//! the screen shows, every [`INTERVAL`], kept with their age.

use std::sync::Arc;
use std::time::Duration;

use crate::inspect::Error;
use crate::inspect::transactions::{OpenTransaction, Producer};

use super::action::Effect;
use super::one_at_a_time::OneAtATime;
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

/// The producers screen's data: the partition asked for and its answer.
pub type ProducersStore = OneAtATime<(String, i32), Answer>;

impl ProducersStore {
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
    let Some(request) = state.producers.ask(&what, state.now, INTERVAL, GIVE_UP) else {
        return;
    };
    effects.push(Effect::FetchProducers {
        request,
        topic: what.0,
        partition: what.1,
    });
}

/// Take an answer; a stale one is dropped.
pub fn receive(state: &mut AppState, request: u64, answer: Arc<Answer>) {
    state.producers.receive(request, answer, state.now);
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
