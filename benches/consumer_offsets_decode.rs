//! `__consumer_offsets` decode throughput (issue 29: ≥ 1M records/s): 10,000
//! records, nine offset commits (key v1, value v3) to one group metadata
//! record (value v3, three members), each decoded, and decoded then written
//! as the `decoded` JSON object `consume -o json` adds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kscope::browse::internal;

const RECORDS: usize = 10_000;

fn str16(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&i16::try_from(s.len()).unwrap().to_be_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn commit(n: usize) -> (Vec<u8>, Vec<u8>) {
    let mut key = 1_i16.to_be_bytes().to_vec();
    str16(&mut key, &format!("billing-service-{}", n % 17));
    str16(&mut key, &format!("orders.eu-west-1.v{}", n % 5));
    key.extend_from_slice(&i32::try_from(n % 64).unwrap().to_be_bytes());
    let mut value = 3_i16.to_be_bytes().to_vec();
    value.extend_from_slice(&i64::try_from(n * 31).unwrap().to_be_bytes());
    value.extend_from_slice(&7_i32.to_be_bytes());
    str16(&mut value, "");
    value.extend_from_slice(&1_700_000_000_000_i64.to_be_bytes());
    (key, value)
}

fn group(n: usize) -> (Vec<u8>, Vec<u8>) {
    let mut key = 2_i16.to_be_bytes().to_vec();
    str16(&mut key, &format!("billing-service-{}", n % 17));
    let mut value = 3_i16.to_be_bytes().to_vec();
    str16(&mut value, "consumer");
    value.extend_from_slice(&42_i32.to_be_bytes());
    str16(&mut value, "range");
    str16(
        &mut value,
        "consumer-1-6f1c2a9e-1b7d-4e55-9a51-0e6c1d2a3b4c",
    );
    value.extend_from_slice(&1_700_000_000_000_i64.to_be_bytes());
    value.extend_from_slice(&3_i32.to_be_bytes());
    for m in 0..3 {
        str16(
            &mut value,
            &format!("consumer-{m}-6f1c2a9e-1b7d-4e55-9a51-0e6c1d2a3b4c"),
        );
        value.extend_from_slice(&(-1_i16).to_be_bytes());
        str16(&mut value, &format!("consumer-{m}"));
        str16(&mut value, "/10.1.2.3");
        value.extend_from_slice(&300_000_i32.to_be_bytes());
        value.extend_from_slice(&45_000_i32.to_be_bytes());
        for len in [40_usize, 60] {
            value.extend_from_slice(&i32::try_from(len).unwrap().to_be_bytes());
            value.extend(std::iter::repeat_n(7_u8, len));
        }
    }
    (key, value)
}

const TOPIC: &str = internal::CONSUMER_OFFSETS;

fn bench(c: &mut Criterion) {
    let records: Vec<(Vec<u8>, Vec<u8>)> = (0..RECORDS)
        .map(|n| if n % 10 == 9 { group(n) } else { commit(n) })
        .collect();
    for (key, value) in &records {
        let decoded = internal::decode(TOPIC, Some(key), Some(value)).expect("decodes");
        assert!(!matches!(
            decoded,
            internal::Decoded::Offsets(internal::consumer_offsets::Decoded {
                value: internal::consumer_offsets::Value::Error(_),
                ..
            })
        ));
    }
    let mut g = c.benchmark_group("consumer_offsets_decode");
    g.throughput(Throughput::Elements(RECORDS as u64));
    g.bench_function("decode", |b| {
        b.iter(|| {
            records
                .iter()
                .filter(|(k, v)| internal::decode(TOPIC, Some(k), Some(v)).is_ok())
                .count()
        });
    });
    g.bench_function("decode_and_json", |b| {
        let mut out = Vec::with_capacity(1 << 20);
        b.iter(|| {
            out.clear();
            for (key, value) in &records {
                internal::write_json(&internal::decode(TOPIC, Some(key), Some(value)), &mut out);
            }
            out.len()
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
