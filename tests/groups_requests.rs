//! The cost of a lag refresh over many groups: requests grow with brokers
//! and coordinators (and groups / batch), not with groups or partitions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "groups_fixture/mod.rs"]
mod fixture;
mod support;

use std::collections::BTreeMap;

use tokio::task::JoinSet;

use kscope::groups::{GroupRef, GroupsClient, Lag};

const GROUPS: usize = 500;
const BATCH: usize = 50;

#[tokio::test]
async fn a_lag_refresh_over_500_groups_costs_o_brokers_plus_groups_over_batch_requests() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = fixture::cluster(&env).await;
    let topic = fixture::unique("groups-many");
    let prefix = fixture::unique("g-many");
    fixture::create_topic(&cluster, &topic, 3).await;
    fixture::produce(&env, &topic, 300);
    let ends = fixture::ends(&cluster, &topic, 3).await;

    let mut commits = JoinSet::new();
    for i in 0..GROUPS {
        let (cluster, topic, group) = (cluster.clone(), topic.clone(), format!("{prefix}-{i:04}"));
        commits.spawn(async move {
            let k = i64::try_from(i % 7).unwrap();
            fixture::commit(&cluster, &group, &topic, &[(0, k), (1, k), (2, k)]).await;
        });
    }
    while let Some(done) = commits.join_next().await {
        done.expect("commit task");
    }

    let client = GroupsClient::new(cluster.clone()).with_batch(BATCH);
    let list = client.list_groups().await.expect("list");
    let mine: Vec<(String, i32)> = list
        .groups
        .iter()
        .filter(|g| g.group.starts_with(&prefix))
        .map(|g| (g.group.clone(), g.coordinator))
        .collect();
    let refs: Vec<GroupRef> = list
        .groups
        .iter()
        .filter(|g| g.group.starts_with(&prefix))
        .map(GroupRef::from)
        .collect();
    assert_eq!(mine.len(), GROUPS);
    let brokers = cluster.snapshot().brokers().len();
    let coordinators = mine
        .iter()
        .map(|(_, c)| c)
        .collect::<std::collections::BTreeSet<_>>()
        .len();

    let before = client.counts();
    let lags = client
        .lag(refs.clone(), &BTreeMap::new())
        .await
        .expect("lag refresh");
    let spent = client.counts().since(&before);
    eprintln!(
        "lag refresh of {GROUPS} groups on {brokers} brokers ({coordinators} coordinators): {spent:?}"
    );

    let most_fetches = u64::try_from(GROUPS.div_ceil(BATCH) + coordinators).unwrap();
    assert!(
        spent.offset_fetch <= most_fetches,
        "{} OffsetFetch > {most_fetches}",
        spent.offset_fetch
    );
    // One per leader for the end offsets, one for the log start offsets.
    assert!(
        spent.list_offsets <= 2 * u64::try_from(brokers).unwrap(),
        "{} ListOffsets",
        spent.list_offsets
    );
    assert_eq!(
        spent.find_coordinator, 0,
        "coordinators come from ListGroups"
    );
    assert_eq!(spent.describe_groups + spent.consumer_group_describe, 0);
    assert!(
        spent.total() < 30,
        "{spent:?}: should not grow with 500 groups x 3 partitions"
    );

    for (i, (group, _)) in mine.iter().enumerate() {
        let lag = lags[group].as_ref().expect("lag");
        let k = i64::try_from(i % 7).unwrap();
        for (p, end) in ends.iter().enumerate() {
            let expected = if k > *end {
                Lag::PastEnd(k - end)
            } else {
                Lag::Records(end - k)
            };
            assert_eq!(lag.partitions[p].lag(), expected, "{group} p{p}");
        }
    }

    // Leave the shared cluster as found: this run's groups, and any left by
    // an earlier run of this test that was killed.
    let leftovers: Vec<(String, i32)> = list
        .groups
        .iter()
        .filter(|g| g.group.starts_with("g-many-"))
        .map(|g| (g.group.clone(), g.coordinator))
        .collect();
    fixture::delete_groups(&cluster, &leftovers).await;
}
