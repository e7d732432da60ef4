//! The Partitions screen's table (one topic's partitions).

use crate::inspect::elr::Elr;
use crate::inspect::{BrokerReplica, ClusterSizes};
use crate::meta::{PartitionInfo, Watermarks};

use crate::columns::Column;
use crate::columns::format::{bytes, ids, over_time};

/// What one partition row shows.
#[derive(Debug, Clone, Copy)]
pub struct Row<'a> {
    pub topic: &'a str,
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
    /// Bytes per second on disk (its largest replica) between the last two
    /// size answers; `None` until measured or when the size shrank.
    pub bytes_rate: Option<u64>,
    /// Bytes per second over the session.
    pub bytes_rates: Option<&'a std::collections::VecDeque<u64>>,
    /// The brokers' log dirs, once read.
    pub sizes: Option<&'a ClusterSizes>,
    /// Its eligible leader replicas (KIP-966), where the broker reports
    /// them.
    pub elr: Option<&'a Elr>,
    /// Its local log start offset, where the topic has tiered storage.
    pub local_start: Option<i64>,
}

impl Row<'_> {
    /// Whether its ISR is smaller than `min.insync.replicas` (acks=all
    /// producers fail); `None` until the topic's configs are in.
    pub fn under_min_isr(&self) -> Option<bool> {
        self.min_isr.map(|min| self.partition.isr.len() < min)
    }

    /// Its replicas as the brokers reported them (none before sizes are in).
    pub fn replicas(&self) -> Vec<BrokerReplica> {
        self.sizes.map_or_else(Vec::new, |s| {
            s.replicas(self.topic, self.partition.partition)
        })
    }

    /// The leader's replica size; `None` until its broker answered.
    pub fn leader_size(&self) -> Option<i64> {
        let leader = self.partition.leader?;
        self.replicas()
            .iter()
            .find(|r| r.broker == leader && !r.future)
            .map(|r| r.size)
    }

    /// The largest offset lag of a future replica (a move between log
    /// dirs in progress); `None` when there is none.
    pub fn future_lag(&self) -> Option<i64> {
        self.replicas()
            .iter()
            .filter(|r| r.future)
            .map(|r| r.offset_lag)
            .max()
    }
}

fn len(ids: &[i32]) -> usize {
    ids.len()
}

