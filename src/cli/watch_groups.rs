//! The group half of `kscope watch events`: the group list (only the groups
//! `--groups` matches) read with lag every `--group-interval`, and the
//! group events derived from two reads in a row
//! ([`crate::groups::events::diff`]): state changed, members changed (a
//! rebalance), retention passed a commit; a partition STUCK or moving
//! again over the last reads ([`crate::groups::stuck_events::StuckWatch`]);
//! a group's lag on a topic turning to growing or back
//! ([`crate::groups::lag_trend`]); a KIP-848 group's members off their
//! target assignments and converged again
//! ([`crate::groups::reconcile_events`]).
//! Rate limited per kind as the movement log is ([`GroupEvents`]): over a
//! kind's limit, one counted `events_suppressed` record per read.
//!
//! Paced by cost, not by group count: one read lists the groups on every
//! broker, then describes and fetches the offsets of the matching ones in
//! batches per coordinator and the end offsets per leader, so its requests
//! grow with brokers, not groups. The next read starts `--group-interval`
//! after the last one ended, or four times as long as it took when that
//! is longer: a cluster whose read of 10k groups takes 3 s is read every
//! 12 s, using a fifth of the time at most. Only reads: no group is
//! joined, no offset committed.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use regex::Regex;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::app::screens::groups::columns::offsets::STUCK_READS;
use crate::groups::stuck_events::GroupEvents;
use crate::groups::{self, GroupsClient, Overview};
use crate::meta::{Cluster, MovementEvent};

use super::args::WatchWhat;

/// How many times its own duration a read of the groups waits before the
/// next one, at least.
const COST_FACTOR: u32 = 4;

/// What `watch events` reads of groups.
#[derive(Debug, Clone)]
pub struct GroupWatch {
    /// Only groups whose id this matches; every group when `None`.
    pub groups: Option<Regex>,
    /// The least time between the end of one read and the next.
    pub every: Duration,
}

impl GroupWatch {
    /// What `watch WHAT --groups RE --group-interval SECONDS` reads of
    /// groups: nothing for `watch leaders` or an interval of 0.
    pub fn of(
        what: WatchWhat,
        groups: Option<&str>,
        seconds: f64,
    ) -> Result<Option<GroupWatch>, super::error::Error> {
        let groups = regex(groups)?;
        Ok(
            (what == WatchWhat::Events && seconds > 0.0).then(|| GroupWatch {
                groups,
                every: super::args::interval(seconds),
            }),
        )
    }
}

/// Compile `--groups`: a bad regex is a usage error naming it.
pub fn regex(text: Option<&str>) -> Result<Option<Regex>, super::error::Error> {
    text.map(|t| {
        Regex::new(t).map_err(|e| super::error::Error::Usage(format!("--groups '{t}': {e}")))
    })
    .transpose()
}

/// One read: every group listed, those `groups` matches described with lag.
async fn read(client: &GroupsClient, groups: Option<&Regex>) -> groups::Result<Overview> {
    let before = client.counts();
    let mut list = client.list_groups().await?;
    if let Some(re) = groups {
        list.groups.retain(|g| re.is_match(&g.group));
    }
    let summaries = client.summaries(list.groups, &BTreeMap::new()).await?;
    Ok(Overview {
        groups: summaries,
        failed_brokers: list.failed,
        requests: client.counts().since(&before),
    })
}

/// What the readers beside the metadata feed (this one, and the config
/// sweep of `super::watch_configs`) send.
#[derive(Debug)]
pub enum News {
    /// A line for stderr: the first read is done (the baseline: nothing
    /// in it is news) and what it covered, so that a user learns at once
    /// when `--groups` matches nothing.
    Note(String),
    /// The events of a later read.
    Events(Vec<MovementEvent>),
}

/// The wait after a read that took `took`.
pub fn pause(every: Duration, took: Duration) -> Duration {
    every.max(took * COST_FACTOR)
}

/// Read the groups until the receiver goes, sending the baseline, then
/// the events of each read after it, to `tx`.
pub fn spawn(cluster: &Cluster, watch: GroupWatch, tx: mpsc::Sender<News>) {
    let client = GroupsClient::new(cluster.clone());
    tokio::spawn(async move {
        let mut held: Option<Overview> = None;
        let mut derived = GroupEvents::new(STUCK_READS);
        loop {
            let started = Instant::now();
            match read(&client, watch.groups.as_ref()).await {
                Ok(overview) => {
                    let now = SystemTime::now();
                    let events =
                        derived.list(held.as_ref(), &overview, std::time::Instant::now(), now);
                    let news = match &held {
                        Some(_) => (!events.is_empty()).then_some(News::Events(events)),
                        None => Some(News::Note(format!(
                            "watching {} group(s) for group events, read every {}s or more",
                            overview.groups.len(),
                            watch.every.as_secs_f64()
                        ))),
                    };
                    if let Some(news) = news
                        && tx.send(news).await.is_err()
                    {
                        return;
                    }
                    held = Some(overview);
                }
                Err(error) => tracing::warn!(%error, "watch events: the group list failed"),
            }
            if tx.is_closed() {
                return;
            }
            tokio::time::sleep(pause(watch.every, started.elapsed())).await;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_costly_read_waits_four_times_its_length_a_cheap_one_the_interval() {
        let every = Duration::from_secs(10);
        assert_eq!(pause(every, Duration::from_millis(40)), every);
        assert_eq!(
            pause(every, Duration::from_secs(3)),
            Duration::from_secs(12)
        );
    }

    #[test]
    fn a_bad_groups_regex_is_a_usage_error_naming_it() {
        let error = regex(Some("billing(")).expect_err("unclosed group");
        assert_eq!(error.exit_code(), 2);
        assert!(error.to_string().contains("--groups 'billing('"), "{error}");
        assert!(regex(None).expect("no regex").is_none());
    }
}
