//! Refresh bookkeeping against a fake broker (`tests/gated_peer`, not Kafka)
//! whose full `Metadata` answers can be held: an invalidation (the `r` key)
//! made while a full refresh is in flight is not lost, and listing groups
//! refreshes a snapshot older than `max_staleness` first.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod gated_peer;

use std::time::Duration;

use gated_peer::{Asked, GatedPeer};
use kscope::groups::GroupsClient;
use kscope::meta::{Cluster, ClusterConfig};

/// How long a test waits for a request that should come.
const DEADLINE: Duration = Duration::from_secs(10);

/// No full refresh of the background task's own accord during a test.
fn config() -> ClusterConfig {
    ClusterConfig {
        refresh_interval: Duration::from_hours(1),
        ..ClusterConfig::default()
    }
}

async fn connect(peer: &GatedPeer, config: ClusterConfig) -> Cluster {
    let cluster = Cluster::connect([peer.address.clone()], config)
        .await
        .expect("connect to the gated peer");
    assert_eq!(
        peer.count(Asked::FullMetadata),
        1,
        "connecting is one full refresh"
    );
    cluster
}

#[tokio::test]
async fn an_invalidation_while_a_callers_full_refresh_is_in_flight_runs_another_after_it() {
    let peer = GatedPeer::start();
    let cluster = connect(&peer, config()).await;

    peer.close();
    let refreshing = tokio::spawn({
        let cluster = cluster.clone();
        async move { cluster.refresh().await }
    });
    assert_eq!(
        peer.reached(Asked::FullMetadata, 2, DEADLINE).await,
        2,
        "the caller's full refresh never reached the peer"
    );
    // `r` pressed now: the answer on its way may predate what prompted it.
    cluster.invalidate();
    peer.open();
    refreshing
        .await
        .expect("the refresh task")
        .expect("the held refresh");

    assert_eq!(
        peer.reached(Asked::FullMetadata, 3, DEADLINE).await,
        3,
        "the invalidation made during the refresh was collapsed into it"
    );
}

#[tokio::test]
async fn an_invalidation_while_the_background_full_refresh_is_in_flight_runs_another_after_it() {
    let peer = GatedPeer::start();
    let cluster = connect(&peer, config()).await;

    peer.close();
    cluster.invalidate();
    assert_eq!(
        peer.reached(Asked::FullMetadata, 2, DEADLINE).await,
        2,
        "an invalidation did not start a background refresh"
    );
    cluster.invalidate();
    peer.open();

    assert_eq!(
        peer.reached(Asked::FullMetadata, 3, DEADLINE).await,
        3,
        "the invalidation made during the background refresh was wiped by it"
    );
}

#[tokio::test]
async fn listing_groups_refreshes_a_snapshot_older_than_max_staleness_first() {
    let peer = GatedPeer::start();
    let stale = ClusterConfig {
        max_staleness: Duration::ZERO,
        ..config()
    };
    let client = GroupsClient::new(connect(&peer, stale).await);

    let listed = client.list_groups().await.expect("list groups");

    assert!(listed.failed.is_empty(), "{:?}", listed.failed);
    assert_eq!(peer.count(Asked::ListGroups), 1);
    assert_eq!(
        peer.count(Asked::FullMetadata),
        2,
        "a snapshot older than max_staleness was answered from"
    );
}

#[tokio::test]
async fn listing_groups_answers_from_a_young_snapshot() {
    let peer = GatedPeer::start();
    let client = GroupsClient::new(connect(&peer, config()).await);

    client.list_groups().await.expect("list groups");

    assert_eq!(peer.count(Asked::ListGroups), 1);
    assert_eq!(
        peer.count(Asked::FullMetadata),
        1,
        "a young snapshot was refetched"
    );
}
