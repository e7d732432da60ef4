//! Lag refresh benchmark.
//!
//! - `real` (default): `BENCH_GROUPS` groups (default 1000) created cheaply on the
//!   cluster in `KSCOPE_TEST_CLUSTER` with one `OffsetCommit` each (reused
//!   across runs), then a lag refresh over them timed `RUNS` times, with the
//!   request count. `scripts/bench-lag` runs it next to Kafka's
//!   `ConsumerGroupCommand --describe --all-groups`.
//! - `synthetic` (`BENCH_MODE=synthetic`, `BENCH_GROUPS` default 10000): NO
//!   NETWORK. Plans the batches, encodes every `OffsetFetch` request, decodes
//!   a fabricated answer per batch and does the lag arithmetic: the CPU side
//!   and the request count of a 10k-group refresh.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/groups_fixture/mod.rs"]
mod fixture;
#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use tokio::task::JoinSet;

use kscope::conn::protocol::messages::offset_fetch_response::{
    OffsetFetchResponseGroup, OffsetFetchResponsePartitions, OffsetFetchResponseTopics,
};
use kscope::conn::protocol::messages::{GroupId, OffsetFetchResponse, TopicName};
use kscope::conn::protocol::{Encodable, StrBytes};
use kscope::groups::offset_fetch::{DEFAULT_BATCH, batched_request, batches, read_batched};
use kscope::groups::{GroupLag, GroupRef, GroupsClient, PartitionLag};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    match std::env::var("BENCH_MODE").as_deref() {
        Ok("synthetic") => synthetic(env_usize("BENCH_GROUPS", 10_000)),
        _ => runtime.block_on(real(env_usize("BENCH_GROUPS", 1000))),
    }
}

async fn real(groups: usize) {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let runs = env_usize("RUNS", 5);
    let cluster = fixture::cluster(&env).await;
    let prefix = format!("bench-groups-{groups}");
    let client = GroupsClient::new(cluster.clone());
    ensure_groups(&cluster, &client, &prefix, groups).await;

    let list_started = Instant::now();
    let listed = client.list_groups().await.expect("list");
    let list_time = list_started.elapsed();
    let mine: Vec<(String, i32)> = listed
        .groups
        .iter()
        .filter(|g| g.group.starts_with(&prefix))
        .map(|g| (g.group.clone(), g.coordinator))
        .collect();
    let refs: Vec<GroupRef> = listed
        .groups
        .iter()
        .filter(|g| g.group.starts_with(&prefix))
        .map(GroupRef::from)
        .collect();
    let mut times = Vec::new();
    let mut counts = None;
    for _ in 0..runs {
        let before = client.counts();
        let started = Instant::now();
        let lags = client
            .lag(refs.clone(), &BTreeMap::new())
            .await
            .expect("lag");
        times.push(started.elapsed());
        counts = Some(client.counts().since(&before));
        assert_eq!(lags.len(), mine.len());
    }
    let before = client.counts();
    let started = Instant::now();
    let overview = client.overview().await.expect("overview");
    let overview_time = started.elapsed();
    let overview_counts = client.counts().since(&before);
    // What `kscope get groups -o json` does after process start: connect
    // (bootstrap + metadata), list, describe, lag, render.
    let cold_started = Instant::now();
    let fresh = fixture::cluster(&env).await;
    let mut rendered = Vec::new();
    kscope::cli::groups::get_groups(
        &fresh,
        kscope::cli::groups::OutputFormat::Json,
        &mut rendered,
    )
    .await
    .expect("get groups");
    let cold_time = cold_started.elapsed();
    println!(
        "mode: real cluster, {} brokers",
        cluster.snapshot().brokers().len()
    );
    println!(
        "cold get groups -o json (connect + list + describe + lag + render, {} bytes): {cold_time:?}",
        rendered.len()
    );
    println!(
        "groups benchmarked: {} (cluster total: {})",
        mine.len(),
        listed.groups.len()
    );
    println!("list groups (ListGroups x brokers): {list_time:?}");
    println!(
        "lag refresh ({} groups): median {:?} of {runs}, min {:?}; requests {:?} total {}",
        mine.len(),
        median(times.clone()),
        times.iter().min().copied().unwrap_or_default(),
        counts.unwrap_or_default(),
        counts.unwrap_or_default().total()
    );
    println!(
        "overview (list + describe + lag, all {} groups): {overview_time:?}; requests {overview_counts:?} total {}",
        overview.groups.len(),
        overview_counts.total()
    );
    // Leave the shared cluster as found unless asked to keep the groups
    // (creating them again takes a few seconds).
    if std::env::var_os("BENCH_KEEP").is_none() {
        fixture::delete_groups(&cluster, &mine).await;
    }
}

