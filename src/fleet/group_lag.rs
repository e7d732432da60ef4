//! One poll's groups: `ListGroups` on each broker, then the lag of the
//! sweep's next few groups — in records (`OffsetFetch`, `ListOffsets`) and
//! in time: the age of the oldest unconsumed record, dated by the groups
//! layer's batch-header fetch (`GroupsClient::oldest_unconsumed`) over only
//! the [`DATED_PARTITIONS`] partitions of each group lagging most in
//! records. The lag in time is therefore a lower bound when a group lags on
//! more partitions than that (the most lagging in records is almost always
//! the oldest, but not always).

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::task::JoinSet;

use crate::groups::{GroupLag, GroupRef, GroupsClient};
use crate::meta::Cluster;

use super::row::FleetRow;
use super::sweep::{GroupRead, Sweep};

/// Partitions of one group whose oldest unconsumed record is dated per
/// poll at most (one header-sized `Fetch` each).
pub const DATED_PARTITIONS: usize = 16;

/// Now, in ms since the Unix epoch.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .and_then(|d| i64::try_from(d.as_millis()).ok())
        .unwrap_or(0)
}

/// `lag` with only its [`DATED_PARTITIONS`] partitions lagging most in records.
fn most_lagging(lag: &GroupLag) -> GroupLag {
    let mut partitions: Vec<_> = lag
        .partitions
        .iter()
        .filter(|p| p.records().is_some_and(|n| n > 0))
        .cloned()
        .collect();
    partitions.sort_by_key(|p| std::cmp::Reverse(p.records()));
    partitions.truncate(DATED_PARTITIONS);
    GroupLag::new(partitions)
}

/// What a read of `lag` found: its records total, and the timestamp of the
/// oldest unconsumed record among its most lagging partitions.
async fn read_one(client: GroupsClient, group: String, lag: GroupLag) -> (String, GroupRead) {
    let records = lag.totals.total();
    let oldest_ms = if records.unwrap_or(0) > 0 {
        match client.oldest_unconsumed(&most_lagging(&lag)).await {
            Ok((dated, _)) => dated.into_values().min(),
            Err(error) => {
                tracing::debug!(%error, group, "fleet: lag in time unavailable");
                None
            }
        }
    } else {
        None
    };
    (group, GroupRead { records, oldest_ms })
}

/// List the groups, and read the lag of the sweep's next `per_poll`.
pub(super) async fn groups(
    cluster: &Cluster,
    sweep: &mut Sweep,
    row: &mut FleetRow,
    per_poll: usize,
) {
    let client = GroupsClient::new(cluster.clone());
    let list = match client.list_groups().await {
        Ok(list) => list,
        Err(error) => {
            tracing::debug!(%error, "fleet: groups unavailable");
            row.groups = None;
            return;
        }
    };
    row.groups = Some(list.groups.len());
    let asked = sweep.next(&list.groups, per_poll);
    let refs: Vec<GroupRef> = asked.iter().map(|g| GroupRef::from(*g)).collect();
    let mut read: BTreeMap<String, GroupRead> = BTreeMap::new();
    if !refs.is_empty() {
        match client.lag(refs, &BTreeMap::new()).await {
            Ok(lags) => {
                let mut dating = JoinSet::new();
                for (group, lag) in lags {
                    match lag {
                        Ok(lag) => {
                            dating.spawn(read_one(client.clone(), group, lag));
                        }
                        Err(error) => {
                            tracing::debug!(%error, group, "fleet: a group's lag unavailable");
                            read.insert(group, GroupRead::default());
                        }
                    }
                }
                while let Some(joined) = dating.join_next().await {
                    if let Ok((group, one)) = joined {
                        read.insert(group, one);
                    }
                }
            }
            Err(error) => tracing::debug!(%error, "fleet: lag unavailable"),
        }
    }
    sweep.record(&list.groups, &asked, read);
    let worst = sweep.worst();
    row.worst_lag = worst.map(|(_, lag)| lag);
    row.worst_lag_group = worst.map(|(group, _)| group.to_owned());
    let worst_time = sweep.worst_time(now_ms());
    row.worst_lag_time_ms = worst_time.map(|(_, ms)| ms);
    row.worst_lag_time_group = worst_time.map(|(group, _)| group.to_owned());
    row.lag_groups_checked = sweep.checked();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::PartitionLag;

    fn part(partition: i32, committed: i64, end: i64) -> PartitionLag {
        PartitionLag {
            topic: "t".into(),
            partition,
            committed: Some(committed),
            end: Some(end),
            start: Some(0),
            reported: None,
        }
    }

    #[test]
    fn only_the_partitions_lagging_most_are_dated() {
        let partitions: Vec<PartitionLag> = (0..40).map(|p| part(p, 0, i64::from(p))).collect();
        let trimmed = most_lagging(&GroupLag::new(partitions));
        assert_eq!(trimmed.partitions.len(), DATED_PARTITIONS);
        assert!(trimmed.partitions.iter().all(|p| p.partition >= 24));
        let caught_up = most_lagging(&GroupLag::new(vec![part(0, 5, 5)]));
        assert!(caught_up.partitions.is_empty());
    }
}
