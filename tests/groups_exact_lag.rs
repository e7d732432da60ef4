//! Exact lag against the real cluster: lag in time for every lagging
//! partition (≥ 30 per leader), records deleted by retention counted apart,
//! and a commit past the end shown as such.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "groups_fixture/mod.rs"]
mod fixture;
mod support;

use std::collections::BTreeMap;

use kscope::cli::groups::{OutputFormat, describe_group};
use kscope::conn::protocol::StrBytes;
use kscope::conn::protocol::messages::delete_records_request::{
    DeleteRecordsPartition, DeleteRecordsTopic,
};
use kscope::conn::protocol::messages::{DeleteRecordsRequest, TopicName};
use kscope::groups::{GroupsClient, Lag};
use kscope::meta::Cluster;
use kscope::meta::offsets::TopicPartition;

/// Partitions of the test topic: 32 per leader on the 3-node cluster.
const PARTITIONS: i32 = 96;

/// Move `partition`'s log start offset to `offset`, as retention would.
async fn delete_records(cluster: &Cluster, topic: &str, partition: i32, offset: i64) {
    let leader = cluster.leader_for(topic, partition).await.expect("leader");
    let request = DeleteRecordsRequest::default()
        .with_topics(vec![
            DeleteRecordsTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic.to_owned())))
                .with_partitions(vec![
                    DeleteRecordsPartition::default()
                        .with_partition_index(partition)
                        .with_offset(offset),
                ]),
        ])
        .with_timeout_ms(30_000);
    let response = cluster
        .send_to_node(leader, request)
        .await
        .expect("delete records");
    let answer = &response.topics[0].partitions[0];
    assert_eq!(
        answer.error_code, 0,
        "deleting records of {topic}/{partition}"
    );
    assert_eq!(answer.low_watermark, offset);
}

#[tokio::test]
async fn every_lagging_partition_has_its_age_and_retention_and_past_end_are_exact() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = fixture::cluster(&env).await;
    let (topic, group) = (fixture::unique("exact-lag"), fixture::unique("g-exact"));
    fixture::create_topic(&cluster, &topic, PARTITIONS).await;
    fixture::produce_spread(&env, &topic, 3000);
    let ends = fixture::ends(&cluster, &topic, PARTITIONS).await;

    // Precondition: at least 30 lagging partitions on every leader.
    let snapshot = cluster.snapshot();
    let info = snapshot.topic(&topic).expect("topic known");
    let mut per_leader: BTreeMap<i32, usize> = BTreeMap::new();
    for p in &info.partitions {
        if ends[usize::try_from(p.partition).unwrap()] > 0 {
            *per_leader.entry(p.leader.expect("a leader")).or_default() += 1;
        }
    }
    assert_eq!(per_leader.len(), 3, "three leaders: {per_leader:?}");
    assert!(
        per_leader.values().all(|n| *n >= 30),
        "≥ 30 partitions with records per leader: {per_leader:?}"
    );

    // Committed at 0 everywhere but two partitions: partition 0's first
    // records are deleted by retention; partition 1 is committed past its end.
    let past = ends[1] + 5;
    let committed: Vec<(i32, i64)> = (0..PARTITIONS)
        .map(|p| (p, if p == 1 { past } else { 0 }))
        .collect();
    fixture::commit(&cluster, &group, &topic, &committed).await;
    let deleted = ends[0] / 2;
    assert!(deleted > 0, "partition 0 has records: {}", ends[0]);
    delete_records(&cluster, &topic, 0, deleted).await;

    let client = GroupsClient::new(cluster.clone());
    let detail = client.group_detail(&group).await.expect("detail");
    let lagging: Vec<&kscope::groups::PartitionLag> = detail
        .lag
        .partitions
        .iter()
        .filter(|p| p.records().unwrap_or(0) > 0)
        .collect();
    assert!(lagging.len() >= 90, "{} lagging", lagging.len());
    let missing: Vec<i32> = lagging
        .iter()
        .filter(|p| {
            !detail
                .oldest_unconsumed
                .contains_key(&TopicPartition::new(&*p.topic, p.partition))
        })
        .map(|p| p.partition)
        .collect();
    assert!(
        missing.is_empty(),
        "no record age for partitions {missing:?}"
    );
    assert_eq!(detail.oldest_unconsumed_left_out, 0);

    // Retention: Kafka's lag is still end − committed; the deleted part is
    // counted apart.
    let p0 = &detail.lag.partitions[0];
    assert_eq!(p0.partition, 0);
    assert_eq!(p0.lag(), Lag::Records(ends[0]));
    assert_eq!(p0.start, Some(deleted));
    assert_eq!(p0.deleted(), Some(deleted));
    assert_eq!(detail.lag.totals.deleted, deleted);

    // Past the end: not a lag of 0.
    let p1 = &detail.lag.partitions[1];
    assert_eq!(p1.lag(), Lag::PastEnd(5));
    assert_eq!(detail.lag.totals.past_end, 1);
    let expected_total: i64 = ends
        .iter()
        .enumerate()
        .filter(|(p, _)| *p != 1)
        .map(|(_, e)| e)
        .sum();
    assert_eq!(detail.lag.totals.total(), Some(expected_total));

    let mut out = Vec::new();
    describe_group(&cluster, &group, OutputFormat::Json, &mut out)
        .await
        .expect("describe group");
    let json: serde_json::Value = serde_json::from_slice(&out).expect("json");
    assert_eq!(json["lag_deleted_by_retention"], deleted);
    assert_eq!(json["past_end_partitions"], 1);
    assert_eq!(json["offsets"][0]["deleted_by_retention"], deleted);
    assert_eq!(json["offsets"][1]["past_end_by"], 5);
    assert_eq!(json["offsets"][1]["lag"], -5);
}
