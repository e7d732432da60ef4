//! Consumer groups against the real cluster: a classic and a KIP-848 group,
//! each Empty with exact known lag and each with a live member; partial
//! commits; and the headless output for all of them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "groups_fixture/mod.rs"]
mod fixture;
mod support;

use std::time::Duration;

use kscope::cli::groups::{OutputFormat, describe_group, get_groups};
use kscope::groups::{GroupState, GroupType, GroupsClient, Lag};
use kscope::meta::Cluster;

async fn describe_json(cluster: &Cluster, group: &str) -> serde_json::Value {
    let mut out = Vec::new();
    describe_group(cluster, group, OutputFormat::Json, &mut out)
        .await
        .expect("describe group");
    serde_json::from_slice(&out).expect("json")
}

async fn groups_json_row(cluster: &Cluster, group: &str) -> serde_json::Value {
    let mut out = Vec::new();
    get_groups(cluster, OutputFormat::Json, &mut out)
        .await
        .expect("get groups");
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out).expect("json");
    rows.into_iter()
        .find(|r| r["group"] == group)
        .unwrap_or_else(|| panic!("'{group}' listed"))
}

#[tokio::test]
async fn a_classic_empty_group_has_exact_lag_per_partition_and_in_total() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = fixture::cluster(&env).await;
    let (topic, group) = (
        fixture::unique("groups-classic"),
        fixture::unique("g-classic"),
    );
    fixture::create_topic(&cluster, &topic, 3).await;
    fixture::produce(&env, &topic, 60);
    let ends = fixture::ends(&cluster, &topic, 3).await;
    assert_eq!(ends.iter().sum::<i64>(), 60);
    let committed: Vec<(i32, i64)> = (0..3i32).zip(&ends).map(|(p, e)| (p, e / 2)).collect();
    fixture::commit(&cluster, &group, &topic, &committed).await;
    let expected: Vec<i64> = (0..3).map(|p| ends[p] - ends[p] / 2).collect();
    let total: i64 = expected.iter().sum();

    let client = GroupsClient::new(cluster.clone());
    let detail = client.group_detail(&group).await.expect("detail");
    assert_eq!(detail.description.group_type, GroupType::Classic);
    assert_eq!(detail.description.state, GroupState::Empty);
    let lags: Vec<Lag> = detail
        .lag
        .partitions
        .iter()
        .map(kscope::groups::PartitionLag::lag)
        .collect();
    assert_eq!(
        lags,
        expected
            .iter()
            .map(|n| Lag::Records(*n))
            .collect::<Vec<_>>()
    );
    assert_eq!(detail.lag.totals.total(), Some(total));
    assert_eq!(
        detail
            .lag
            .per_topic
            .get(&topic)
            .and_then(kscope::groups::LagTotals::total),
        Some(total)
    );
    // Lag in time: every lagging partition has its oldest unconsumed record's
    // timestamp, produced moments ago.
    let now = kscope::cli::groups::now_ms();
    for p in detail
        .lag
        .partitions
        .iter()
        .filter(|p| p.records().unwrap_or(0) > 0)
    {
        let tp = kscope::meta::offsets::TopicPartition::new(&*p.topic, p.partition);
        let ts = detail
            .oldest_unconsumed
            .get(&tp)
            .copied()
            .expect("a record age");
        assert!((0..600_000).contains(&(now - ts)), "age {} ms", now - ts);
    }

    let json = describe_json(&cluster, &group).await;
    assert_eq!(json["type"], "classic");
    assert_eq!(json["state"], "Empty");
    assert_eq!(json["lag"], total);
    for p in 0..3 {
        assert_eq!(json["offsets"][p]["end"], ends[p]);
        assert_eq!(json["offsets"][p]["committed"], ends[p] / 2);
        assert_eq!(json["offsets"][p]["lag"], expected[p]);
        if expected[p] > 0 {
            assert!(json["offsets"][p]["oldest_unconsumed_age_ms"].is_i64());
        }
    }
    let row = groups_json_row(&cluster, &group).await;
    assert_eq!(row["type"], "classic");
    assert_eq!(row["state"], "Empty");
    assert_eq!(row["members"], 0);
    assert_eq!(row["lag"], total);
    assert_eq!(row["topics"][0], topic.as_str());
    // One topic: its lag is the total (what a replay's Topics LAG shows).
    assert_eq!(
        row["lag_by_topic"],
        serde_json::json!([{ "topic": topic.as_str(), "lag": total }])
    );
    let coordinator = cluster.coordinator_for(&group).await.expect("coordinator");
    assert_eq!(row["coordinator"], coordinator);
}

