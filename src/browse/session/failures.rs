//! What a [`Browser`] does when reading fails: a request over the frame
//! cap is split or its partition stopped with a notice, a retriable or
//! stale-leader failure counts against the partitions (stopping one after
//! too many) and refreshes the topic with backoff, a position outside the
//! log stops the partition naming its watermarks.

use crate::conn;
use crate::meta::{self, Disposition, TopicPartition};

use super::{Browser, MAX_FAILURES};
use crate::browse::cursor::State;
use crate::browse::error::{Error, Result, fetch_disposition};
use crate::browse::fetch::Ask;
use crate::browse::notice::Notice;

impl Browser {
    /// A whole request failed: what asking again calls for (`None`: nothing
    /// to wait for; a final failure is the error).
    pub(super) fn request_failed(
        &mut self,
        asks: &[Ask],
        error: meta::Error,
    ) -> Result<Option<Disposition>> {
        if let Some(conn::Error::FrameTooLarge { size, .. }) = error.conn() {
            if asks.len() > 1 {
                self.single.extend(asks.iter().map(|a| a.partition));
                return Ok(None);
            }
            for ask in asks {
                if let Some(cursor) = self.cursors.get_mut(&ask.partition) {
                    cursor.state = State::Stopped;
                }
                self.notices.push(Notice::BatchTooLarge {
                    partition: ask.partition,
                    offset: ask.offset,
                    size: usize::try_from(*size).unwrap_or(usize::MAX),
                    limit: self.options.max_batch,
                });
            }
            return Ok(None);
        }
        let disposition = fetch_disposition(&error);
        if disposition == Disposition::Fatal {
            return Err(Error::Fetch {
                topic: self.topic.clone(),
                source: error,
            });
        }
        for ask in asks {
            if let Some(cursor) = self.cursors.get_mut(&ask.partition) {
                cursor.failures += 1;
                if cursor.failures > MAX_FAILURES {
                    cursor.state = State::Stopped;
                    self.notices.push(Notice::PartitionFailed {
                        partition: ask.partition,
                        error: error.to_string(),
                    });
                }
            }
        }
        Ok(Some(disposition))
    }

    /// Say where the log is for partitions whose position fell outside it.
    pub(super) async fn out_of_range(&mut self, partitions: &[i32]) {
        let tps: Vec<TopicPartition> = partitions
            .iter()
            .map(|p| TopicPartition::new(self.topic.clone(), *p))
            .collect();
        let marks = self.cluster.watermarks(&tps).await.unwrap_or_default();
        for tp in tps {
            let Some(cursor) = self.cursors.get_mut(&tp.partition) else {
                continue;
            };
            cursor.state = State::Stopped;
            let mark = marks.get(&tp);
            self.notices.push(Notice::OffsetOutOfRange {
                partition: tp.partition,
                offset: cursor.next,
                low: mark.map(|m| m.low),
                high: mark.map(|m| m.high),
            });
        }
    }

    /// Wait before the next round after failures that called for
    /// `disposition` (never `Fatal`: that ended the read). The topic's
    /// leaders are re-read first for a plain `Retry` as well as for
    /// `RefreshMetadata`: a fetch that timed out may be a leader gone
    /// without a word. The wait follows the retry policy's curve by the
    /// partitions' failures in a row, capped at its eighth step.
    pub(super) async fn backoff(&self, disposition: Disposition) {
        if let Err(error) = self.cluster.refresh_topics(&[self.topic.as_str()]).await {
            tracing::debug!(%error, ?disposition, topic = %self.topic, "refresh after a stale leader failed");
        }
        let failures = self.cursors.values().map(|c| c.failures).max().unwrap_or(0);
        let delay = self
            .cluster
            .config()
            .retry
            .delay(failures.saturating_add(1).min(8));
        tokio::time::sleep(delay).await;
    }
}
