//! Decode + build + install a metadata snapshot for 10k, 100k and 1M
//! partitions, from synthetic `MetadataResponse`s encoded with kafka-protocol;
//! and the heap a snapshot retains per partition; and a topic-scoped refresh
//! (one topic of 100 partitions merged into the held snapshot, diffed for
//! that topic only), which the Partitions screen does every 2 s.
//!
//! "Install" is what `Cluster` does with a full refresh besides the swap:
//! guard leader epochs against the held snapshot, diff into movement events,
//! publish through `ArcSwap`.
//!
//! `events/*` measures event derivation alone against a 1M-partition
//! refresh: the diff of two snapshots decoded apart (no topic shared, every
//! partition compared: the worst case), the diff `Cluster` makes (after the
//! epoch guard, which shares every unchanged topic with the held snapshot),
//! each with nothing changed and with a rolling restart's refresh (10 000
//! leaders moved), and the log append; it counts the allocations of the
//! unchanged worst-case diff with a counting allocator (off outside that
//! count).
#![allow(
    unsafe_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_precision_loss
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use arc_swap::ArcSwap;
use bytes::{Bytes, BytesMut};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kscope::conn::protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kscope::conn::protocol::messages::{BrokerId, MetadataResponse, TopicName};
use kscope::conn::protocol::{Decodable, Encodable, StrBytes};
use kscope::meta::{Limits, MetadataAnswer, MetadataSnapshot, MovementLog, TopicInfo, diff};

/// The system allocator, counting allocations while [`COUNTING`] is set.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const VERSION: i16 = 12;
const PER_TOPIC: usize = 100;
const BROKERS: i32 = 6;

fn response(partitions: usize) -> MetadataResponse {
    let brokers = (1..=BROKERS)
        .map(|id| {
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(id))
                .with_host(StrBytes::from_string(format!(
                    "broker-{id}.kafka.example.internal"
                )))
                .with_port(9092)
                .with_rack(Some(StrBytes::from_string(format!("rack-{}", id % 3))))
        })
        .collect();
    let topics = (0..partitions / PER_TOPIC)
        .map(|t| {
            let partitions = (0..PER_TOPIC as i32)
                .map(|p| {
                    let first = (t as i32 + p) % BROKERS;
                    let replicas: Vec<BrokerId> = (0..3)
                        .map(|r| BrokerId((first + r) % BROKERS + 1))
                        .collect();
                    MetadataResponsePartition::default()
                        .with_partition_index(p)
                        .with_leader_id(replicas[0])
                        .with_leader_epoch(7)
                        .with_isr_nodes(replicas.clone())
                        .with_replica_nodes(replicas)
                })
                .collect();
            MetadataResponseTopic::default()
                .with_name(Some(TopicName(StrBytes::from_string(format!(
                    "service.events.topic-{t:06}"
                )))))
                .with_topic_id(uuid::Uuid::from_u128(t as u128 + 1))
                .with_partitions(partitions)
        })
        .collect();
    MetadataResponse::default()
        .with_brokers(brokers)
        .with_cluster_id(Some(StrBytes::from_static_str("bench-cluster")))
        .with_controller_id(BrokerId(1))
        .with_topics(topics)
}

fn encoded(partitions: usize) -> Bytes {
    let mut buffer = BytesMut::new();
    response(partitions)
        .encode(&mut buffer, VERSION)
        .expect("encode");
    buffer.freeze()
}

fn decode(bytes: &Bytes) -> MetadataSnapshot {
    let mut buffer = bytes.clone();
    MetadataAnswer::decode(&mut buffer, VERSION)
        .expect("decode")
        .into_snapshot()
}

/// What `Cluster::refresh_topics` does with its answer: merge the fresh
/// topic into the held snapshot and diff that topic.
fn merge_one(held: &MetadataSnapshot, fresh: &kscope::meta::TopicInfo) -> usize {
    let scope = [fresh.name.clone()];
    let merged = held.with_topics_merged(vec![fresh.clone()]);
    diff(held, &merged, Some(&scope), SystemTime::now()).len() + merged.partition_count()
}

fn install(held: &ArcSwap<MetadataSnapshot>, fresh: MetadataSnapshot) -> usize {
    let previous = held.load_full();
    let (guarded, _) = previous.guard_epochs(fresh);
    let events = diff(&previous, &guarded, None, SystemTime::now()).len();
    held.store(Arc::new(guarded));
    events
}

/// Heap bytes a snapshot keeps, counted from capacities (allocator
/// bookkeeping not included); a shared list of node ids counts once.
fn retained_bytes(snapshot: &MetadataSnapshot) -> usize {
    let ids = std::mem::size_of::<i32>();
    let mut lists = std::collections::HashSet::new();
    let topics = snapshot.topics();
    let mut bytes = std::mem::size_of_val(topics);
    bytes += topics.len() * std::mem::size_of::<kscope::meta::TopicStats>();
    for topic in topics {
        bytes += topic.name.capacity();
        bytes += topic.partitions.capacity() * std::mem::size_of::<kscope::meta::PartitionInfo>();
        for list in topic
            .partitions
            .iter()
            .flat_map(|p| [&p.replicas, &p.isr, &p.offline_replicas])
        {
            if lists.insert(Arc::as_ptr(list).cast::<i32>() as usize) {
                // Two reference counts, then the ids.
                bytes += 2 * std::mem::size_of::<usize>() + list.len() * ids;
            }
        }
    }
    bytes
}

