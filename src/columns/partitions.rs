//! The Partitions screen's table (one topic's partitions).

use crate::meta::{PartitionInfo, Watermarks};

use super::Column;
use super::format::{ids, sparkline};

/// What one partition row shows.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    /// The partition as the snapshot has it.
    pub partition: &'a PartitionInfo,
    /// Its watermarks, once read.
    pub marks: Option<Watermarks>,
    /// The topic's `min.insync.replicas`, once its configs are in.
    pub min_isr: Option<usize>,
    /// Messages per second (high-watermark deltas), once measured.
    pub rate: Option<u64>,
    /// Messages per second over the session.
    pub rates: Option<&'a std::collections::VecDeque<u64>>,
}

impl Row<'_> {
    /// Whether its ISR is smaller than `min.insync.replicas` (acks=all
    /// producers fail); `None` until the topic's configs are in.
    pub fn under_min_isr(&self) -> Option<bool> {
        self.min_isr.map(|min| self.partition.isr.len() < min)
    }
}

fn len(ids: &[i32]) -> usize {
    ids.len()
}

/// The columns: index, leader, epoch, replicas, ISR, offline replicas,
/// whether the leader is preferred, low and high watermark.
pub fn table<'a>() -> [Column<Row<'a>>; 12] {
    [
        Column::number(
            "PARTITION",
            |r| r.partition.partition.to_string(),
            |a, b| a.partition.partition.cmp(&b.partition.partition),
        ),
        Column::number(
            "LEADER",
            |r| {
                r.partition
                    .leader
                    .map_or_else(|| "none".to_owned(), |l| l.to_string())
            },
            |a, b| a.partition.leader.cmp(&b.partition.leader),
        ),
        Column::number(
            "EPOCH",
            |r| r.partition.leader_epoch.to_string(),
            |a, b| a.partition.leader_epoch.cmp(&b.partition.leader_epoch),
        ),
        Column::text(
            "REPLICAS",
            (8, 40),
            |r| ids(&r.partition.replicas),
            Some(|a, b| len(&a.partition.replicas).cmp(&len(&b.partition.replicas))),
        ),
        Column::text(
            "ISR",
            (8, 40),
            |r| ids(&r.partition.isr),
            Some(|a, b| len(&a.partition.isr).cmp(&len(&b.partition.isr))),
        ),
        Column::text(
            "OFFLINE",
            (7, 40),
            |r| {
                if r.partition.offline_replicas.is_empty() {
                    "-".to_owned()
                } else {
                    ids(&r.partition.offline_replicas)
                }
            },
            Some(|a, b| {
                len(&a.partition.offline_replicas).cmp(&len(&b.partition.offline_replicas))
            }),
        ),
        Column::text(
            "PREFERRED",
            (9, 9),
            |r| {
                if r.partition.is_preferred_leader() {
                    "yes".to_owned()
                } else {
                    "no".to_owned()
                }
            },
            Some(|a, b| {
                a.partition
                    .is_preferred_leader()
                    .cmp(&b.partition.is_preferred_leader())
            }),
        ),
        Column::number(
            "LOW",
            |r| {
                r.marks
                    .map_or_else(|| "-".to_owned(), |m| m.low.to_string())
            },
            |a, b| a.marks.map(|m| m.low).cmp(&b.marks.map(|m| m.low)),
        ),
        Column::number(
            "HIGH",
            |r| {
                r.marks
                    .map_or_else(|| "-".to_owned(), |m| m.high.to_string())
            },
            |a, b| a.marks.map(|m| m.high).cmp(&b.marks.map(|m| m.high)),
        ),
        Column::text(
            "UNDER-MIN",
            (9, 9),
            |r| match r.under_min_isr() {
                Some(true) => "yes".to_owned(),
                Some(false) => "no".to_owned(),
                None => "-".to_owned(),
            },
            Some(|a, b| a.under_min_isr().cmp(&b.under_min_isr())),
        ),
        Column::number("MSGS/S", rate, |a, b| a.rate.cmp(&b.rate)),
        Column::fill("MSGS/S OVER TIME", (1, 0), rates, None),
    ]
}

fn rate(row: &Row) -> String {
    row.rate.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

fn rates(row: &Row) -> String {
    row.rates.map_or_else(String::new, |h| {
        sparkline(&h.iter().copied().collect::<Vec<_>>(), 20)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;

    #[test]
    fn partition_row() {
        let p = PartitionInfo {
            partition: 4,
            leader: Some(2),
            leader_epoch: 9,
            replicas: vec![1, 2, 3].into(),
            isr: vec![2, 3].into(),
            offline_replicas: Vec::new().into(),
            error: None,
        };
        let row = Row {
            partition: &p,
            marks: Some(Watermarks { low: 10, high: 25 }),
            min_isr: Some(3),
            rate: Some(0),
            rates: None,
        };
        assert_eq!(
            cells(&table(), &row),
            [
                "4", "2", "9", "1,2,3", "2,3", "-", "no", "10", "25", "yes", "0", ""
            ]
        );
    }
}
