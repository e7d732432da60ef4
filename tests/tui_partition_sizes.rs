//! The Partitions screen's disk columns without a cluster: whole-screen
//! snapshots (narrow and wide) of each partition's leader size, every
//! replica's size (a broker that did not answer shown as `?`) and a future
//! replica's lag (a move between log dirs in progress), each partition's
//! bytes/s from two answers, and the `update` test that the screen asks for
//! sizes while it shows and not before they are due.

use std::sync::Arc;
use std::time::Duration;

use kscope::app::{Action, AppState, Code, Effect, update};
use kscope::inspect::{BrokerDisk, ClusterSizes, LogDir, ReplicaSize, TopicReplicas, TopicSize};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

fn replica(partition: i32, size: i64, offset_lag: i64, future: bool) -> ReplicaSize {
    ReplicaSize {
        partition,
        size,
        offset_lag,
        future,
    }
}

fn dir(path: &str, replicas: Vec<ReplicaSize>) -> LogDir {
    LogDir {
        path: path.to_owned(),
        error: None,
        total_bytes: Some(1 << 30),
        usable_bytes: Some(1 << 29),
        topics: vec![TopicReplicas {
            name: "payments".to_owned(),
            partitions: replicas,
        }],
    }
}

/// Brokers 1 and 2 answer (broker 3 is down): `payments` 0 is 3 KiB on
/// broker 1 and 2 KiB on broker 2 (its leader); partition 1 is 1 MiB on
/// both, and broker 2 is moving it to another dir (future replica 42
/// offsets behind).
fn sizes() -> ClusterSizes {
    sized(3072, 1 << 20)
}

/// [`sizes`] with `payments` 0 at `zero` bytes on broker 1 and 1 at `one`
/// bytes on brokers 1 and 2.
fn sized(zero: i64, one: i64) -> ClusterSizes {
    let disk = Some(BrokerDisk::default());
    ClusterSizes {
        brokers: [(1, disk), (2, disk), (3, None)].into_iter().collect(),
        dirs: vec![
            (
                1,
                vec![dir(
                    "/data/1",
                    vec![replica(0, zero, 0, false), replica(1, one, 0, false)],
                )],
            ),
            (
                2,
                vec![
                    dir(
                        "/data/2a",
                        vec![replica(0, 2048, 0, false), replica(1, one, 0, false)],
                    ),
                    dir("/data/2b", vec![replica(1, 1 << 19, 42, true)]),
                ],
            ),
        ],
        // What `ClusterSizes::of` sums for it: every replica, and the
        // leaders' alone (broker 3 is silent: the all-replica sum is unknown).
        topics: [(
            "payments".to_owned(),
            TopicSize {
                all_replicas: None,
                leaders_only: Some(2048 + one),
            },
        )]
        .into_iter()
        .collect(),
    }
}

/// Answer the sizes request in flight.
fn answer(state: &mut AppState, snap: &MetadataSnapshot) {
    answer_with(state, snap, sizes());
}

fn answer_with(state: &mut AppState, snap: &MetadataSnapshot, sizes: ClusterSizes) {
    let (request, _) = state.cluster.sizes.in_flight.expect("sizes asked for");
    let sizes = Arc::new(sizes);
    update(state, Action::Sizes { request, sizes }, snap);
}

fn tick(s: &mut AppState, snap: &MetadataSnapshot, after: u64) -> Vec<Effect> {
    let now = snap.fetched_at() + Duration::from_secs(after);
    let wall = std::time::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + after);
    update(s, Action::Tick { now, wall }, snap)
}

fn open_payments(s: &mut AppState, snap: &MetadataSnapshot) {
    keys(s, snap, "/pay");
    press(s, snap, Code::Enter);
    press(s, snap, Code::Enter);
}

#[test]
fn partitions_with_replica_sizes_and_a_future_replicas_lag() {
    let snap = cluster();
    for (label, width, height) in [("narrow", 80, 18), ("wide", 150, 18)] {
        let mut s = state(&snap, width, height);
        open_payments(&mut s, &snap);
        answer(&mut s, &snap);
        let rendered = render(&s, &snap);
        assert!(
            rendered.contains("size ? (all replicas), 1.0MiB (leaders)"),
            "{rendered}"
        );
        insta::assert_snapshot!(format!("partition_sizes_{label}"), rendered);
    }
}

#[test]
fn the_partitions_screen_asks_for_sizes_when_due() {
    let snap = cluster();
    let mut s = state(&snap, 150, 18);
    open_payments(&mut s, &snap);
    answer(&mut s, &snap);
    let tick = |s: &mut AppState, after: u64| tick(s, &snap, after);
    let asks = |effects: &[Effect]| {
        effects
            .iter()
            .any(|e| matches!(e, Effect::FetchSizes { .. }))
    };
    assert!(!asks(&tick(&mut s, 10)), "answered 7 s ago: not due");
    assert!(
        asks(&tick(&mut s, 40)),
        "30 s after the last request, on the Partitions screen"
    );
    answer(&mut s, &snap);
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, ":groups");
    press(&mut s, &snap, Code::Enter);
    assert!(
        !asks(&tick(&mut s, 90)),
        "the groups screen shows no sizes: nothing asked"
    );
}

#[test]
fn each_partitions_bytes_per_second_comes_from_two_answers() {
    let snap = cluster();
    let mut s = state(&snap, 150, 18);
    open_payments(&mut s, &snap);
    tick(&mut s, &snap, 0);
    answer(&mut s, &snap);
    let zero = kscope::meta::TopicPartition::new("payments", 0);
    let one = kscope::meta::TopicPartition::new("payments", 1);
    assert_eq!(
        s.cluster.sizes.partition_bytes[&zero].rate, None,
        "one answer is no rate"
    );

    // 40 s later partition 0's largest replica grew by 80 KiB; partition
    // 1's shrank (retention): no rate, never a negative one.
    let asked = tick(&mut s, &snap, 40);
    assert!(asked.iter().any(|e| matches!(e, Effect::FetchSizes { .. })));
    answer_with(&mut s, &snap, sized(3072 + 81_920, 1 << 19));
    assert_eq!(s.cluster.sizes.partition_bytes[&zero].rate, Some(2048));
    assert_eq!(s.cluster.sizes.partition_bytes[&one].rate, None, "shrank");
    let rendered = render(&s, &snap);
    assert!(rendered.contains("BYTES/S"), "{rendered}");
    assert!(rendered.contains("2.0KiB"), "{rendered}");
    insta::assert_snapshot!("partition_bytes_per_second", rendered);
}
