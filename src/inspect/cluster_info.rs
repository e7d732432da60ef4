//! The cluster itself: its id and controller (from the metadata), the
//! `KRaft` quorum (`DescribeQuorum`), the supported and finalized features
//! (`ApiVersions` v3+: there is no other request for them) and partition
//! reassignments in progress (`ListPartitionReassignments`). The three
//! requests go out at once, each bounded by [`CLUSTER_DEADLINE`]; one that
//! fails fails its own part only.

use std::future::Future;
use std::time::Duration;

use super::error::{Error, Result};
use super::quorum::{self, Quorum};
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::{
    ApiVersionsRequest, ApiVersionsResponse, ListPartitionReassignmentsRequest,
    ListPartitionReassignmentsResponse,
};
use crate::meta::Cluster;

/// How long each of the cluster's requests may take.
pub const CLUSTER_DEADLINE: Duration = Duration::from_secs(10);

/// One feature flag: the versions the broker supports and the version the
/// cluster finalized (in use), if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    /// `metadata.version`, `kraft.version`, `group.version`, …
    pub name: String,
    /// Lowest version the answering broker supports.
    pub supported_min: i16,
    /// Highest version the answering broker supports.
    pub supported_max: i16,
    /// The cluster-wide version in effect; `None` when not finalized.
    pub finalized: Option<i16>,
}

/// One partition being reassigned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reassignment {
    pub topic: String,
    pub partition: i32,
    /// The replica set now (old and new replicas while moving).
    pub replicas: Vec<i32>,
    /// Replicas being added.
    pub adding: Vec<i32>,
    /// Replicas being removed.
    pub removing: Vec<i32>,
}

/// Everything the Cluster screen and `get cluster` show.
#[derive(Debug, Clone)]
pub struct ClusterInfo {
    /// The cluster id from the metadata.
    pub cluster_id: Option<String>,
    /// The controller the metadata names.
    pub controller_id: Option<i32>,
    /// The quorum, or why not.
    pub quorum: Result<Quorum>,
    /// The features, sorted by name, or why not.
    pub features: Result<Vec<Feature>>,
    /// The epoch of the finalized features, when reported.
    pub finalized_epoch: Option<i64>,
    /// Reassignments in progress, or why not.
    pub reassignments: Result<Vec<Reassignment>>,
}

/// The `ApiVersions` request kscope's connections send (v3+ must name the
/// client software).
pub fn api_versions_request() -> ApiVersionsRequest {
    ApiVersionsRequest::default()
        .with_client_software_name(StrBytes::from_static_str("kscope"))
        .with_client_software_version(StrBytes::from_static_str(env!("CARGO_PKG_VERSION")))
}

/// The features in an `ApiVersions` answer, and the finalized epoch.
pub fn read_features(response: &ApiVersionsResponse) -> Result<(Vec<Feature>, Option<i64>)> {
    if let Some(error) = Error::answer("api versions", response.error_code, None) {
        return Err(error);
    }
    let mut features: Vec<Feature> = response
        .supported_features
        .iter()
        .map(|f| Feature {
            name: f.name.as_str().to_owned(),
            supported_min: f.min_version,
            supported_max: f.max_version,
            finalized: response
                .finalized_features
                .iter()
                .find(|g| g.name == f.name)
                .map(|g| g.max_version_level),
        })
        .collect();
    for finalized in &response.finalized_features {
        if !features.iter().any(|f| f.name == finalized.name.as_str()) {
            features.push(Feature {
                name: finalized.name.as_str().to_owned(),
                supported_min: 0,
                supported_max: 0,
                finalized: Some(finalized.max_version_level),
            });
        }
    }
    features.sort_by(|a, b| a.name.cmp(&b.name));
    let epoch =
        (response.finalized_features_epoch >= 0).then_some(response.finalized_features_epoch);
    Ok((features, epoch))
}

/// Every partition being reassigned (topics null: all of them).
pub fn reassignments_request() -> ListPartitionReassignmentsRequest {
    ListPartitionReassignmentsRequest::default()
        .with_topics(None)
        .with_timeout_ms(i32::try_from(CLUSTER_DEADLINE.as_millis()).unwrap_or(i32::MAX))
}

/// The reassignments in an answer, sorted by topic and partition.
pub fn read_reassignments(
    response: &ListPartitionReassignmentsResponse,
) -> Result<Vec<Reassignment>> {
    if let Some(error) = Error::answer(
        "list partition reassignments",
        response.error_code,
        response.error_message.as_deref(),
    ) {
        return Err(error);
    }
    let mut out: Vec<Reassignment> = response
        .topics
        .iter()
        .flat_map(|t| {
            t.partitions.iter().map(|p| Reassignment {
                topic: t.name.as_str().to_owned(),
                partition: p.partition_index,
                replicas: p.replicas.iter().map(|r| r.0).collect(),
                adding: p.adding_replicas.iter().map(|r| r.0).collect(),
                removing: p.removing_replicas.iter().map(|r| r.0).collect(),
            })
        })
        .collect();
    out.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
    Ok(out)
}

