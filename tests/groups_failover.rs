//! A group whose coordinator broker is killed: the next refresh finds the
//! new coordinator and the group's data again, with nobody doing anything.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "groups_fixture/mod.rs"]
mod fixture;
mod support;

use std::time::Duration;

use kscope::groups::{GroupsClient, Lag};

#[tokio::test]
async fn killing_the_coordinator_moves_the_group_and_the_next_refresh_finds_it() {
    let Some(throwaway) = support::ThrowawayCluster::start("groups-kill", 3, 22092, false) else {
        return;
    };
    let env = throwaway.env();
    let cluster = fixture::cluster(env).await;
    let (topic, group) = (fixture::unique("groups-kill"), fixture::unique("g-kill"));
    fixture::create_topic(&cluster, &topic, 2).await;
    fixture::commit(&cluster, &group, &topic, &[(0, 0), (1, 0)]).await;

    let client = GroupsClient::new(cluster.clone());
    let before = client
        .group_detail(&group)
        .await
        .expect("detail before the kill");
    let old = before.description.coordinator;
    assert_eq!(before.lag.totals.total(), Some(0));

    let node = old.to_string();
    env.script(&["kill", &node]);

    let after = support::wait_until_async(
        Duration::from_mins(2),
        "the group on a new coordinator",
        || async {
            let detail = match client.group_detail(&group).await {
                Ok(detail) => detail,
                Err(error) => {
                    eprintln!("not yet: {error}");
                    return None;
                }
            };
            eprintln!("coordinator now {}", detail.description.coordinator);
            (detail.description.coordinator != old).then_some(detail)
        },
    )
    .await;
    let lags: Vec<Lag> = after
        .lag
        .partitions
        .iter()
        .map(kscope::groups::PartitionLag::lag)
        .collect();
    assert_eq!(lags, [Lag::Records(0), Lag::Records(0)]);

    let overview =
        support::wait_until_async(Duration::from_mins(1), "the group listed again", || async {
            let overview = client.overview().await.ok()?;
            overview
                .groups
                .iter()
                .any(|g| {
                    g.listing.group == group && g.listing.coordinator != old && g.lag.is_some()
                })
                .then_some(overview)
        })
        .await;
    let row = overview
        .groups
        .iter()
        .find(|g| g.listing.group == group)
        .expect("listed");
    assert_eq!(row.lag.as_ref().and_then(|l| l.totals.total()), Some(0));
}