#[tokio::test]
async fn a_kip_848_empty_group_has_exact_lag() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = fixture::cluster(&env).await;
    let (topic, group) = (fixture::unique("groups-848"), fixture::unique("g-848"));
    fixture::create_topic(&cluster, &topic, 1).await;
    fixture::produce(&env, &topic, 20);
    fixture::consume(&env, &group, &topic, "consumer", 7);

    let client = GroupsClient::new(cluster.clone());
    let detail = client.group_detail(&group).await.expect("detail");
    assert_eq!(detail.description.group_type, GroupType::Consumer);
    assert_eq!(detail.description.state, GroupState::Empty);
    assert!(detail.description.group_epoch.is_some());
    assert_eq!(detail.lag.partitions.len(), 1);
    assert_eq!(detail.lag.partitions[0].committed, Some(7));
    assert_eq!(detail.lag.partitions[0].lag(), Lag::Records(13));
    assert_eq!(detail.lag.totals.total(), Some(13));

    let json = describe_json(&cluster, &group).await;
    assert_eq!(json["type"], "consumer");
    assert_eq!(json["offsets"][0]["lag"], 13);
    let row = groups_json_row(&cluster, &group).await;
    assert_eq!(row["type"], "consumer");
    assert_eq!(row["state"], "Empty");
    assert_eq!(row["lag"], 13);
}

async fn wait_stable(
    client: &GroupsClient,
    group: &str,
    partitions: usize,
) -> kscope::groups::GroupDetail {
    support::wait_until_async(
        Duration::from_mins(1),
        "a stable group with one member",
        || async {
            let detail = client.group_detail(group).await.ok()?;
            let d = &detail.description;
            (d.state == GroupState::Stable
                && d.members.len() == 1
                && d.members[0].assignment.len() == partitions)
                .then_some(detail)
        },
    )
    .await
}

#[tokio::test]
async fn live_classic_and_kip_848_members_are_stable_with_their_assignments() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = fixture::cluster(&env).await;
    let topic = fixture::unique("groups-live");
    fixture::create_topic(&cluster, &topic, 2).await;
    fixture::produce(&env, &topic, 10);
    let (classic, modern) = (
        fixture::unique("g-live-classic"),
        fixture::unique("g-live-848"),
    );
    let _a = fixture::LiveConsumer::start(&env, &classic, &topic, "classic");
    let _b = fixture::LiveConsumer::start(&env, &modern, &topic, "consumer");
    let client = GroupsClient::new(cluster.clone());

    let c = wait_stable(&client, &classic, 2).await;
    assert_eq!(c.description.group_type, GroupType::Classic);
    assert_eq!(c.description.protocol_type, "consumer");
    let member = &c.description.members[0];
    assert_eq!(member.subscribed_topics, std::slice::from_ref(&topic));
    assert_eq!(member.assignment.compact(), format!("{topic}:0,1"));
    assert!(member.target_assignment.is_none());

    let m = wait_stable(&client, &modern, 2).await;
    assert_eq!(m.description.group_type, GroupType::Consumer);
    let member = &m.description.members[0];
    assert!(member.member_epoch.is_some_and(|e| e > 0));
    assert_eq!(member.subscribed_topics, std::slice::from_ref(&topic));
    assert_eq!(member.target_assignment.as_ref(), Some(&member.assignment));
    assert!(m.description.group_epoch.is_some());
    assert_eq!(m.description.assignment_epoch, m.description.group_epoch);

    let json = describe_json(&cluster, &modern).await;
    assert_eq!(json["state"], "Stable");
    assert_eq!(
        json["members"][0]["assignment"][topic.as_str()],
        serde_json::json!([0, 1])
    );
    assert_eq!(
        json["members"][0]["target_assignment"][topic.as_str()],
        serde_json::json!([0, 1])
    );
    let row = groups_json_row(&cluster, &modern).await;
    assert_eq!(row["members"], 1);
    assert_eq!(row["state"], "Stable");
    let row = groups_json_row(&cluster, &classic).await;
    assert_eq!(row["members"], 1);
    assert_eq!(row["type"], "classic");
}

