//! STUCK for `kscope describe group NAME --stuck-over SPAN`. A one-shot
//! command has no session history, so it makes one: it reads the group's
//! offsets [`STUCK_READS`] times spread over the span and judges each
//! partition as the TUI does ([`crate::groups::LagHistory::stuck`]): lag
//! left, the committed offset still over every read while the end offset
//! moved, and the group has members. The owner of a partition is the
//! member the last read's assignments give it to.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use crate::app::screens::groups::columns::offsets::{self as group_offsets, STUCK_READS};
use crate::groups::{self, GroupDescription, GroupDetail, GroupsClient, Member};

/// A partition: topic and number.
pub type PartitionKey = (String, i32);

/// What `describe group` says of the partitions beyond one read of them.
#[derive(Debug, Clone, Default)]
pub struct Verdicts {
    /// `retention.ms` of the topics with lagging partitions, for LOSS IN
    /// by time (a topic missing: unknown).
    pub retention: BTreeMap<String, i64>,
    /// The partitions found STUCK; `None` when not judged (one read only,
    /// no `--stuck-over`).
    pub stuck: Option<BTreeSet<PartitionKey>>,
    /// LOSS IN by size ([`group_offsets::bytes_loss_in`]) of the lagging
    /// partitions of topics with `retention.bytes` set, where known (it
    /// needs the records a second: `--stuck-over`).
    pub by_size: BTreeMap<PartitionKey, Duration>,
}

impl Verdicts {
    /// LOSS IN of the partition: the earlier of `by_time` and its estimate
    /// by size.
    pub fn loss_in(
        &self,
        topic: &str,
        partition: i32,
        by_time: Option<Duration>,
    ) -> Option<Duration> {
        let by_size = self.by_size.get(&(topic.to_owned(), partition)).copied();
        group_offsets::earliest(by_time, by_size)
    }

    /// Whether the partition is STUCK; `None` when nothing was judged.
    pub fn stuck(&self, topic: &str, partition: i32) -> Option<bool> {
        self.stuck
            .as_ref()
            .map(|set| set.contains(&(topic.to_owned(), partition)))
    }
}

/// `--stuck-over SPAN` (`15s`, `1m`): at least a second.
pub fn span(text: &str) -> Result<Duration, crate::cli::error::Error> {
    crate::recording::cursor::offset_ms(text)
        .map(|ms| Duration::from_millis(ms.unsigned_abs()))
        .map_err(|e| crate::cli::error::Error::Usage(format!("--stuck-over {e}")))
        .map(|span| span.max(Duration::from_secs(1)))
}

/// The member whose current assignment holds the partition.
pub fn owner<'a>(
    description: &'a GroupDescription,
    topic: &str,
    partition: i32,
) -> Option<&'a Member> {
    description.members.iter().find(|m| {
        m.assignment
            .0
            .get(topic)
            .is_some_and(|ps| ps.binary_search(&partition).is_ok())
    })
}

/// Read `group` [`STUCK_READS`] times, evenly over `span`; the last read,
/// the partitions STUCK over all of them (judged only when the last read
/// shows members), and the reads themselves (for the records a second).
pub async fn read_over(
    client: &GroupsClient,
    group: &str,
    span: Duration,
) -> Result<
    (
        GroupDetail,
        BTreeSet<PartitionKey>,
        groups::PartitionHistories,
    ),
    groups::Error,
> {
    let gaps = u32::try_from(STUCK_READS.saturating_sub(1).max(1)).unwrap_or(1);
    let gap = span / gaps;
    let mut histories = groups::PartitionHistories::new(STUCK_READS);
    let mut read = 0;
    let detail = loop {
        let detail = client.group_detail(group).await?;
        histories.record(Instant::now(), &detail.lag);
        read += 1;
        if read >= STUCK_READS {
            break detail;
        }
        tokio::time::sleep(gap).await;
    };
    let stuck = if detail.description.members.is_empty() {
        BTreeSet::new()
    } else {
        detail
            .lag
            .partitions
            .iter()
            .filter(|p| {
                histories
                    .get(&p.topic, p.partition)
                    .is_some_and(|h| h.stuck(STUCK_READS))
            })
            .map(|p| (p.topic.to_string(), p.partition))
            .collect()
    };
    Ok((detail, stuck, histories))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::Assignment;

    #[test]
    fn the_owner_is_the_member_whose_assignment_holds_the_partition() {
        let member = |id: &str, partitions: Vec<i32>| Member {
            member_id: id.to_owned(),
            assignment: Assignment::from_pairs([("orders".to_owned(), partitions)]),
            ..Member::default()
        };
        let description = GroupDescription::classic(
            "g",
            vec![member("a", vec![0, 2, 4]), member("b", vec![1, 3, 5])],
        );
        let id = |p| owner(&description, "orders", p).map(|m| m.member_id.as_str());
        assert_eq!((id(3), id(4), id(6)), (Some("b"), Some("a"), None));
        assert_eq!(owner(&description, "audit", 0).map(|m| &m.member_id), None);
        let verdicts = Verdicts {
            stuck: Some(BTreeSet::from([("orders".to_owned(), 3)])),
            ..Verdicts::default()
        };
        assert_eq!(verdicts.stuck("orders", 3), Some(true));
        assert_eq!(verdicts.stuck("orders", 4), Some(false));
        assert_eq!(Verdicts::default().stuck("orders", 3), None);
    }
}