fn report_retained() {
    for partitions in [10_000, 100_000, 1_000_000] {
        let bytes = encoded(partitions);
        let snapshot = decode(&bytes);
        let retained = retained_bytes(&snapshot);
        println!(
            "retained: {partitions} partitions: {} bytes on the wire, {retained} bytes retained, {:.1} bytes/partition",
            bytes.len(),
            retained as f64 / partitions as f64
        );
    }
}

/// `snapshot` after a rolling restart's refresh: the first `moved`
/// partitions (in topic order) have a new leader and epoch.
fn restarted(snapshot: &MetadataSnapshot, moved: usize) -> MetadataSnapshot {
    let mut left = moved;
    let topics: Vec<TopicInfo> = snapshot
        .topics()
        .iter()
        .map(|topic| {
            let mut topic = TopicInfo::clone(topic);
            for partition in topic.partitions.iter_mut().take(left) {
                let next = partition.replicas[1];
                partition.leader = Some(next);
                partition.leader_epoch += 1;
                left -= 1;
            }
            topic
        })
        .collect();
    MetadataSnapshot::new(
        snapshot.brokers().to_vec(),
        topics,
        snapshot.controller_id(),
        None,
    )
}

/// The allocations of diffing two equal 1M-partition snapshots.
fn report_event_allocations(held: &MetadataSnapshot, fresh: &MetadataSnapshot) {
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::Relaxed);
    let events = diff(held, fresh, None, SystemTime::now());
    COUNTING.store(false, Ordering::Relaxed);
    println!(
        "events: diff of two equal {}-partition snapshots: {} events, {} allocations",
        held.partition_count(),
        events.len(),
        ALLOCATIONS.load(Ordering::Relaxed)
    );
}

fn bench_events(c: &mut Criterion) {
    let bytes = encoded(1_000_000);
    let held = decode(&bytes);
    let fresh = decode(&bytes);
    report_event_allocations(&held, &fresh);
    let restart = restarted(&held, 10_000);
    let events = diff(&held, &restart, None, SystemTime::now());
    assert_eq!(events.len(), 10_000);
    // What `Cluster` diffs: the fresh snapshot after the epoch guard, which
    // shares every unchanged topic with the held one.
    let (guarded, _) = held.guard_epochs(decode(&bytes));
    let (guarded_restart, _) = held.guard_epochs(restarted(&held, 10_000));
    assert_eq!(
        diff(&held, &guarded_restart, None, SystemTime::now()).len(),
        10_000
    );
    let mut group = c.benchmark_group("events");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("diff_unchanged_1m", |b| {
        b.iter(|| black_box(diff(&held, &fresh, None, SystemTime::now()).len()));
    });
    group.bench_function("diff_restart_10k_of_1m", |b| {
        b.iter(|| black_box(diff(&held, &restart, None, SystemTime::now()).len()));
    });
    group.bench_function("guarded_diff_unchanged_1m", |b| {
        b.iter(|| black_box(diff(&held, &guarded, None, SystemTime::now()).len()));
    });
    group.bench_function("guarded_diff_restart_10k_of_1m", |b| {
        b.iter(|| black_box(diff(&held, &guarded_restart, None, SystemTime::now()).len()));
    });
    let log = MovementLog::with_limits(Limits::default().unlimited_rate());
    group.bench_function("log_extend_10k", |b| {
        b.iter(|| log.extend(black_box(events.clone())));
    });
    // Over the rate limit from the second batch on: all 10 000 folded.
    let limited = MovementLog::with_limits(Limits::default());
    group.bench_function("log_fold_10k", |b| {
        b.iter(|| limited.extend(black_box(events.clone())));
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    report_retained();
    let mut group = c.benchmark_group("metadata_snapshot");
    for partitions in [10_000usize, 100_000, 1_000_000] {
        let bytes = encoded(partitions);
        let held = ArcSwap::from_pointee(decode(&bytes));
        group.throughput(Throughput::Elements(partitions as u64));
        if partitions >= 1_000_000 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(20));
        } else {
            group
                .sample_size(20)
                .measurement_time(Duration::from_secs(8));
        }
        group.bench_with_input(
            BenchmarkId::new("decode_build", partitions),
            &bytes,
            |b, bytes| {
                b.iter(|| black_box(decode(bytes)));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("decode_build_install", partitions),
            &bytes,
            |b, bytes| {
                b.iter(|| black_box(install(&held, decode(bytes))));
            },
        );
        let snapshot = held.load_full();
        let mut fresh =
            kscope::meta::TopicInfo::clone(&snapshot.topics()[snapshot.topics().len() / 2]);
        for partition in &mut fresh.partitions {
            partition.leader_epoch += 1;
        }
        group.bench_with_input(
            BenchmarkId::new("topic_scoped_merge", partitions),
            &fresh,
            |b, fresh| {
                b.iter(|| black_box(merge_one(&snapshot, fresh)));
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench, bench_events);
criterion_main!(benches);