#[tokio::test]
async fn partitions_a_group_never_committed_to_are_reported_as_uncommitted() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = fixture::cluster(&env).await;
    let (topic, group) = (
        fixture::unique("groups-partial"),
        fixture::unique("g-partial"),
    );
    fixture::create_topic(&cluster, &topic, 3).await;
    fixture::commit(&cluster, &group, &topic, &[(0, 0)]).await;

    let detail = GroupsClient::new(cluster.clone())
        .group_detail(&group)
        .await
        .expect("detail");
    let lags: Vec<Lag> = detail
        .lag
        .partitions
        .iter()
        .map(kscope::groups::PartitionLag::lag)
        .collect();
    assert_eq!(lags, [Lag::Records(0), Lag::NoCommit, Lag::NoCommit]);
    assert_eq!(detail.lag.totals.uncommitted, 2);
    assert_eq!(detail.lag.totals.total(), Some(0));

    let json = describe_json(&cluster, &group).await;
    assert_eq!(json["offsets"][1]["committed"], serde_json::Value::Null);
    assert_eq!(json["offsets"][1]["lag"], serde_json::Value::Null);
    assert_eq!(json["uncommitted_partitions"], 2);
    let mut table = Vec::new();
    describe_group(&cluster, &group, OutputFormat::Table, &mut table)
        .await
        .expect("table");
    let text = String::from_utf8_lossy(&table);
    assert_eq!(text.matches("no commit").count(), 2, "{text}");
    let row = groups_json_row(&cluster, &group).await;
    assert_eq!(row["uncommitted_partitions"], 2);
}

#[tokio::test]
async fn describing_a_group_that_does_not_exist_says_so() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = fixture::cluster(&env).await;
    let error = GroupsClient::new(cluster)
        .group_detail(&fixture::unique("g-none"))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("not found"), "{error}");
}

#[tokio::test]
async fn browsing_groups_works_on_a_read_only_connection_so_it_never_joins_or_commits() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let writer = fixture::cluster(&env).await;
    let (topic, group) = (fixture::unique("groups-ro"), fixture::unique("g-ro"));
    fixture::create_topic(&writer, &topic, 2).await;
    fixture::commit(&writer, &group, &topic, &[(0, 0)]).await;

    // A read-only context refuses every API off the read-only allow-list
    // (JoinGroup, ConsumerGroupHeartbeat, OffsetCommit, …) before writing it.
    let config = kscope::meta::ClusterConfig {
        connection: kscope::conn::ConnectionConfig {
            read_only: true,
            ..kscope::conn::ConnectionConfig::default()
        },
        ..kscope::meta::ClusterConfig::default()
    };
    let cluster = Cluster::connect(env.bootstrap_list(), config)
        .await
        .expect("connect read-only");
    let client = GroupsClient::new(cluster.clone());
    let overview = client.overview().await.expect("overview");
    let row = overview
        .groups
        .iter()
        .find(|g| g.listing.group == group)
        .expect("listed");
    assert!(row.error.is_none(), "{:?}", row.error);
    let detail = client.group_detail(&group).await.expect("detail");
    assert_eq!(detail.lag.totals.uncommitted, 1);
    assert_eq!(
        client.counts().other,
        0,
        "only group, offset and coordinator reads were sent"
    );
}
