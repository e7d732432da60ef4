//! What the Producers screen holds: each partition's answer (its active
//! producers and the open transactions writing to it) under the shared
//! request bookkeeping.

use crate::app::screens::requests::Requests;
use crate::inspect::Error;
use crate::inspect::transactions::{OpenTransaction, Producer};

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

/// The screen's data: the partition asked for and its answer.
pub type Store = Requests<(String, i32), Answer>;

impl Store {
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
