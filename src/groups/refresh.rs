//! A lag refresh and the two views built on it: every group (the list) and
//! one group (the detail).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::meta::offsets::TopicPartition;

use super::client::GroupsClient;
use super::counter::RequestCounts;
use super::description::GroupDescription;
use super::end_offsets::EndOffsets;
use super::error::{Error, Result};
use super::fetch::GroupRef;
use super::kind::{GroupState, GroupType};
use super::lag::{GroupLag, PartitionLag};
use super::listing::GroupListing;
use super::offset_fetch::Committed;
use super::reconciling::Reconciling;
use super::topic_names::Interner;

/// One group in the list view.
#[derive(Debug, Clone)]
pub struct GroupSummary {
    /// As listed.
    pub listing: GroupListing,
    /// Its members, when the describe succeeded.
    pub members: Option<usize>,
    /// Its state (the description's, else the listing's).
    pub state: GroupState,
    /// Its lag; `None` when its offsets could not be read.
    pub lag: Option<GroupLag>,
    /// Topics it has commits on or assignments in.
    pub topics: Vec<Arc<str>>,
    /// KIP-848: its members whose assignment is not their target, when
    /// some are (`None` for a converged or classic group, or when the
    /// describe failed).
    pub reconciling: Option<Box<Reconciling>>,
    /// What failed for this group, if anything.
    pub error: Option<String>,
}

/// Every group, with lag.
#[derive(Debug, Clone)]
pub struct Overview {
    /// The groups, sorted by name.
    pub groups: Vec<GroupSummary>,
    /// Brokers whose `ListGroups` failed.
    pub failed_brokers: Vec<(i32, String)>,
    /// Requests this overview cost.
    pub requests: RequestCounts,
}

impl Overview {
    /// The groups consuming `topic` (committed to it or assigned it): what a
    /// topic's screen shows.
    pub fn consuming<'a>(&'a self, topic: &'a str) -> impl Iterator<Item = &'a GroupSummary> + 'a {
        self.groups
            .iter()
            .filter(move |g| g.topics.iter().any(|t| **t == *topic))
    }
}

/// One group in detail.
#[derive(Debug, Clone)]
pub struct GroupDetail {
    /// The description (members, assignments, epochs).
    pub description: GroupDescription,
    /// Per-partition committed / end / lag, with totals.
    pub lag: GroupLag,
    /// Lagging partitions → timestamp (ms) of the oldest unconsumed record
    /// (see `record_age` for how the cost is bounded); empty when unknown.
    pub oldest_unconsumed: BTreeMap<TopicPartition, i64>,
    /// Lagging partitions whose record age was not looked at (beyond
    /// [`MAX_AGE_PARTITIONS`](super::MAX_AGE_PARTITIONS)); 0 normally.
    pub oldest_unconsumed_left_out: usize,
}

impl GroupDetail {
    /// How old the partition's oldest unconsumed record is at `now_ms`
    /// (milliseconds since the epoch), if it was fetched.
    pub fn oldest_unconsumed_age_ms(
        &self,
        topic: &str,
        partition: i32,
        now_ms: i64,
    ) -> Option<i64> {
        self.oldest_unconsumed
            .get(&TopicPartition::new(topic, partition))
            .map(|ts| now_ms.saturating_sub(*ts).max(0))
    }
}

fn assigned_topics(description: &GroupDescription) -> BTreeSet<String> {
    let mut topics = BTreeSet::new();
    for member in &description.members {
        topics.extend(member.assignment.0.keys().cloned());
        if let Some(target) = &member.target_assignment {
            topics.extend(target.0.keys().cloned());
        }
        topics.extend(member.subscribed_topics.iter().cloned());
    }
    if let Some(topology) = &description.topology {
        topics.extend(topology.input_topics());
    }
    topics
}

impl GroupsClient {
    /// The partitions of `topics`, from the snapshot (refreshing it for
    /// topics it does not know yet).
    async fn partitions_of(&self, topics: &BTreeSet<String>) -> BTreeMap<String, Vec<i32>> {
        let known = |snapshot: &crate::meta::MetadataSnapshot,
                     out: &mut BTreeMap<String, Vec<i32>>| {
            for topic in topics {
                if let Some(info) = snapshot.topic(topic) {
                    out.insert(
                        topic.clone(),
                        info.partitions.iter().map(|p| p.partition).collect(),
                    );
                }
            }
        };
        let mut out = BTreeMap::new();
        known(&self.cluster().snapshot(), &mut out);
        let missing: Vec<&str> = topics
            .iter()
            .filter(|t| !out.contains_key(*t))
            .map(String::as_str)
            .collect();
        if !missing.is_empty()
            && let Ok(snapshot) = self.cluster().refresh_topics(&missing).await
        {
            known(&snapshot, &mut out);
        }
        out
    }

