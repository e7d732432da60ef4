//! Low and high watermarks for many partitions at once.

use std::collections::{BTreeMap, BTreeSet};

use tokio::task::JoinSet;

use super::error::{Disposition, Error, Result};
use crate::conn::ErrorCode;

use super::cluster::Cluster;
use super::offsets::{self, OffsetSpec, TopicPartition, Watermarks};
use super::retry::drive_pending;

/// Offsets collected so far, per kind asked.
type Collected = BTreeMap<OffsetSpec, BTreeMap<TopicPartition, i64>>;

/// The two bounds of [`Cluster::watermarks`].
const BOUNDS: [OffsetSpec; 2] = [OffsetSpec::Earliest, OffsetSpec::Latest];

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
        let collected = self.offsets(partitions, &BOUNDS).await?;
        let (low, high) = (&collected[&BOUNDS[0]], &collected[&BOUNDS[1]]);
        Ok(partitions
            .iter()
            .filter_map(|tp| {
                let low = *low.get(tp)?;
                let high = *high.get(tp)?;
                Some((tp.clone(), Watermarks { low, high }))
            })
            .collect())
    }

    /// The local log start offsets of `partitions` (see
    /// [`OffsetSpec::EarliestLocal`]; the caller checks the broker has
    /// `ListOffsets` v8), read and retried as [`Cluster::watermarks`] are.
    pub async fn local_log_starts(
        &self,
        partitions: &[TopicPartition],
    ) -> Result<BTreeMap<TopicPartition, i64>> {
        let mut collected = self
            .offsets(partitions, &[OffsetSpec::EarliestLocal])
            .await?;
        Ok(collected
            .remove(&OffsetSpec::EarliestLocal)
            .unwrap_or_default())
    }

    /// Every kind in `specs` for every partition, within the retry policy.
    async fn offsets(
        &self,
        partitions: &[TopicPartition],
        specs: &[OffsetSpec],
    ) -> Result<Collected> {
        let start: Collected = specs.iter().map(|&s| (s, BTreeMap::new())).collect();
        let (collected, outcome) = drive_pending(
            &self.config().retry,
            Disposition::RefreshMetadata,
            start,
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
        Ok(collected)
    }

    /// One request per leader and kind (the kinds are `collected`'s keys),
    /// concurrently; answers into `collected`. Returns the partitions to ask
    /// again (leaderless, or a retriable error for any kind); on the last
    /// round those fail.
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
        let specs: Vec<OffsetSpec> = collected.keys().copied().collect();
        for (leader, partitions) in plan.by_leader {
            for &spec in &specs {
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
                        collected.entry(spec).or_default().insert(tp, offset);
                    }
                    Err(code) if code.retriable() && !last => {}
                    Err(code) => return Err(Self::partition_error(code, &tp)),
                }
            }
        }
        Ok(pending
            .iter()
            .filter(|tp| !collected.values().all(|kind| kind.contains_key(tp)))
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