/// The columns: index, leader, epoch, replicas, ISR, offline replicas,
/// eligible leader replicas (drawn only where a partition has some),
/// whether the leader is preferred, low watermark, the local log start
/// (tiered topics only), high watermark, under min ISR,
/// the leader's size, each replica's size, a future replica's lag, and
/// messages/s with its sparkline.
pub fn table<'a>() -> [Column<Row<'a>>; 19] {
    [
        Column::number(
            "PARTITION",
            |r| r.partition.partition.to_string(),
            |a, b| a.partition.partition.cmp(&b.partition.partition),
        ),
        Column::number("LEADER", leader, |a, b| {
            a.partition.leader.cmp(&b.partition.leader)
        }),
        Column::number(
            "EPOCH",
            |r| r.partition.leader_epoch.to_string(),
            |a, b| a.partition.leader_epoch.cmp(&b.partition.leader_epoch),
        ),
        Column::text(
            "REPLICAS",
            (5, 40),
            |r| ids(&r.partition.replicas),
            Some(|a, b| len(&a.partition.replicas).cmp(&len(&b.partition.replicas))),
        ),
        Column::text(
            "ISR",
            (5, 40),
            |r| ids(&r.partition.isr),
            Some(|a, b| len(&a.partition.isr).cmp(&len(&b.partition.isr))),
        ),
        Column::text(
            "OFFLINE",
            (3, 40),
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
        Column::present("ELR", 40, elr),
        Column::text(
            "PREFERRED",
            (3, 9),
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
        Column::number("LOW", low, |a, b| {
            a.marks.map(|m| m.low).cmp(&b.marks.map(|m| m.low))
        }),
        Column::present("LOCAL LOW", 24, |r| {
            r.local_start.map_or_else(String::new, |o| o.to_string())
        }),
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
            (3, 9),
            |r| match r.under_min_isr() {
                Some(true) => "yes".to_owned(),
                Some(false) => "no".to_owned(),
                None => "-".to_owned(),
            },
            Some(|a, b| a.under_min_isr().cmp(&b.under_min_isr())),
        ),
        Column::number("SIZE", size, |a, b| a.leader_size().cmp(&b.leader_size())),
        Column::text("REPLICA SIZES", (5, 40), replica_sizes, None),
        Column::number("FUTURE LAG", future, |a, b| {
            a.future_lag().cmp(&b.future_lag())
        }),
        Column::number("MSGS/S", rate, |a, b| a.rate.cmp(&b.rate)),
        Column::number("BYTES/S", bytes_rate, |a, b| {
            a.bytes_rate.cmp(&b.bytes_rate)
        }),
        Column::fill("MSGS/S OVER TIME", (1, 0), |r| over_time(r.rates), None),
        Column::fill(
            "BYTES/S OVER TIME",
            (1, 0),
            |r| over_time(r.bytes_rates),
            None,
        ),
    ]
}

/// The eligible leader replicas, and the last known ones after `last`;
/// empty (the column is not drawn) when the broker reported neither.
fn elr(row: &Row) -> String {
    let Some(elr) = row.elr else {
        return String::new();
    };
    match (elr.eligible.is_empty(), elr.last_known.is_empty()) {
        (true, true) => String::new(),
        (false, true) => ids(&elr.eligible),
        (true, false) => format!("none, last {}", ids(&elr.last_known)),
        (false, false) => format!("{} last {}", ids(&elr.eligible), ids(&elr.last_known)),
    }
}

fn low(row: &Row) -> String {
    row.marks
        .map_or_else(|| "-".to_owned(), |m| m.low.to_string())
}

fn size(row: &Row) -> String {
    row.leader_size().map_or_else(|| "-".to_owned(), bytes)
}

/// Each replica's size in replica order, `broker:size`; `?` for a broker
/// that did not answer; a future replica as `broker>size`.
fn replica_sizes(row: &Row) -> String {
    let Some(sizes) = row.sizes else {
        return "-".to_owned();
    };
    let held = row.replicas();
    let mut cells: Vec<String> = row
        .partition
        .replicas
        .iter()
        .map(|&broker| {
            let size = held.iter().find(|r| r.broker == broker && !r.future);
            match size {
                Some(r) => format!("{broker}:{}", bytes(r.size)),
                None if sizes.answered(broker) => format!("{broker}:none"),
                None => format!("{broker}:?"),
            }
        })
        .collect();
    cells.extend(
        held.iter()
            .filter(|r| r.future)
            .map(|r| format!("{}>{}", r.broker, bytes(r.size))),
    );
    cells.join(" ")
}

fn future(row: &Row) -> String {
    row.future_lag()
        .map_or_else(|| "-".to_owned(), |lag| lag.to_string())
}

fn rate(row: &Row) -> String {
    row.rate.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

fn leader(row: &Row) -> String {
    row.partition
        .leader
        .map_or_else(|| "none".to_owned(), |l| l.to_string())
}

fn bytes_rate(row: &Row) -> String {
    row.bytes_rate.map_or_else(
        || "-".to_owned(),
        |v| bytes(i64::try_from(v).unwrap_or(i64::MAX)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::cells;
    use crate::inspect::{BrokerDisk, LogDir, ReplicaSize, TopicReplicas};

    fn partition() -> PartitionInfo {
        PartitionInfo {
            partition: 4,
            leader: Some(2),
            leader_epoch: 9,
            replicas: vec![1, 2, 3].into(),
            isr: vec![2, 3].into(),
            offline_replicas: Vec::new().into(),
            error: None,
        }
    }

    fn dir(path: &str, replicas: &[ReplicaSize]) -> LogDir {
        LogDir {
            path: path.to_owned(),
            error: None,
            total_bytes: None,
            usable_bytes: None,
            topics: vec![TopicReplicas {
                name: "orders".to_owned(),
                partitions: replicas.to_vec(),
            }],
        }
    }

    fn replica(size: i64, offset_lag: i64, future: bool) -> ReplicaSize {
        ReplicaSize {
            partition: 4,
            size,
            offset_lag,
            future,
        }
    }

    #[test]
    fn partition_row() {
        let p = partition();
        let grown = std::collections::VecDeque::from([0, 2048]);
        let row = Row {
            topic: "orders",
            partition: &p,
            marks: Some(Watermarks { low: 10, high: 25 }),
            min_isr: Some(3),
            rate: Some(0),
            rates: None,
            bytes_rate: Some(2048),
            bytes_rates: Some(&grown),
            sizes: None,
            elr: None,
            local_start: None,
        };
        assert_eq!(
            cells(&table(), &row),
            [
                "4", "2", "9", "1,2,3", "2,3", "-", "", "no", "10", "", "25", "yes", "-", "-", "-",
                "0", "2.0KiB", "", "▁█"
            ]
        );
    }

    #[test]
    fn replica_sizes_and_a_future_replicas_lag() {
        let p = partition();
        // Broker 1 holds 2 KiB; broker 2 (the leader) 1 KiB in /a and a
        // future replica 5 offsets behind in /b; broker 3 did not answer.
        let disk = Some(BrokerDisk::default());
        let sizes = ClusterSizes {
            brokers: [(1, disk), (2, disk), (3, None)].into_iter().collect(),
            dirs: vec![
                (1, vec![dir("/a", &[replica(2048, 0, false)])]),
                (
                    2,
                    vec![
                        dir("/a", &[replica(1024, 0, false)]),
                        dir("/b", &[replica(512, 5, true)]),
                    ],
                ),
            ],
            ..ClusterSizes::default()
        };
        let row = Row {
            topic: "orders",
            partition: &p,
            marks: None,
            min_isr: None,
            rate: None,
            rates: None,
            bytes_rate: None,
            bytes_rates: None,
            sizes: Some(&sizes),
            elr: None,
            local_start: None,
        };
        let cells = cells(&table(), &row);
        assert_eq!(cells[12], "1.0KiB", "the leader's replica");
        assert_eq!(cells[13], "1:2.0KiB 2:1.0KiB 3:? 2>512B");
        assert_eq!(cells[14], "5");
        let other = Row {
            topic: "payments",
            ..row
        };
        let cells = crate::columns::cells(&table(), &other);
        assert_eq!(cells[12], "-", "no broker holds a replica of it");
        assert_eq!(cells[13], "1:none 2:none 3:?");
        assert_eq!(cells[14], "-", "no move in progress");
    }

    #[test]
    fn eligible_leader_replicas_only_where_reported() {
        let p = partition();
        let row = Row {
            topic: "orders",
            partition: &p,
            marks: None,
            min_isr: None,
            rate: None,
            rates: None,
            bytes_rate: None,
            bytes_rates: None,
            sizes: None,
            elr: None,
            local_start: None,
        };
        assert_eq!(cells(&table(), &row)[6], "", "no answer: nothing to draw");
        let cases = [
            (vec![], vec![], ""),
            (vec![1], vec![], "1"),
            (vec![], vec![1, 3], "none, last 1,3"),
            (vec![1], vec![3], "1 last 3"),
        ];
        for (eligible, last_known, shown) in cases {
            let elr = Elr {
                eligible,
                last_known,
            };
            let row = Row {
                elr: Some(&elr),
                ..row
            };
            assert_eq!(cells(&table(), &row)[6], shown);
        }
    }
}
