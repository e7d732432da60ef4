//! A jq filter (`consume --filter`, the Messages `/` and `:find`) over 1M
//! records with a JSON value of a typical order (12 fields, a nested object,
//! an array), one compiled `JqFilter` reused for every record: the record
//! built as the jq input (`browse::jq::with_record_val`, as `consume` and
//! the Messages screen build it: the value parsed from its bytes, or given
//! as a schema's decoded JSON) and the expression run.
//! Goal (issue 29): at least 300k records/s. BENCHMARK HARNESS: records
//! built in memory, no cluster.
//!
//! With `KSCOPE_BENCH_CPU=1` the group is `jq_filter_cpu` and measures the
//! thread's CPU time instead of wall time (for a machine whose cores other
//! builds hold).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/cpu_time.rs"]
mod cpu_time;

use bytes::Bytes;
use criterion::measurement::Measurement;
use criterion::{Criterion, Throughput};
use kscope::browse::jq::{JqFilter, with_record_val};
use kscope::browse::json::{Field, RecordJson};
use kscope::browse::{Codec, Header, Record, TimestampType};

/// Records filtered per iteration.
const RECORDS: usize = 1_000_000;

const FILTER: &str = r#".value.status == "FAILED" and .value.address.country == "DE""#;

fn value(i: usize) -> String {
    let status = ["OK", "FAILED", "PENDING", "OK"][i % 4];
    let country = ["DE", "FR", "US"][i % 3];
    format!(
        r#"{{"id":"order-{i}","customer":"c-{c}","email":"c{c}@example.com","status":"{status}","items":{items},"amount_cents":{amount},"discount":0.{d},"paid":{paid},"created":"2024-01-01T12:00:00.123Z","note":null,"tags":["a","b{t}"],"address":{{"street":"Main St {i}","zip":"{zip:05}","country":"{country}"}}}}"#,
        c = i % 977,
        items = i % 9,
        amount = i * 37 % 100_000,
        d = i % 10,
        paid = i.is_multiple_of(2),
        t = i % 5,
        zip = i % 99_999,
    )
}

fn records() -> Vec<Record> {
    (0..RECORDS)
        .map(|i| {
            let value = value(i);
            Record {
                partition: i32::try_from(i % 12).unwrap(),
                offset: i64::try_from(i).unwrap(),
                leader_epoch: 3,
                timestamp: 1_700_000_000_000 + i64::try_from(i).unwrap(),
                timestamp_type: TimestampType::Create,
                key: Some(Bytes::from(format!("order-{i}"))),
                size: value.len() + 40,
                value: Some(Bytes::from(value)),
                headers: vec![Header {
                    key: Bytes::from_static(b"region"),
                    value: Some(Bytes::from_static(b"eu")),
                }],
                codec: Codec::None,
            }
        })
        .collect()
}

fn bench<M: Measurement>(c: &mut Criterion<M>, name: &str, records: &[Record]) {
    let filter = JqFilter::compile(FILTER).expect("compiles");
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(RECORDS as u64));
    group.bench_function("json_value_1m", |b| {
        b.iter(|| {
            let mut passed = 0_u64;
            for record in records {
                let json = RecordJson::plain("orders", record);
                if with_record_val(&json, |input| filter.passes(input).unwrap_or(false)) {
                    passed += 1;
                }
            }
            assert!(passed > 0);
            passed
        });
    });
    // The input alone (the record built, its value parsed), no expression.
    group.bench_function("input_only_1m", |b| {
        b.iter(|| {
            for record in records {
                with_record_val(&RecordJson::plain("orders", record), std::hint::black_box);
            }
        });
    });
    // The same values as a schema's decoding (what the registry gives).
    let decoded: Vec<serde_json::Value> = records
        .iter()
        .map(|r| serde_json::from_slice(r.value.as_deref().unwrap()).unwrap())
        .collect();
    group.bench_function("decoded_value_1m", |b| {
        b.iter(|| {
            let mut passed = 0_u64;
            for (record, json) in records.iter().zip(&decoded) {
                let json = RecordJson {
                    value: Field::Decoded {
                        json,
                        encoding: "avro",
                        schema_id: Some(1),
                    },
                    ..RecordJson::plain("orders", record)
                };
                if with_record_val(&json, |input| filter.passes(input).unwrap_or(false)) {
                    passed += 1;
                }
            }
            assert!(passed > 0);
            passed
        });
    });
    group.finish();
}

fn main() {
    let records = records();
    if std::env::var_os("KSCOPE_BENCH_CPU").is_some() {
        let mut c = Criterion::default()
            .with_measurement(cpu_time::CpuTime)
            .configure_from_args();
        bench(&mut c, "jq_filter_cpu", &records);
        c.final_summary();
    } else {
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c, "jq_filter", &records);
        c.final_summary();
    }
}