/// Create `groups` groups named `PREFIX-NNNNN` with one `OffsetCommit` each
/// (kept for the next run).
async fn ensure_groups(
    cluster: &kscope::meta::Cluster,
    client: &GroupsClient,
    prefix: &str,
    groups: usize,
) {
    let topic = "bench-groups-topic";
    if cluster
        .refresh_topics(&[topic])
        .await
        .ok()
        .and_then(|s| s.topic(topic).cloned())
        .is_none()
    {
        fixture::create_topic(cluster, topic, 3).await;
    }
    let listed = client.list_groups().await.expect("list");
    let existing = listed
        .groups
        .iter()
        .filter(|g| g.group.starts_with(prefix))
        .count();
    if existing < groups {
        let started = Instant::now();
        let mut commits = JoinSet::new();
        for i in 0..groups {
            let (cluster, group) = (cluster.clone(), format!("{prefix}-{i:05}"));
            commits.spawn(async move {
                fixture::commit(&cluster, &group, topic, &[(0, 0), (1, 0), (2, 0)]).await;
            });
            if commits.len() >= 64 {
                commits.join_next().await;
            }
        }
        while commits.join_next().await.is_some() {}
        eprintln!("created {groups} groups in {:?}", started.elapsed());
    }
}

fn fabricated_answer(batch: &[String], partitions: i32) -> OffsetFetchResponse {
    OffsetFetchResponse::default().with_groups(
        batch
            .iter()
            .map(|g| {
                OffsetFetchResponseGroup::default()
                    .with_group_id(GroupId(StrBytes::from_string(g.clone())))
                    .with_topics(vec![
                        OffsetFetchResponseTopics::default()
                            .with_name(TopicName(StrBytes::from_static_str("orders")))
                            .with_partitions(
                                (0..partitions)
                                    .map(|p| {
                                        OffsetFetchResponsePartitions::default()
                                            .with_partition_index(p)
                                            .with_committed_offset(100)
                                    })
                                    .collect(),
                            ),
                    ])
            })
            .collect(),
    )
}

fn synthetic(groups: usize) {
    let partitions = 12;
    let names: Vec<(String, i32)> = (0..groups)
        .map(|i| (format!("g-{i:05}"), i32::try_from(i % 3).unwrap()))
        .collect();
    let started = Instant::now();
    let plan = batches(&names, DEFAULT_BATCH);
    let mut encoded = 0usize;
    let mut lags = 0i64;
    for (_, batch) in &plan {
        let mut buf = BytesMut::new();
        batched_request(batch).encode(&mut buf, 9).expect("encode");
        encoded += buf.len();
        for (_, committed) in read_batched(&fabricated_answer(batch, partitions)) {
            let committed = committed.expect("ok");
            let lag = GroupLag::new(
                committed
                    .iter()
                    .map(|((t, p), c)| PartitionLag {
                        topic: t.as_str().into(),
                        partition: *p,
                        committed: Some(*c),
                        end: Some(150),
                        start: None,
                        reported: None,
                    })
                    .collect(),
            );
            lags += lag.totals.records;
        }
    }
    let elapsed = started.elapsed();
    println!(
        "mode: SYNTHETIC (no network): {groups} groups x {partitions} partitions, 3 coordinators, batch {DEFAULT_BATCH}"
    );
    println!(
        "OffsetFetch requests planned: {} (+ ListOffsets: 1 per leader broker); request bytes {encoded}; plan+encode+decode+lag: {elapsed:?}; total lag {lags}",
        plan.len()
    );
}