async fn bounded<T>(what: &str, work: impl Future<Output = Result<T>>) -> Result<T> {
    tokio::time::timeout(CLUSTER_DEADLINE, work)
        .await
        .unwrap_or_else(|_| {
            Err(Error::Timeout {
                what: what.to_owned(),
                after: CLUSTER_DEADLINE,
            })
        })
}

/// Describe the cluster: the three requests at once.
pub async fn describe(cluster: &Cluster) -> ClusterInfo {
    let snapshot = cluster.snapshot();
    let quorum = bounded("describe quorum", quorum::describe(cluster));
    let features = bounded("api versions", async {
        let response = cluster
            .send_any(api_versions_request())
            .await
            .map_err(|e| Error::request("api versions", e))?;
        read_features(&response)
    });
    let reassignments = bounded("list partition reassignments", async {
        // The controller answers (a ZooKeeper-mode broker that is not the
        // controller says NOT_CONTROLLER; KRaft brokers forward it).
        let response = cluster
            .send_to_controller(reassignments_request())
            .await
            .map_err(|e| Error::request("list partition reassignments", e))?;
        read_reassignments(&response)
    });
    // Boxed: the three requests' futures together are large.
    let (quorum, features, reassignments) = tokio::join!(
        Box::pin(quorum),
        Box::pin(features),
        Box::pin(reassignments)
    );
    let (features, finalized_epoch) = match features {
        Ok((features, epoch)) => (Ok(features), epoch),
        Err(error) => (Err(error), None),
    };
    ClusterInfo {
        cluster_id: snapshot.cluster_id().map(str::to_owned),
        controller_id: snapshot.controller_id(),
        quorum,
        features,
        finalized_epoch,
        reassignments,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conn::protocol::messages::api_versions_response::{
        FinalizedFeatureKey, SupportedFeatureKey,
    };
    use crate::conn::protocol::messages::list_partition_reassignments_response::{
        OngoingPartitionReassignment, OngoingTopicReassignment,
    };
    use crate::conn::protocol::messages::{BrokerId, TopicName};

    #[test]
    fn features_join_supported_and_finalized_by_name() {
        let response = ApiVersionsResponse::default()
            .with_supported_features(vec![
                SupportedFeatureKey::default()
                    .with_name(StrBytes::from_static_str("metadata.version"))
                    .with_min_version(1)
                    .with_max_version(27),
                SupportedFeatureKey::default()
                    .with_name(StrBytes::from_static_str("group.version"))
                    .with_min_version(0)
                    .with_max_version(1),
            ])
            .with_finalized_features(vec![
                FinalizedFeatureKey::default()
                    .with_name(StrBytes::from_static_str("metadata.version"))
                    .with_max_version_level(25)
                    .with_min_version_level(25),
            ])
            .with_finalized_features_epoch(7);
        let (features, epoch) = read_features(&response).expect("no error");
        assert_eq!(epoch, Some(7));
        let names: Vec<&str> = features.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["group.version", "metadata.version"]);
        assert_eq!(features[0].finalized, None);
        assert_eq!(
            (
                features[1].supported_min,
                features[1].supported_max,
                features[1].finalized
            ),
            (1, 27, Some(25))
        );
        let failed = ApiVersionsResponse::default().with_error_code(35);
        assert!(read_features(&failed).is_err());
    }

    #[test]
    fn reassignments_are_listed_per_partition_and_the_request_asks_for_all() {
        assert!(
            reassignments_request().topics.is_none(),
            "null is every topic"
        );
        let ids = |v: &[i32]| v.iter().map(|&i| BrokerId(i)).collect::<Vec<_>>();
        let response = ListPartitionReassignmentsResponse::default().with_topics(vec![
            OngoingTopicReassignment::default()
                .with_name(TopicName(StrBytes::from_static_str("orders")))
                .with_partitions(vec![
                    OngoingPartitionReassignment::default()
                        .with_partition_index(2)
                        .with_replicas(ids(&[1, 2, 3]))
                        .with_adding_replicas(ids(&[3]))
                        .with_removing_replicas(ids(&[1])),
                ]),
        ]);
        let moving = read_reassignments(&response).expect("no error");
        assert_eq!(
            moving,
            [Reassignment {
                topic: "orders".to_owned(),
                partition: 2,
                replicas: vec![1, 2, 3],
                adding: vec![3],
                removing: vec![1],
            }]
        );
        let denied = ListPartitionReassignmentsResponse::default().with_error_code(29);
        assert!(read_reassignments(&denied).is_err());
    }
}
