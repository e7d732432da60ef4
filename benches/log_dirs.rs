//! Disk usage at scale: decode three brokers' `DescribeLogDirs` answers
//! (every broker holds a replica of each partition: topics of 100
//! partitions, 10k and 100k partitions in all) from their encoded bytes,
//! read them into log dirs and sum them into per-topic sizes (all replicas
//! and leaders only) and per-broker disk against a snapshot of the same
//! cluster — what one sizes refresh costs kscope on the CPU. `aggregate_only`
//! is the summing alone (per-broker disk and per-topic sizes) on answers
//! already read. Answers
//! fabricated with kafka-protocol: a benchmark harness, no network.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]

use std::hint::black_box;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kscope::conn::protocol::messages::describe_log_dirs_response::{
    DescribeLogDirsPartition, DescribeLogDirsResult, DescribeLogDirsTopic,
};
use kscope::conn::protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kscope::conn::protocol::messages::{
    BrokerId, DescribeLogDirsResponse, MetadataResponse, TopicName,
};
use kscope::conn::protocol::{Decodable, Encodable, Message, StrBytes};
use kscope::inspect::sizes::{broker_disk, topic_sizes};
use kscope::inspect::{ClusterSizes, log_dirs};
use kscope::meta::{MetadataAnswer, MetadataSnapshot};

const PER_TOPIC: usize = 100;
const BROKERS: i32 = 3;

fn topic_name(t: usize) -> String {
    format!("bench-topic-{t:05}")
}

/// One broker's answer: one log dir holding every partition's replica.
fn log_dirs_answer(partitions: usize, broker: i32) -> DescribeLogDirsResponse {
    let topics = (0..partitions / PER_TOPIC)
        .map(|t| {
            DescribeLogDirsTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic_name(t))))
                .with_partitions(
                    (0..PER_TOPIC)
                        .map(|p| {
                            DescribeLogDirsPartition::default()
                                .with_partition_index(p as i32)
                                .with_partition_size(1_048_576 + (t * p) as i64)
                                .with_offset_lag(0)
                        })
                        .collect(),
                )
        })
        .collect();
    DescribeLogDirsResponse::default().with_results(vec![
        DescribeLogDirsResult::default()
            .with_log_dir(StrBytes::from_string(format!("/var/lib/kafka-{broker}")))
            .with_total_bytes(1 << 40)
            .with_usable_bytes(1 << 39)
            .with_topics(topics),
    ])
}

fn snapshot(partitions: usize) -> MetadataSnapshot {
    let brokers = (1..=BROKERS)
        .map(|id| {
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(id))
                .with_host(StrBytes::from_static_str("127.0.0.1"))
                .with_port(9091 + id)
        })
        .collect();
    let topics = (0..partitions / PER_TOPIC)
        .map(|t| {
            MetadataResponseTopic::default()
                .with_name(Some(TopicName(StrBytes::from_string(topic_name(t)))))
                .with_partitions(
                    (0..PER_TOPIC)
                        .map(|p| {
                            let leader = (p as i32) % BROKERS + 1;
                            MetadataResponsePartition::default()
                                .with_partition_index(p as i32)
                                .with_leader_id(BrokerId(leader))
                                .with_replica_nodes((1..=BROKERS).map(BrokerId).collect())
                                .with_isr_nodes((1..=BROKERS).map(BrokerId).collect())
                        })
                        .collect(),
                )
        })
        .collect();
    let mut wire = BytesMut::new();
    MetadataResponse::default()
        .with_brokers(brokers)
        .with_topics(topics)
        .encode(&mut wire, 12)
        .expect("encode");
    MetadataAnswer::decode(&mut wire.freeze(), 12)
        .expect("decode")
        .into_snapshot()
}

fn encode(response: &DescribeLogDirsResponse, version: i16) -> Bytes {
    let mut buf = BytesMut::new();
    response.encode(&mut buf, version).expect("encode");
    buf.freeze()
}

/// Decode and read every broker's answer.
fn read_all(wire: &[(i32, Bytes)], version: i16) -> Vec<log_dirs::BrokerLogDirs> {
    wire.iter()
        .map(|(broker, w)| {
            let mut frame = w.clone();
            let response = DescribeLogDirsResponse::decode(&mut frame, version).expect("decode");
            (*broker, log_dirs::read(&response, *broker))
        })
        .collect()
}

fn sizes(c: &mut Criterion) {
    let version = <DescribeLogDirsResponse as Message>::VERSIONS.max;
    let mut group = c.benchmark_group("log_dirs");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for partitions in [10_000usize, 100_000] {
        let snap = snapshot(partitions);
        let wire: Vec<(i32, Bytes)> = (1..=BROKERS)
            .map(|b| (b, encode(&log_dirs_answer(partitions, b), version)))
            .collect();
        let bytes: usize = wire.iter().map(|(_, w)| w.len()).sum();
        eprintln!(
            "{partitions} partitions: {bytes} bytes of DescribeLogDirs answers from {BROKERS} brokers"
        );
        group.throughput(Throughput::Elements(partitions as u64));
        group.bench_with_input(
            BenchmarkId::new("decode_read_aggregate", partitions),
            &partitions,
            |b, _| b.iter(|| black_box(ClusterSizes::of(read_all(&wire, version), &snap))),
        );
        let answers = read_all(&wire, version);
        group.bench_with_input(
            BenchmarkId::new("aggregate_only", partitions),
            &partitions,
            |b, _| {
                b.iter(|| {
                    let disks: Vec<_> = answers.iter().map(broker_disk).collect();
                    black_box((disks, topic_sizes(&answers, &snap)))
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, sizes);
criterion_main!(benches);
