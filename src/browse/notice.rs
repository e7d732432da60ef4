//! What browsing says besides records: a partition that cannot go on, a
//! batch that could not be decoded, an open transaction holding the last
//! stable offset back. Each is said once.

use std::fmt;

use super::batch::BatchError;

/// Something worth telling the user about one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The offset asked for is not in the log; the partition stopped.
    OffsetOutOfRange {
        partition: i32,
        /// The offset asked for.
        offset: i64,
        /// Its low watermark (log start), if it could be read.
        low: Option<i64>,
        /// Its high watermark, if it could be read.
        high: Option<i64>,
    },
    /// No record at or after the timestamp asked for (`ListOffsets` said -1).
    NoRecordAtTime {
        partition: i32,
        /// The timestamp, ms since the epoch.
        timestamp: i64,
    },
    /// The group has no committed offset for the partition.
    NoCommittedOffset { partition: i32 },
    /// An open transaction holds the last stable offset below the high
    /// watermark: under `read_committed` nothing past the LSO is shown yet.
    OpenTransaction {
        partition: i32,
        /// Its last stable offset.
        lso: i64,
        /// Its high watermark.
        high: i64,
    },
    /// A batch could not be decoded; reading went on after it.
    BadBatch {
        partition: i32,
        /// The batch's first offset.
        offset: i64,
        /// What was wrong.
        error: BatchError,
    },
    /// The next batch is larger than kscope reads at once; the partition stopped.
    BatchTooLarge {
        partition: i32,
        /// The batch's offset.
        offset: i64,
        /// Its size in bytes (0 if unknown).
        size: usize,
        /// The largest batch kscope reads.
        limit: usize,
    },
    /// The partition failed and stopped.
    PartitionFailed {
        partition: i32,
        /// Why.
        error: String,
    },
}

impl Notice {
    /// The partition it is about.
    pub fn partition(&self) -> i32 {
        match self {
            Notice::OffsetOutOfRange { partition, .. }
            | Notice::NoRecordAtTime { partition, .. }
            | Notice::NoCommittedOffset { partition }
            | Notice::OpenTransaction { partition, .. }
            | Notice::BadBatch { partition, .. }
            | Notice::BatchTooLarge { partition, .. }
            | Notice::PartitionFailed { partition, .. } => *partition,
        }
    }
}

impl Notice {
    /// Whether records that are in the log are not shown because of it (a
    /// partition stopped by a failure, a batch skipped), as opposed to news
    /// about where reading starts (an offset out of range is the start asked
    /// for not being in the log) or what a transaction holds back.
    pub fn loses_records(&self) -> bool {
        matches!(
            self,
            Notice::BadBatch { .. } | Notice::BatchTooLarge { .. } | Notice::PartitionFailed { .. }
        )
    }
}

fn known(value: Option<i64>) -> String {
    value.map_or_else(|| "?".to_owned(), |v| v.to_string())
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::OffsetOutOfRange {
                partition,
                offset,
                low,
                high,
            } => write!(
                f,
                "partition {partition}: offset {offset} is out of range (low watermark {}, high watermark {}); start from beginning, end or an offset in between",
                known(*low),
                known(*high)
            ),
            Notice::NoRecordAtTime {
                partition,
                timestamp,
            } => write!(
                f,
                "partition {partition}: no record at or after {timestamp} ms; starting at the end"
            ),
            Notice::NoCommittedOffset { partition } => write!(
                f,
                "partition {partition}: the group has no committed offset; starting at the end"
            ),
            Notice::OpenTransaction {
                partition,
                lso,
                high,
            } => write!(
                f,
                "partition {partition}: an open transaction holds records back (LSO {lso} < HW {high}); read_uncommitted shows them"
            ),
            Notice::BadBatch {
                partition,
                offset,
                error,
            } => {
                write!(
                    f,
                    "partition {partition}: batch at offset {offset}: {error}"
                )
            }
            Notice::BatchTooLarge {
                partition,
                offset,
                size,
                limit,
            } => write!(
                f,
                "partition {partition}: the batch at offset {offset} ({size} bytes) is larger than the {limit}-byte limit; partition stopped"
            ),
            Notice::PartitionFailed { partition, error } => {
                write!(f, "partition {partition}: {error}")
            }
        }
    }
}
