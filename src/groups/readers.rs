//! The groups reading one topic, with their members: every group of every
//! type (classic, consumer, share, streams) that has committed offsets on
//! the topic or is assigned one of its partitions (the list view's
//! "consuming" filter), then described (batched per coordinator) for its
//! members' client ids, hosts and the partitions of the topic each holds.
//! Only reads: nothing joins a group or commits.

use serde::Serialize;

use super::client::GroupsClient;
use super::description::GroupDescription;
use super::error::Result;
use super::fetch::GroupRef;
use super::member::Member;

/// A group reading the topic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadingGroup {
    pub group: String,
    /// `classic`, `consumer`, `share`, `streams`.
    #[serde(rename = "type")]
    pub group_type: String,
    /// `Stable`, `Empty`, …
    pub state: String,
    pub coordinator: i32,
    /// Its members (none for an empty group), by member id.
    pub members: Vec<ReadingMember>,
    /// Why its members or offsets could not be read, if they could not.
    pub error: Option<String>,
}

/// A member of a group reading the topic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadingMember {
    /// The member id the coordinator gave it.
    pub member_id: String,
    /// `group.instance.id` of a static member.
    pub instance_id: Option<String>,
    /// Its `client.id`.
    pub client_id: String,
    /// Where it connects from, as the broker sees it (`/10.0.0.5`).
    pub client_host: String,
    /// The partitions of the topic it holds now (may be empty: it
    /// subscribes to other topics too, or is still being assigned).
    pub partitions: Vec<i32>,
}

/// Every group reading a topic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TopicReaders {
    /// The groups, by group id.
    pub groups: Vec<ReadingGroup>,
    /// Brokers whose `ListGroups` failed, with why: a group they
    /// coordinate may be missing.
    pub failed_brokers: Vec<String>,
}

/// A member as the topic's reader list shows it.
pub fn reading_member(member: &Member, topic: &str) -> ReadingMember {
    let mut partitions = member.assignment.0.get(topic).cloned().unwrap_or_default();
    partitions.sort_unstable();
    ReadingMember {
        member_id: member.member_id.clone(),
        instance_id: member.instance_id.clone(),
        client_id: member.client_id.clone(),
        client_host: member.client_host.clone(),
        partitions,
    }
}

/// The members of a description as readers of `topic`.
pub fn reading_members(description: &GroupDescription, topic: &str) -> Vec<ReadingMember> {
    description
        .members
        .iter()
        .map(|m| reading_member(m, topic))
        .collect()
}

impl GroupsClient {
    /// Every group reading `topic` (committed to it or assigned it), with
    /// its members: the groups listed on every broker with their offsets
    /// (as the Groups screen reads them), then those reading the topic
    /// described again for their members.
    pub async fn readers_of(&self, topic: &str) -> Result<TopicReaders> {
        let overview = self.overview().await?;
        let consuming: Vec<_> = overview.consuming(topic).collect();
        let refs: Vec<GroupRef> = consuming.iter().map(|g| (&g.listing).into()).collect();
        let mut described = self.describe(&refs).await;
        let groups = consuming
            .into_iter()
            .map(|summary| {
                let description = described.remove(&summary.listing.group);
                let (state, members, error) = match description {
                    Some(Ok(d)) => (d.state.to_string(), reading_members(&d, topic), None),
                    Some(Err(e)) => (summary.state.to_string(), Vec::new(), Some(e.to_string())),
                    None => (summary.state.to_string(), Vec::new(), None),
                };
                ReadingGroup {
                    group: summary.listing.group.clone(),
                    group_type: summary.listing.group_type.to_string(),
                    state,
                    coordinator: summary.listing.coordinator,
                    members,
                    error: error.or_else(|| summary.error.clone()),
                }
            })
            .collect();
        Ok(TopicReaders {
            groups,
            failed_brokers: overview
                .failed_brokers
                .iter()
                .map(|(broker, why)| format!("broker {broker}: {why}"))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::groups::member::Assignment;

    #[test]
    fn a_member_holds_only_its_partitions_of_the_topic() {
        let member = Member {
            member_id: "m-1".to_owned(),
            client_id: "console-consumer".to_owned(),
            client_host: "/127.0.0.1".to_owned(),
            assignment: Assignment::from_pairs([
                ("orders".to_owned(), vec![5, 1]),
                ("payments".to_owned(), vec![0]),
            ]),
            ..Member::default()
        };
        let shown = reading_member(&member, "orders");
        assert_eq!(shown.partitions, [1, 5]);
        assert_eq!(shown.client_id, "console-consumer");
        assert!(reading_member(&member, "other").partitions.is_empty());
    }
}
