//! Describing groups of every type and fetching their committed offsets
//! (share groups: start offsets), batched per coordinator through the
//! re-ask driver.

use std::collections::BTreeMap;

use crate::conn::ErrorCode;
use crate::conn::protocol::messages::{
    ConsumerGroupDescribeRequest, DescribeGroupsRequest, DescribeShareGroupOffsetsRequest,
    OffsetFetchRequest, ShareGroupDescribeRequest, StreamsGroupDescribeRequest,
};

use super::client::GroupsClient;
use super::description::{self, GroupDescription};
use super::error::{Error, Result};
use super::kind::{GroupState, GroupType};
use super::listing::GroupListing;
use super::offset_fetch::{self, BATCHED_VERSION, Committed};
use super::reask::Answers;
use super::share::{self, ShareOffsets};
use super::streams;

/// A group to ask about: its name, coordinator and (as far as known) type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRef {
    pub group: String,
    /// Its coordinator (from `ListGroups`, or a lookup).
    pub coordinator: i32,
    /// Its type; `Unknown` tries every describe API in turn.
    pub group_type: GroupType,
}

impl From<&GroupListing> for GroupRef {
    fn from(listing: &GroupListing) -> GroupRef {
        GroupRef {
            group: listing.group.clone(),
            coordinator: listing.coordinator,
            group_type: listing.group_type.clone(),
        }
    }
}

/// Whether a describe failure means "ask the next API in the chain": a
/// group of another type (`GROUP_ID_NOT_FOUND`, "not a consumer group") or
/// a broker without the API.
fn falls_back(error: &Error) -> bool {
    matches!(
        error.code(),
        Some(ErrorCode::GroupIdNotFound | ErrorCode::UnsupportedVersion)
    ) || matches!(error, Error::GroupRequest { source, .. } if source.is_unsupported_version())
}

/// The describe APIs, in the order a group of unknown type is tried:
/// `ConsumerGroupDescribe` answers `GROUP_ID_NOT_FOUND` for a group of
/// another type; the classic `DescribeGroups` answers for *every* group, and
/// a share or streams group asked that way comes back `Dead` with no members
/// (the misreading that made other browsers show KIP-848 groups as dead), so
/// such an answer is not taken while the share and streams APIs remain.
/// Classic groups, the common case, cost what they did before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DescribeApi {
    Consumer,
    Share,
    Streams,
    Classic,
}

const STAGES: [DescribeApi; 4] = [
    DescribeApi::Consumer,
    DescribeApi::Classic,
    DescribeApi::Share,
    DescribeApi::Streams,
];

/// The APIs to try for a group of this type, in [`STAGES`] order.
fn chain(group_type: &GroupType) -> &'static [DescribeApi] {
    use DescribeApi::{Classic, Consumer, Share, Streams};
    match group_type {
        GroupType::Classic => &[Classic],
        GroupType::Consumer => &[Consumer, Classic],
        GroupType::Share => &[Share],
        GroupType::Streams => &[Streams],
        GroupType::Unknown(_) => &[Consumer, Classic, Share, Streams],
    }
}

/// A classic answer that means "no classic group by this name": `Dead`,
/// no members, no protocol.
fn looks_absent(d: &GroupDescription) -> bool {
    d.state == GroupState::Dead && d.members.is_empty() && d.protocol_type.is_empty()
}

impl GroupsClient {
    /// Whether the broker negotiated the API (`Err` with why when not).
    async fn has_api(&self, api: DescribeApi) -> std::result::Result<(), crate::meta::Error> {
        let cluster = self.cluster();
        match api {
            DescribeApi::Consumer => cluster
                .negotiated_for::<ConsumerGroupDescribeRequest>()
                .await
                .map(drop),
            DescribeApi::Share => cluster
                .negotiated_for::<ShareGroupDescribeRequest>()
                .await
                .map(drop),
            DescribeApi::Streams => cluster
                .negotiated_for::<StreamsGroupDescribeRequest>()
                .await
                .map(drop),
            DescribeApi::Classic => cluster
                .negotiated_for::<DescribeGroupsRequest>()
                .await
                .map(drop),
        }
    }

    /// One round of one describe API over `asked`, batched per coordinator.
    async fn describe_with(
        &self,
        api: DescribeApi,
        asked: Vec<(String, i32)>,
    ) -> BTreeMap<String, Result<GroupDescription>> {
        match api {
            DescribeApi::Consumer => {
                self.per_coordinator(asked, |client, node, batch| async move {
                    let response = client
                        .send_to_node(node, description::consumer_request(&batch))
                        .await?;
                    Ok(description::read_consumer(node, &response))
                })
                .await
            }
            DescribeApi::Share => {
                self.per_coordinator(asked, |client, node, batch| async move {
                    let response = client
                        .send_to_node(node, share::describe_request(&batch))
                        .await?;
                    Ok(share::read_describe(node, &response))
                })
                .await
            }
            DescribeApi::Streams => {
                self.per_coordinator(asked, |client, node, batch| async move {
                    let response = client.send_to_node(node, streams::request(&batch)).await?;
                    Ok(streams::read(node, &response))
                })
                .await
            }
            DescribeApi::Classic => {
                self.per_coordinator(asked, |client, node, batch| async move {
                    let response = client
                        .send_to_node(node, description::classic_request(&batch))
                        .await?;
                    Ok(description::read_classic(node, &response))
                })
                .await
            }
        }
    }

