//! End offsets (high watermarks) and log start offsets for many partitions:
//! one `ListOffsets` per leader broker and kind (`replica_id` -1,
//! read-uncommitted), all in flight at once.

use std::collections::{BTreeMap, BTreeSet};

use tokio::task::JoinSet;

use crate::meta;
use crate::meta::offsets::{self, OffsetSpec, TopicPartition};

use super::client::GroupsClient;
use super::error::{Error, Result};

/// Offsets found (end offsets or log start offsets), and partitions that had
/// none (with why).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EndOffsets {
    /// Partition → offset (high watermark, or log start offset).
    pub offsets: BTreeMap<TopicPartition, i64>,
    /// Partitions whose end offset could not be read.
    pub failed: BTreeMap<TopicPartition, String>,
}

impl GroupsClient {
    /// End offsets (high watermarks) of `partitions`.
    pub async fn end_offsets(&self, partitions: &[TopicPartition]) -> Result<EndOffsets> {
        self.offsets_at(partitions, OffsetSpec::Latest).await
    }

    /// Log start offsets of `partitions`: below them, records were deleted
    /// by retention.
    pub async fn start_offsets(&self, partitions: &[TopicPartition]) -> Result<EndOffsets> {
        self.offsets_at(partitions, OffsetSpec::Earliest).await
    }

    /// `spec` offsets of `partitions`. Leaderless partitions and retriable
    /// per-partition errors (a leader that moved) are re-planned after a
    /// topic-scoped metadata refresh, within the retry policy's attempts.
    async fn offsets_at(
        &self,
        partitions: &[TopicPartition],
        spec: OffsetSpec,
    ) -> Result<EndOffsets> {
        let (found, outcome) = meta::drive_pending(
            &self.cluster().config().retry,
            meta::Disposition::RefreshMetadata,
            EndOffsets::default(),
            partitions.to_vec(),
            |mut found, pending, last| async move {
                let again = self.offsets_round(&mut found, &pending, spec, last).await;
                (found, again)
            },
            |found, again| async move {
                let topics: BTreeSet<&str> = again.iter().map(|tp| tp.topic.as_str()).collect();
                let topics: Vec<&str> = topics.into_iter().collect();
                if let Err(error) = self.cluster().refresh_topics(&topics).await {
                    tracing::debug!(%error, "refresh before re-planning end offsets failed");
                }
                (found, again)
            },
        )
        .await;
        outcome.map(|()| found)
    }

    /// One request per leader, concurrently; answers and failures into
    /// `found`. Returns the partitions to ask again (leaderless, or a
    /// retriable error); on the last round those are failed instead.
    async fn offsets_round(
        &self,
        found: &mut EndOffsets,
        pending: &[TopicPartition],
        spec: OffsetSpec,
        last: bool,
    ) -> Result<Vec<TopicPartition>> {
        let plan = offsets::plan(&self.cluster().snapshot(), pending);
        let mut retry: Vec<TopicPartition> = plan.leaderless;
        let mut requests = JoinSet::new();
        for (leader, tps) in plan.by_leader {
            let client = self.clone();
            requests.spawn(async move {
                let request = offsets::request(&tps, spec);
                (tps, client.send_to_node(leader, request).await)
            });
        }
        while let Some(joined) = requests.join_next().await {
            let (tps, answer) = joined.map_err(|e| Error::Task(e.to_string()))?;
            match answer {
                Ok(response) => {
                    for (tp, offset) in offsets::read(&response) {
                        match offset {
                            Ok(offset) => {
                                found.offsets.insert(tp, offset);
                            }
                            Err(code) if code.retriable() && !last => retry.push(tp),
                            Err(code) => {
                                found.failed.insert(tp, code.to_string());
                            }
                        }
                    }
                }
                Err(error) if error.retriable() && !last => retry.extend(tps),
                Err(error) => found
                    .failed
                    .extend(tps.into_iter().map(|tp| (tp, error.to_string()))),
            }
        }
        if last {
            for tp in retry.drain(..) {
                found.failed.insert(tp, "no leader".to_owned());
            }
        }
        Ok(retry)
    }
}
