//! Describing groups and fetching their committed offsets, batched per
//! coordinator through the re-ask driver.

use std::collections::BTreeMap;

use crate::conn::ErrorCode;
use crate::conn::protocol::messages::{ConsumerGroupDescribeRequest, OffsetFetchRequest};

use super::client::GroupsClient;
use super::description::{self, GroupDescription};
use super::error::{Error, Result};
use super::kind::GroupType;
use super::offset_fetch::{self, BATCHED_VERSION, Committed};
use super::reask::Answers;

/// A group to ask about: its name, coordinator and (as far as known) type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRef {
    /// The group id.
    pub group: String,
    /// Its coordinator (from `ListGroups`, or a lookup).
    pub coordinator: i32,
    /// Its type; `Unknown` asks `ConsumerGroupDescribe` first.
    pub group_type: GroupType,
}

/// Whether a `ConsumerGroupDescribe` failure means "ask `DescribeGroups`":
/// a classic group (`GROUP_ID_NOT_FOUND`, "not a consumer group") or a
/// broker without the API.
fn falls_back(error: &Error) -> bool {
    matches!(
        error.code(),
        Some(ErrorCode::GroupIdNotFound | ErrorCode::UnsupportedVersion)
    ) || matches!(error, Error::GroupRequest { source, .. } if source.is_unsupported_version())
}

impl GroupsClient {
    /// Describe groups: `ConsumerGroupDescribe` for `consumer` (and unknown)
    /// groups where the broker has it, `DescribeGroups` for the rest and as
    /// the fallback. Many groups per request, per coordinator.
    pub async fn describe(
        &self,
        groups: &[GroupRef],
    ) -> BTreeMap<String, Result<GroupDescription>> {
        let kip848 = self
            .cluster()
            .negotiated_for::<ConsumerGroupDescribeRequest>()
            .await
            .is_ok();
        let (modern, mut classic): (Vec<&GroupRef>, Vec<&GroupRef>) =
            groups.iter().partition(|g| {
                kip848 && matches!(g.group_type, GroupType::Consumer | GroupType::Unknown(_))
            });
        let mut results = BTreeMap::new();
        if !modern.is_empty() {
            let asked = modern
                .iter()
                .map(|g| (g.group.clone(), g.coordinator))
                .collect();
            let answers = self
                .per_coordinator(asked, |client, node, batch| async move {
                    let response = client
                        .send_to_node(node, description::consumer_request(&batch))
                        .await?;
                    Ok(description::read_consumer(node, &response))
                })
                .await;
            for (group, answer) in answers {
                match answer {
                    Err(error) if falls_back(&error) => {
                        if let Some(g) = modern.iter().find(|g| g.group == group) {
                            classic.push(g);
                        }
                    }
                    answer => {
                        results.insert(group, answer);
                    }
                }
            }
        }
        if !classic.is_empty() {
            let asked = classic
                .iter()
                .map(|g| (g.group.clone(), g.coordinator))
                .collect();
            let answers = self
                .per_coordinator(asked, |client, node, batch| async move {
                    let response = client
                        .send_to_node(node, description::classic_request(&batch))
                        .await?;
                    Ok(description::read_classic(node, &response))
                })
                .await;
            results.extend(answers);
        }
        results
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
