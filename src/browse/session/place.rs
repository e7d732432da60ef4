//! Where a [`Browser`] starts: a cursor per partition at the start asked
//! for (beginning, end, an offset, `-N`, a time, a group's offsets), read
//! from the partitions' watermarks; a start outside the log, an open
//! transaction holding the LSO back, or a time with no record after it is
//! said as a notice.

use std::collections::BTreeMap;

use super::{Browser, Queue};
use crate::browse::Isolation;
use crate::browse::cursor::{Cursor, State};
use crate::browse::error::{Error, Result};
use crate::browse::list_offsets::{self, EARLIEST, LATEST};
use crate::browse::notice::Notice;
use crate::browse::start::Start;

impl Browser {
    /// Put a cursor on every partition at `start`.
    pub(super) async fn place(&mut self, partitions: &[i32], start: &Start) -> Result<()> {
        let (cluster, topic, isolation) =
            (&self.cluster, self.topic.as_str(), self.options.isolation);
        let low = list_offsets::list(
            cluster,
            topic,
            partitions,
            EARLIEST,
            Isolation::ReadUncommitted,
        )
        .await?;
        let end = list_offsets::list(cluster, topic, partitions, LATEST, isolation).await?;
        let starts: BTreeMap<i32, i64> = match start {
            Start::Beginning => low.clone(),
            Start::End => end.clone(),
            Start::Offset(offset) => partitions.iter().map(|p| (*p, *offset)).collect(),
            Start::FromEnd(n) => partitions
                .iter()
                .map(|p| {
                    let (lo, hi) = (
                        low.get(p).copied().unwrap_or(0),
                        end.get(p).copied().unwrap_or(0),
                    );
                    (*p, hi.saturating_sub(*n).max(lo))
                })
                .collect(),
            Start::Timestamp(ms) => {
                let at = list_offsets::list(cluster, topic, partitions, *ms, isolation).await?;
                partitions
                    .iter()
                    .map(|p| match at.get(p) {
                        Some(offset) if *offset >= 0 => (*p, *offset),
                        _ => {
                            self.notices.push(Notice::NoRecordAtTime {
                                partition: *p,
                                timestamp: *ms,
                            });
                            (*p, end.get(p).copied().unwrap_or(0))
                        }
                    })
                    .collect()
            }
            Start::Offsets(map) => partitions
                .iter()
                .map(|p| {
                    let Some(offset) = map.get(p) else {
                        self.notices
                            .push(Notice::NoCommittedOffset { partition: *p });
                        return (*p, end.get(p).copied().unwrap_or(0));
                    };
                    (*p, *offset)
                })
                .collect(),
            Start::Group(group) => {
                return Err(Error::BadStart {
                    given: format!("group:{group}"),
                    why: "a group's offsets are read by the caller".to_owned(),
                });
            }
        };
        if isolation == Isolation::ReadCommitted {
            let high = list_offsets::list(
                cluster,
                topic,
                partitions,
                LATEST,
                Isolation::ReadUncommitted,
            )
            .await?;
            for (p, lso) in &end {
                if let Some(high) = high.get(p).filter(|h| *h > lso) {
                    self.notices.push(Notice::OpenTransaction {
                        partition: *p,
                        lso: *lso,
                        high: *high,
                    });
                }
            }
        }
        self.put_cursors(partitions, &starts, &low, &end);
        Ok(())
    }

    /// A cursor per partition at its start; one outside the log is stopped
    /// and said.
    fn put_cursors(
        &mut self,
        partitions: &[i32],
        starts: &BTreeMap<i32, i64>,
        low: &BTreeMap<i32, i64>,
        end: &BTreeMap<i32, i64>,
    ) {
        for p in partitions {
            let next = starts.get(p).copied().unwrap_or(0);
            let end_at = end.get(p).copied().unwrap_or(0);
            let stop = match self.options.until {
                Some(until) => Some(until.min(end_at)),
                None => (!self.options.follow).then_some(end_at),
            };
            let mut cursor = Cursor::new(*p, next, stop);
            cursor.keep_from = self.options.keep_before;
            let (lo, hi) = (low.get(p).copied(), end.get(p).copied());
            if lo.is_some_and(|lo| next < lo) || hi.is_some_and(|hi| next > hi) {
                cursor.state = State::Stopped;
                self.notices.push(Notice::OffsetOutOfRange {
                    partition: *p,
                    offset: next,
                    low: lo,
                    high: hi,
                });
            }
            if let Some(Notice::OpenTransaction { lso, high, .. }) = self
                .notices
                .iter()
                .find(|n| matches!(n, Notice::OpenTransaction { partition, .. } if partition == p))
            {
                cursor.lso_said = Some((*lso, *high));
            }
            self.cursors.insert(*p, cursor);
            self.queues.insert(*p, Queue::default());
        }
    }
}