    /// Describe groups of every type, many per request and coordinator:
    /// `ConsumerGroupDescribe`, `ShareGroupDescribe`, `StreamsGroupDescribe`
    /// or `DescribeGroups` by the group's listed type; a group of unknown
    /// type is tried with each in turn (see `DescribeApi`). An API the
    /// broker lacks is skipped; a group whose last API is missing gets the
    /// negotiation error ("… needs Kafka 4.1+").
    pub async fn describe(
        &self,
        groups: &[GroupRef],
    ) -> BTreeMap<String, Result<GroupDescription>> {
        let mut results = BTreeMap::new();
        // Each group with the APIs still to try.
        let mut pending: Vec<(&GroupRef, &[DescribeApi])> =
            groups.iter().map(|g| (g, chain(&g.group_type))).collect();
        for stage in STAGES {
            let (now, later): (Vec<_>, Vec<_>) = pending
                .into_iter()
                .partition(|(_, apis)| apis.first() == Some(&stage));
            pending = later;
            if now.is_empty() {
                continue;
            }
            if let Err(missing) = self.has_api(stage).await {
                for (group, apis) in now {
                    if apis.len() > 1 {
                        pending.push((group, &apis[1..]));
                    } else {
                        // A classic "absent" answer kept earlier stands.
                        results.entry(group.group.clone()).or_insert_with(|| {
                            Err(Error::for_group(&group.group, missing.clone()))
                        });
                    }
                }
                continue;
            }
            let asked = now
                .iter()
                .map(|(g, _)| (g.group.clone(), g.coordinator))
                .collect();
            let answers = self.describe_with(stage, asked).await;
            for (group, apis) in now {
                match answers.get(&group.group) {
                    Some(Err(error)) if falls_back(error) => {
                        if apis.len() > 1 {
                            pending.push((group, &apis[1..]));
                        } else {
                            results
                                .entry(group.group.clone())
                                .or_insert_with(|| Err(error.clone()));
                        }
                    }
                    Some(Ok(d))
                        if stage == DescribeApi::Classic && apis.len() > 1 && looks_absent(d) =>
                    {
                        // Keep the classic answer in case no other API knows
                        // the group either (it is then really gone).
                        results.insert(group.group.clone(), Ok(d.clone()));
                        pending.push((group, &apis[1..]));
                    }
                    Some(answer) => {
                        results.insert(group.group.clone(), answer.clone());
                    }
                    None => {}
                }
            }
        }
        results
    }

    /// Share groups' start offsets and broker-reported lag
    /// (`DescribeShareGroupOffsets`, batched per coordinator).
    pub async fn share_offsets(
        &self,
        groups: Vec<(String, i32)>,
    ) -> BTreeMap<String, Result<ShareOffsets>> {
        if let Err(error) = self
            .cluster()
            .negotiated_for::<DescribeShareGroupOffsetsRequest>()
            .await
        {
            return groups
                .into_iter()
                .map(|(group, _)| {
                    let failure = Error::for_group(&group, error.clone());
                    (group, Err(failure))
                })
                .collect();
        }
        self.per_coordinator(groups, |client, node, batch| async move {
            let response = client
                .send_to_node(node, share::offsets_request(&batch))
                .await?;
            Ok(share::read_offsets(&response))
        })
        .await
    }

    /// Committed offsets of `groups` (`(group, coordinator)`): one
    /// `OffsetFetch` per coordinator and batch from v8; one per group on a
    /// broker older than that.
    pub async fn committed(
        &self,
        groups: Vec<(String, i32)>,
    ) -> BTreeMap<String, Result<Committed>> {
        let version = match self.cluster().negotiated_for::<OffsetFetchRequest>().await {
            Ok(version) => version,
            Err(error) => {
                return groups
                    .into_iter()
                    .map(|(group, _)| {
                        let failure = Error::for_group(&group, error.clone());
                        (group, Err(failure))
                    })
                    .collect();
            }
        };
        self.per_coordinator(groups, move |client, node, batch| async move {
            if version >= BATCHED_VERSION {
                let request = offset_fetch::batched_request(&batch);
                let response = client.send_to_node(node, request).await?;
                return Ok(offset_fetch::read_batched(&response));
            }
            let mut answers: Answers<Committed> = Vec::with_capacity(batch.len());
            for group in &batch {
                let response = client
                    .send_to_node(node, offset_fetch::single_request(group))
                    .await?;
                answers.push(offset_fetch::read_single(group, &response));
            }
            Ok(answers)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_classic_group_or_a_broker_without_kip_848_falls_back_to_describe_groups() {
        let not_consumer = Error::Group {
            group: "g".to_owned(),
            code: ErrorCode::GroupIdNotFound,
        };
        assert!(falls_back(&not_consumer));
        let unsupported = Error::for_group(
            "g",
            crate::conn::Error::UnsupportedVersion {
                broker: "broker 1".to_owned(),
                api: crate::conn::ApiKey::ConsumerGroupDescribe,
                ours: "v0-v1".to_owned(),
                theirs: "none".to_owned(),
            },
        );
        assert!(falls_back(&unsupported));
        let loading = Error::Group {
            group: "g".to_owned(),
            code: ErrorCode::CoordinatorLoadInProgress,
        };
        assert!(!falls_back(&loading));
    }
}
