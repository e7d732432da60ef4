//! Requests per refresh of the Topics screen's inspection columns at 1k and
//! 10k topics (no cluster: the model's effects are counted and turned into
//! the requests the worker sends): configs for the visible rows only (one
//! `DescribeConfigs`), sizes once per broker (`DescribeLogDirs`), watermarks
//! of the visible rows' partitions (one `ListOffsets` per leader). The count
//! must not grow with the cluster; the numbers go to BENCHMARKS.md
//! (`cargo test --test inspect_requests_scale -- --nocapture`).

use std::collections::BTreeSet;
use std::time::Duration;

use kscope::app::screens::{
    self,
    configs::{Msg, Query},
};
use kscope::app::{Action, Effect, update};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{broker, partition, state, topic};

fn cluster(topics: i32) -> MetadataSnapshot {
    let topics = (0..topics)
        .map(|t| {
            let partitions = (0..10)
                .map(|p| {
                    let leader = (t + p) % 3 + 1;
                    partition(p, Some(leader), &[1, 2, 3], &[1, 2, 3])
                })
                .collect();
            topic(&format!("topic-{t:05}"), false, partitions)
        })
        .collect();
    MetadataSnapshot::new(vec![broker(1), broker(2), broker(3)], topics, Some(1), None)
}

/// (`DescribeConfigs` requests, topic configs asked for, `DescribeLogDirs`
/// requests, `ListOffsets` requests) over the first 60 s of the Topics screen at 150×40.
fn requests(topics: i32) -> (usize, usize, usize, usize) {
    let snap = cluster(topics);
    let mut s = state(&snap, 150, 40);
    let (mut configs, mut config_topics, mut log_dirs, mut list_offsets) = (0, 0, 0, 0);
    for _ in 0..60 {
        let (now, wall) = (
            s.now + Duration::from_secs(1),
            s.wall + Duration::from_secs(1),
        );
        let effects = update(&mut s, Action::Tick { now, wall }, &snap);
        // Each request is answered at once (empty answers): the steady state.
        let mut answers = Vec::new();
        for effect in effects {
            match effect {
                Effect::Query(screens::Query::Configs(Query { request, resources })) => {
                    configs += 1;
                    config_topics += resources.len();
                    let result = Ok(Vec::new());
                    let msg = screens::Msg::Configs(Msg::Answer { request, result });
                    answers.push(Action::Screen(msg));
                }
                // One per broker the snapshot lists.
                Effect::FetchSizes { request } => {
                    log_dirs += snap.brokers().len();
                    let sizes = std::sync::Arc::new(kscope::inspect::ClusterSizes::default());
                    answers.push(Action::Sizes { request, sizes });
                }
                Effect::FetchWatermarks {
                    request,
                    partitions,
                } => {
                    let leaders: BTreeSet<i32> = partitions
                        .iter()
                        .filter_map(|tp| snap.partition(&tp.topic, tp.partition)?.leader)
                        .collect();
                    list_offsets += leaders.len();
                    answers.push(Action::Watermarks {
                        request,
                        result: Ok(Vec::new()),
                    });
                }
                _ => {}
            }
        }
        for answer in answers {
            update(&mut s, answer, &snap);
        }
    }
    (configs, config_topics, log_dirs, list_offsets)
}

#[test]
fn requests_per_refresh_do_not_grow_with_the_topic_count() {
    let small = requests(1_000);
    let large = requests(10_000);
    eprintln!(
        "first 60 s of Topics at 150x40: 1k topics {small:?}, 10k topics {large:?} \
         (DescribeConfigs, topic configs asked, DescribeLogDirs, ListOffsets)"
    );
    assert_eq!(small, large, "the same requests at 1k and 10k topics");
    let (configs, config_topics, log_dirs, _) = large;
    assert!(configs >= 1, "the visible rows' configs are asked for");
    assert!(
        config_topics <= 40 * configs,
        "only visible rows: {config_topics} topics in {configs} requests"
    );
    assert!(log_dirs <= 2 * 3, "sizes at most every 30 s: {log_dirs}");
}
