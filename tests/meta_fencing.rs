//! Fencing against a fake broker (`tests/gated_peer`, not Kafka): a broker
//! offering `DescribeCluster` v2 is asked with each liveness check and its
//! fencing is one event each way; a broker offering only v0–v1 (before
//! Kafka 3.9) is never asked, and nothing is said of fencing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod gated_peer;

use std::time::Duration;

use gated_peer::{Asked, GatedPeer};
use kscope::meta::movement_log::MovementFeed;
use kscope::meta::{Cluster, ClusterConfig};

/// No full refresh of the background task's own accord during a test.
fn config() -> ClusterConfig {
    ClusterConfig {
        refresh_interval: Duration::from_hours(1),
        ..ClusterConfig::default()
    }
}

/// The fencing kinds the feed carried so far.
fn fencing(feed: &mut MovementFeed) -> Vec<&'static str> {
    let mut kinds = Vec::new();
    while let Some(received) = feed.try_recv() {
        kinds.extend(
            received
                .events
                .iter()
                .map(|e| e.kind.name())
                .filter(|k| k.contains("fenced")),
        );
    }
    kinds
}

/// Connect to `peer`, then check liveness with the peer unfenced, fenced
/// and unfenced again; the fencing events said.
async fn fence_and_unfence(peer: &GatedPeer) -> Vec<&'static str> {
    let cluster = Cluster::connect([peer.address.clone()], config())
        .await
        .expect("connect to the gated peer");
    let mut feed = cluster.subscribe_movements();
    cluster.check_liveness().await;
    peer.fence(true);
    cluster.check_liveness().await;
    cluster.check_liveness().await;
    peer.fence(false);
    cluster.check_liveness().await;
    fencing(&mut feed)
}

#[tokio::test]
async fn a_broker_with_describe_cluster_v2_is_asked_and_fencing_is_said_once_each_way() {
    let peer = GatedPeer::start();
    peer.describe_cluster_up_to(2);
    let said = fence_and_unfence(&peer).await;
    assert_eq!(said, ["broker_fenced", "broker_unfenced"]);
    assert!(
        peer.count(Asked::DescribeCluster) >= 4,
        "asked with each check"
    );
}

#[tokio::test]
async fn a_broker_before_v2_is_never_asked_and_nothing_is_guessed() {
    let peer = GatedPeer::start();
    peer.describe_cluster_up_to(1);
    let said = fence_and_unfence(&peer).await;
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(peer.count(Asked::DescribeCluster), 0);
}
