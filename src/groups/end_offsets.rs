//! End offsets (high watermarks) and log start offsets for many partitions:
//! one `ListOffsets` per leader broker and kind (`replica_id` -1,
//! read-uncommitted), all in flight at once.

use std::collections::{BTreeMap, BTreeSet};

use tokio::task::JoinSet;

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
        let policy = self.cluster().config().retry;
        let mut found = EndOffsets::default();
        let mut pending: Vec<TopicPartition> = partitions.to_vec();
        let mut attempt: u32 = 1;
        while !pending.is_empty() {
            let delay = policy.delay(attempt);
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let last = !policy.should_retry(attempt);
            let plan = offsets::plan(&self.cluster().snapshot(), &pending);
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
                for tp in retry {
                    found.failed.insert(tp, "no leader".to_owned());
                }
                break;
            }
            if !retry.is_empty() {
                let topics: BTreeSet<&str> = retry.iter().map(|tp| tp.topic.as_str()).collect();
                let topics: Vec<&str> = topics.into_iter().collect();
                if let Err(error) = self.cluster().refresh_topics(&topics).await {
                    tracing::debug!(%error, "refresh before re-planning end offsets failed");
                }
            }
            pending = retry;
            attempt = attempt.saturating_add(1);
        }
        Ok(found)
    }
}
