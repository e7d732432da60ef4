//! Coordinator recovery against a fake broker (`tests/gated_peer`, not
//! Kafka) that answers `NOT_COORDINATOR` for each group the first time it
//! is asked about it: every moved group is found again in one batched
//! `FindCoordinator`, not one lookup per group.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod gated_peer;

use gated_peer::{Asked, GatedPeer};
use kscope::groups::{GroupRef, GroupType, GroupsClient};
use kscope::meta::{Cluster, ClusterConfig};

#[tokio::test]
async fn every_group_whose_coordinator_moved_is_looked_up_again_in_one_find_coordinator() {
    let peer = GatedPeer::start();
    peer.move_coordinators();
    let cluster = Cluster::connect([peer.address.clone()], ClusterConfig::default())
        .await
        .expect("connect to the gated peer");
    let client = GroupsClient::new(cluster);
    let groups: Vec<GroupRef> = (0..20)
        .map(|i| GroupRef {
            group: format!("moved-{i:02}"),
            coordinator: 1,
            group_type: GroupType::Classic,
        })
        .collect();

    let described = client.describe(&groups).await;

    assert_eq!(described.len(), 20);
    for (group, answer) in &described {
        assert!(answer.is_ok(), "{group}: {answer:?}");
    }
    assert_eq!(
        peer.count(Asked::DescribeGroups),
        2,
        "one batch, then one re-ask of the moved groups"
    );
    assert_eq!(
        peer.count(Asked::FindCoordinator),
        1,
        "the moved groups' coordinators were not looked up together"
    );
}
