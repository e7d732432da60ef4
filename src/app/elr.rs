//! The Partitions screen's eligible leader replicas (KIP-966): asked of the
//! cluster (`DescribeTopicPartitions`, paged) for the topic on screen every
//! [`INTERVAL`]. A broker without the API or with the feature off answers
//! nothing, and the ELR column is then not drawn at all.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use crate::inspect::Error;
use crate::inspect::elr::Elr;

use super::action::Effect;
use super::one_at_a_time::OneAtATime;
use super::screen::Screen;
use super::state::{AppState, Link};

/// How often the topic's ELR is re-read while shown. The ELR changes only
/// when the ISR falls below `min.insync.replicas`, which the metadata
/// refresh already shows; this catches what it does not carry.
pub const INTERVAL: Duration = Duration::from_secs(10);
/// A request older than this is forgotten (its answer will be dropped).
const GIVE_UP: Duration = Duration::from_secs(20);

/// The topic's partitions with an ELR or a last known ELR, or why not.
pub type Answer = Result<BTreeMap<i32, Elr>, Error>;

/// The topic asked for and its answer.
pub type ElrStore = OneAtATime<String, Answer>;

impl ElrStore {
    /// Partition `partition` of `topic`'s ELR, if the answer held is for
    /// that topic and the broker reported one.
    pub fn of(&self, topic: &str, partition: i32) -> Option<&Elr> {
        self.answer
            .as_ref()
            .filter(|(t, _)| t == topic)
            .and_then(|(_, answer)| answer.as_ref().as_ref().ok())
            .and_then(|partitions| partitions.get(&partition))
    }
}

/// Ask for the topic on the Partitions screen if it is due.
pub fn plan(state: &mut AppState, effects: &mut Vec<Effect>) {
    if state.link != Link::Connected {
        return;
    }
    let Screen::Partitions { topic } = &state.view().screen else {
        return;
    };
    let topic = topic.clone();
    if let Some(request) = state.elr.ask(&topic, state.now, INTERVAL, GIVE_UP) {
        effects.push(Effect::FetchElr { request, topic });
    }
}

/// Take an answer (a stale one is dropped); a failure is said once in the
/// status line and the column shows what was last known.
pub fn receive(state: &mut AppState, request: u64, answer: Arc<Answer>) {
    if let Err(e) = answer.as_ref() {
        if state
            .elr
            .in_flight
            .as_ref()
            .is_some_and(|(id, ..)| *id == request)
        {
            state.notice = Some(format!("eligible leader replicas: {e}"));
            state.elr.in_flight = None;
        }
        return;
    }
    state.elr.receive(request, answer, state.now);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_read_only_for_its_topic() {
        let mut store = ElrStore::default();
        let now = std::time::Instant::now();
        let id = store
            .ask(&"orders".to_owned(), now, INTERVAL, GIVE_UP)
            .expect("first ask");
        let elr = Elr {
            eligible: vec![2],
            last_known: vec![],
        };
        let answer: Answer = Ok(BTreeMap::from([(3, elr.clone())]));
        assert!(store.receive(id, Arc::new(answer), now));
        assert_eq!(store.of("orders", 3), Some(&elr));
        assert_eq!(store.of("orders", 4), None);
        assert_eq!(store.of("payments", 3), None);
    }
}
