//! Record batch decode throughput: 1 KiB JSON values, uncompressed, lz4 and
//! zstd (the browse layer's `batch::items`, records counted per second).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use bytes::{Bytes, BytesMut};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kscope::browse::batch;
use kscope::conn::protocol::indexmap::IndexMap;
use kscope::conn::protocol::records::{
    Compression, Record, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};

/// Records per batch, and batches per iteration.
const PER_BATCH: i64 = 500;
const BATCHES: i64 = 20;

fn json_value(i: i64) -> Bytes {
    let mut value = format!("{{\"id\":{i},\"user\":\"user-{}\",\"payload\":\"", i % 977);
    while value.len() < 1020 {
        value.push_str("abcdefghij");
    }
    value.truncate(1020);
    value.push_str("\"}");
    Bytes::from(value)
}

fn fetch_bytes(compression: Compression) -> Bytes {
    let mut buf = BytesMut::new();
    for b in 0..BATCHES {
        let records: Vec<Record> = (b * PER_BATCH..(b + 1) * PER_BATCH)
            .map(|offset| Record {
                transactional: false,
                control: false,
                delete_horizon: false,
                partition_leader_epoch: 0,
                producer_id: -1,
                producer_epoch: -1,
                timestamp_type: TimestampType::Creation,
                offset,
                sequence: -1,
                timestamp: 1_700_000_000_000 + offset,
                key: Some(Bytes::from(format!("key-{offset}"))),
                value: Some(json_value(offset)),
                headers: IndexMap::new(),
            })
            .collect();
        RecordBatchEncoder::encode(
            &mut buf,
            &records,
            &RecordEncodeOptions {
                version: 2,
                compression,
            },
        )
        .expect("encodes");
    }
    buf.freeze()
}

fn decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("browse_decode_1KiB_json");
    group.throughput(Throughput::Elements(
        u64::try_from(PER_BATCH * BATCHES).unwrap(),
    ));
    for (name, compression) in [
        ("none", Compression::None),
        ("lz4", Compression::Lz4),
        ("zstd", Compression::Zstd),
    ] {
        let bytes = fetch_bytes(compression);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut records = 0usize;
                for item in batch::items(&bytes, 0, 64 << 20) {
                    if let batch::Item::Batch { records: r, .. } = item {
                        records += r.len();
                    }
                }
                assert_eq!(records, 10_000);
                records
            });
        });
    }
    group.finish();
}

criterion_group!(benches, decode);
criterion_main!(benches);