    /// The lag of `groups`: one batched `OffsetFetch` per coordinator and
    /// batch (share groups: `DescribeShareGroupOffsets`, whose start offsets
    /// stand for commits and whose reported lag wins), then one
    /// `ListOffsets` per leader for every partition involved (and one for
    /// their log start offsets, in parallel). Every partition of a topic the
    /// group committed to (or is assigned, via `extra_topics`) is listed, so
    /// partitions it never committed to show as such.
    pub async fn lag(
        &self,
        groups: Vec<GroupRef>,
        extra_topics: &BTreeMap<String, BTreeSet<String>>,
    ) -> Result<BTreeMap<String, Result<GroupLag>>> {
        let (share, other): (Vec<GroupRef>, Vec<GroupRef>) = groups
            .into_iter()
            .partition(|g| g.group_type == GroupType::Share);
        let pairs = |refs: Vec<GroupRef>| -> Vec<(String, i32)> {
            refs.into_iter().map(|g| (g.group, g.coordinator)).collect()
        };
        let (mut committed, share_offsets) = tokio::join!(
            self.committed(pairs(other)),
            self.share_offsets(pairs(share))
        );
        let mut reported: BTreeMap<String, BTreeMap<(String, i32), i64>> = BTreeMap::new();
        for (group, answer) in share_offsets {
            let answer = answer.map(|offsets| {
                let lags = reported.entry(group.clone()).or_default();
                offsets
                    .into_iter()
                    .map(|(tp, p)| {
                        if let Some(lag) = p.lag {
                            lags.insert(tp.clone(), lag);
                        }
                        (tp, p.start_offset)
                    })
                    .collect::<Committed>()
            });
            committed.insert(group, answer);
        }
        let mut wanted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (group, answer) in &committed {
            if let Ok(offsets) = answer {
                let topics = wanted.entry(group.clone()).or_default();
                topics.extend(offsets.keys().map(|(topic, _)| topic.clone()));
                topics.extend(extra_topics.get(group).into_iter().flatten().cloned());
            }
        }
        let all_topics: BTreeSet<String> = wanted.values().flatten().cloned().collect();
        let layout = self.partitions_of(&all_topics).await;
        let mut per_group: BTreeMap<String, Vec<TopicPartition>> = BTreeMap::new();
        for (group, topics) in &wanted {
            let offsets = committed.get(group).and_then(|a| a.as_ref().ok());
            let mut tps: BTreeSet<TopicPartition> = offsets
                .into_iter()
                .flat_map(Committed::keys)
                .map(|(t, p)| TopicPartition::new(t.clone(), *p))
                .collect();
            for topic in topics {
                for p in layout.get(topic).into_iter().flatten() {
                    tps.insert(TopicPartition::new(topic.clone(), *p));
                }
            }
            per_group.insert(group.clone(), tps.into_iter().collect());
        }
        let all: BTreeSet<&TopicPartition> = per_group.values().flatten().collect();
        let all: Vec<TopicPartition> = all.into_iter().cloned().collect();
        let (ends, starts) = tokio::join!(self.end_offsets(&all), self.start_offsets(&all));
        let ends = ends?;
        let starts = starts.unwrap_or_else(|error| {
            tracing::debug!(%error, "log start offsets unavailable");
            EndOffsets::default()
        });
        let mut names = self.topic_names().lock();
        Ok(committed
            .into_iter()
            .map(|(group, answer)| {
                let lag = answer.map(|offsets| {
                    let tps = per_group.get(&group).map(Vec::as_slice).unwrap_or_default();
                    let lags = reported.get(&group);
                    GroupLag::new(
                        tps.iter()
                            .map(|tp| PartitionLag {
                                topic: names.get(&tp.topic),
                                partition: tp.partition,
                                committed: offsets.get(&(tp.topic.clone(), tp.partition)).copied(),
                                end: ends.offsets.get(tp).copied(),
                                start: starts.offsets.get(tp).copied(),
                                reported: lags
                                    .and_then(|l| l.get(&(tp.topic.clone(), tp.partition)))
                                    .copied(),
                            })
                            .collect(),
                    )
                });
                (group, lag)
            })
            .collect())
    }

    /// Every group: listed on every broker, described, with lag.
    pub async fn overview(&self) -> Result<Overview> {
        let before = self.counts();
        let list = self.list_groups().await?;
        let groups = self.summaries(list.groups, &BTreeMap::new()).await?;
        Ok(Overview {
            groups,
            failed_brokers: list.failed,
            requests: self.counts().since(&before),
        })
    }

