//! Low and high watermarks for many partitions at once.

use std::collections::{BTreeMap, BTreeSet};

use tokio::task::JoinSet;

use super::error::{Error, Result};
use crate::conn::ErrorCode;

use super::cluster::Cluster;
use super::offsets::{self, OffsetSpec, TopicPartition, Watermarks};
use super::retry::{Disposition, drive_pending};

/// Offsets collected so far, per bound.
#[derive(Default)]
struct Collected {
    low: BTreeMap<TopicPartition, i64>,
    high: BTreeMap<TopicPartition, i64>,
}

impl Cluster {
    /// Low and high watermarks of `partitions`.
    ///
    /// Partitions are grouped by leader: one `ListOffsets` request per leader
    /// broker and bound (earliest and latest cannot share a request: Kafka
    /// refuses a partition named twice), all in flight at once. A partition
    /// whose leader moved (`NOT_LEADER_OR_FOLLOWER`, …) is re-planned after a
    /// topic-scoped refresh, within the retry policy ([`drive_pending`]); a
    /// partition that still fails fails the call, naming it.
    pub async fn watermarks(
        &self,
        partitions: &[TopicPartition],
    ) -> Result<BTreeMap<TopicPartition, Watermarks>> {
        let (collected, outcome) = drive_pending(
            &self.config().retry,
            Disposition::RefreshMetadata,
            Collected::default(),
            partitions.to_vec(),
            |mut collected, pending, last| async move {
                let again = self.round(&mut collected, &pending, last).await;
                (collected, again)
            },
            |collected, again| async move {
                self.refresh_for(&again).await;
                (collected, again)
            },
        )
        .await;
        outcome?;
        Ok(partitions
            .iter()
            .filter_map(|tp| {
                let low = *collected.low.get(tp)?;
                let high = *collected.high.get(tp)?;
                Some((tp.clone(), Watermarks { low, high }))
            })
            .collect())
    }

    /// One request per leader and bound, concurrently; answers into
    /// `collected`. Returns the partitions to ask again (leaderless, or a
    /// retriable error for either bound); on the last round those fail.
    async fn round(
        &self,
        collected: &mut Collected,
        pending: &[TopicPartition],
        last: bool,
    ) -> Result<Vec<TopicPartition>> {
        let plan = offsets::plan(&self.snapshot(), pending);
        if last && let Some(tp) = plan.leaderless.first() {
            return Err(Self::partition_error(ErrorCode::LeaderNotAvailable, tp));
        }
        let mut requests = JoinSet::new();
        for (leader, partitions) in plan.by_leader {
            for spec in [OffsetSpec::Earliest, OffsetSpec::Latest] {
                let cluster = self.clone();
                let request = offsets::request(&partitions, spec);
                requests.spawn(async move { (spec, cluster.send_to_node(leader, request).await) });
            }
        }
        while let Some(joined) = requests.join_next().await {
            let (spec, response) = joined.map_err(|e| Error::Task {
                what: "list offsets",
                message: e.to_string(),
            })?;
            let response = match response {
                Ok(response) => response,
                // Its partitions lack this bound: asked again below.
                Err(error) if error.retriable() && !last => continue,
                Err(error) => return Err(error),
            };
            for (tp, answer) in offsets::read(&response) {
                match answer {
                    Ok(offset) => {
                        let bound = match spec {
                            OffsetSpec::Earliest => &mut collected.low,
                            OffsetSpec::Latest => &mut collected.high,
                        };
                        bound.insert(tp, offset);
                    }
                    Err(code) if code.retriable() && !last => {}
                    Err(code) => return Err(Self::partition_error(code, &tp)),
                }
            }
        }
        Ok(pending
            .iter()
            .filter(|tp| !(collected.low.contains_key(tp) && collected.high.contains_key(tp)))
            .cloned()
            .collect())
    }

    async fn refresh_for(&self, partitions: &[TopicPartition]) {
        let topics: BTreeSet<&str> = partitions.iter().map(|tp| tp.topic.as_str()).collect();
        let topics: Vec<&str> = topics.into_iter().collect();
        if let Err(error) = self.refresh_topics(&topics).await {
            tracing::debug!(%error, "refresh before re-planning list offsets failed");
        }
    }

    fn partition_error(code: ErrorCode, tp: &TopicPartition) -> Error {
        Error::from_code(
            code,
            Some(format!("topic '{}' partition {}", tp.topic, tp.partition)),
        )
    }
}
