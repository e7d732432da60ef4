//! What the Partitions screen shows beyond the metadata, asked for the
//! topic on screen every [`INTERVAL`]: the eligible leader replicas
//! (KIP-966, `DescribeTopicPartitions`, paged) and, for a topic with tiered
//! storage (KIP-405, `remote.storage.enable=true`), each partition's local
//! log start offset. A broker without an API, or a topic without the
//! feature, answers nothing, and the column is then not drawn at all; a
//! broker too old for what the topic uses is said once in the status line.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::inspect::Error;
use crate::inspect::elr::Elr;
use crate::meta::Cluster;

use super::super::requests::Requests;

/// How often the extras are re-read while shown. The ELR changes only
/// when the ISR falls below `min.insync.replicas`, which the metadata
/// refresh already shows, and the local log start moves a segment at a
/// time.
pub const INTERVAL: Duration = Duration::from_secs(10);
/// A request older than this is forgotten (its answer will be dropped).
pub const GIVE_UP: Duration = Duration::from_secs(20);

/// What is asked: the topic, and whether it has tiered storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    /// The topic on screen.
    pub topic: String,
    /// Whether its configs say `remote.storage.enable=true`.
    pub tiered: bool,
}

/// The cluster's answer for one topic.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Partitions with an ELR or a last known ELR, or why not.
    pub elr: Result<BTreeMap<i32, Elr>, Error>,
    /// Each partition's local log start; `None` when the topic is not
    /// tiered (not asked).
    pub local_starts: Option<Result<BTreeMap<i32, i64>, Error>>,
}

/// The topic asked for and its answer.
pub type ExtrasStore = Requests<Asked, Answer>;

impl ExtrasStore {
    fn held(&self, topic: &str) -> Option<&Answer> {
        self.answer
            .as_ref()
            .filter(|(asked, _)| asked.topic == topic)
            .map(|(_, answer)| answer.as_ref())
    }

    /// Partition `partition` of `topic`'s ELR, if the answer held is for
    /// that topic and the broker reported one.
    pub fn elr(&self, topic: &str, partition: i32) -> Option<&Elr> {
        self.held(topic)?.elr.as_ref().ok()?.get(&partition)
    }

    /// Partition `partition` of `topic`'s local log start, if the topic is
    /// tiered and its leader answered.
    pub fn local_start(&self, topic: &str, partition: i32) -> Option<i64> {
        let starts = self.held(topic)?.local_starts.as_ref()?.as_ref().ok()?;
        starts.get(&partition).copied()
    }

    /// Take the answer to `request` landed at `now` (a stale one is
    /// dropped): a failure to say in the status line when it is new (not
    /// every interval); the columns keep what was last known of the part
    /// that failed.
    pub fn take(&mut self, request: u64, answer: Answer, now: Instant) -> Option<String> {
        let said = |answer: Option<&Answer>| -> Vec<String> {
            answer.map_or_else(Vec::new, |a| {
                let local = a.local_starts.as_ref().and_then(|r| r.as_ref().err());
                a.elr
                    .as_ref()
                    .err()
                    .into_iter()
                    .chain(local)
                    .map(ToString::to_string)
                    .collect()
            })
        };
        let before = said(self.answer.as_ref().map(|(_, a)| a.as_ref()));
        let mut answer = answer;
        if answer.elr.is_err()
            && let Some((_, held)) = &self.answer
            && let Ok(elr) = &held.elr
        {
            answer.elr = Ok(elr.clone());
        }
        let said_now = said(Some(&answer));
        if self.receive(request, Arc::new(answer), now) {
            said_now.into_iter().find(|e| !before.contains(e))
        } else {
            None
        }
    }
}

/// Read the topic's eligible leader replicas and, where it is tiered, the
/// local log starts of its partitions with a leader, at once.
pub async fn fetch(cluster: &Cluster, asked: &Asked) -> Answer {
    use crate::inspect::{elr, tiered};
    let topic = asked.topic.as_str();
    let partitions: Vec<i32> = cluster.snapshot().topic(topic).map_or_else(Vec::new, |t| {
        t.partitions
            .iter()
            .filter(|p| p.leader.is_some())
            .map(|p| p.partition)
            .collect()
    });
    let local = async {
        if asked.tiered {
            Some(tiered::local_log_starts(cluster, topic, &partitions).await)
        } else {
            None
        }
    };
    let (elr, local_starts) = tokio::join!(elr::describe(cluster, topic), local);
    Answer { elr, local_starts }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(topic: &str) -> Asked {
        Asked {
            topic: topic.to_owned(),
            tiered: true,
        }
    }

    #[test]
    fn the_answer_is_read_only_for_its_topic() {
        let mut store = ExtrasStore::default();
        let now = std::time::Instant::now();
        let mut ids = crate::app::screens::requests::RequestIds::default();
        let id = store
            .ask(&mut ids, &asked("orders"), now, (INTERVAL, GIVE_UP))
            .expect("first ask");
        let elr = Elr {
            eligible: vec![2],
            last_known: vec![],
        };
        let answer = Answer {
            elr: Ok(BTreeMap::from([(3, elr.clone())])),
            local_starts: Some(Ok(BTreeMap::from([(3, 120)]))),
        };
        assert!(store.receive(id, Arc::new(answer), now));
        assert_eq!(store.elr("orders", 3), Some(&elr));
        assert_eq!(store.elr("orders", 4), None);
        assert_eq!(store.elr("payments", 3), None);
        assert_eq!(store.local_start("orders", 3), Some(120));
        assert_eq!(store.local_start("payments", 3), None);
    }
}