    /// Listed groups as the list shows them: described (state, members,
    /// assigned topics) and with lag, batched per coordinator. The list
    /// asks this of its visible rows between whole-list reads, so that a
    /// group's state and members are as fresh as its lag. `known_topics`
    /// adds topics a group is known to consume (every partition of them
    /// is listed, committed or not).
    pub async fn summaries(
        &self,
        listings: Vec<GroupListing>,
        known_topics: &BTreeMap<String, BTreeSet<String>>,
    ) -> Result<Vec<GroupSummary>> {
        let refs: Vec<GroupRef> = listings.iter().map(GroupRef::from).collect();
        let mut described = self.describe(&refs).await;
        let mut extra = known_topics.clone();
        for (group, description) in &described {
            if let Ok(description) = description {
                extra
                    .entry(group.clone())
                    .or_default()
                    .extend(assigned_topics(description));
            }
        }
        // The described type where there is one: a group listed without a
        // type (old brokers) is asked for its offsets by what it turned out to be.
        let asked = refs
            .into_iter()
            .map(|mut g| {
                if let Some(Ok(d)) = described.get(&g.group) {
                    g.group_type = d.group_type.clone();
                }
                g
            })
            .collect();
        let mut lags = self.lag(asked, &extra).await?;
        let mut names = self.topic_names().lock();
        Ok(listings
            .into_iter()
            .map(|listing| {
                let description = described.remove(&listing.group);
                let lag = lags.remove(&listing.group);
                summarise(listing, description, lag, &mut names)
            })
            .collect())
    }

    /// One group: its coordinator looked up, described, with lag over every
    /// partition it committed to or is assigned.
    pub async fn group_detail(&self, group: &str) -> Result<GroupDetail> {
        let coordinator = self
            .coordinator_for(group)
            .await
            .map_err(|e| Error::for_group(group, e))?;
        let asked = [GroupRef {
            group: group.to_owned(),
            coordinator,
            group_type: GroupType::Unknown(String::new()),
        }];
        let description = self
            .describe(&asked)
            .await
            .remove(group)
            .unwrap_or_else(|| Err(Error::NotFound(group.to_owned())))?;
        if description.state == GroupState::Dead && description.members.is_empty() {
            return Err(Error::NotFound(group.to_owned()));
        }
        let extra = BTreeMap::from([(group.to_owned(), assigned_topics(&description))]);
        let asked = GroupRef {
            group: group.to_owned(),
            coordinator: description.coordinator,
            group_type: description.group_type.clone(),
        };
        let lag = self
            .lag(vec![asked], &extra)
            .await?
            .remove(group)
            .unwrap_or_else(|| Err(Error::NotFound(group.to_owned())))?;
        let (oldest_unconsumed, oldest_unconsumed_left_out) =
            self.oldest_unconsumed(&lag).await.unwrap_or_else(|error| {
                tracing::debug!(%error, group, "record age unavailable");
                (BTreeMap::new(), 0)
            });
        Ok(GroupDetail {
            description,
            lag,
            oldest_unconsumed,
            oldest_unconsumed_left_out,
        })
    }
}

fn summarise(
    mut listing: GroupListing,
    description: Option<Result<GroupDescription>>,
    lag: Option<Result<GroupLag>>,
    names: &mut Interner<'_>,
) -> GroupSummary {
    let mut errors = Vec::new();
    let (members, state, mut topics, reconciling) = match description {
        Some(Ok(d)) => {
            // `ListGroups` below v5 gives no type; the describe API that
            // answered tells it (a classic group on a 3.x broker).
            if matches!(listing.group_type, GroupType::Unknown(_)) {
                listing.group_type = d.group_type.clone();
            }
            let reconciling = Reconciling::of(&d);
            (
                Some(d.members.len()),
                d.state.clone(),
                assigned_topics(&d),
                reconciling,
            )
        }
        Some(Err(e)) => {
            errors.push(e.to_string());
            (None, listing.state.clone(), BTreeSet::new(), None)
        }
        None => (None, listing.state.clone(), BTreeSet::new(), None),
    };
    let lag = match lag {
        Some(Ok(lag)) => Some(lag),
        Some(Err(e)) => {
            errors.push(e.to_string());
            None
        }
        None => None,
    };
    if let Some(lag) = &lag {
        topics.extend(lag.per_topic.keys().map(|t| String::from(&**t)));
    }
    GroupSummary {
        listing,
        members,
        state,
        lag,
        topics: topics.iter().map(|t| names.get(t)).collect(),
        reconciling,
        error: (!errors.is_empty()).then(|| errors.join("; ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(group: &str, topics: &[&str]) -> GroupSummary {
        GroupSummary {
            listing: GroupListing {
                group: group.to_owned(),
                group_type: GroupType::Classic,
                state: GroupState::Empty,
                protocol_type: String::new(),
                coordinator: 1,
            },
            members: Some(0),
            state: GroupState::Empty,
            lag: None,
            topics: topics.iter().map(|t| Arc::from(*t)).collect(),
            reconciling: None,
            error: None,
        }
    }

    #[test]
    fn a_topic_lists_the_groups_consuming_it() {
        let overview = Overview {
            groups: vec![
                summary("a", &["orders"]),
                summary("b", &["audit"]),
                summary("c", &["audit", "orders"]),
            ],
            failed_brokers: Vec::new(),
            requests: RequestCounts::default(),
        };
        let names: Vec<&str> = overview
            .consuming("orders")
            .map(|g| g.listing.group.as_str())
            .collect();
        assert_eq!(names, ["a", "c"]);
    }
}
