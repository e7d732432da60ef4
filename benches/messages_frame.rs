//! The Messages screen with a full ring (10,000 records of 1 KiB JSON
//! values): one whole frame, a filter keystroke (a substring that narrows,
//! then one that must re-scan the whole ring), and the record detail's
//! frame; and a full ring of Confluent-framed Avro and Protobuf records
//! with their schemas answered, whose frame must cost what plain text
//! costs (cells are decoded in `update`, never while drawing). Records and
//! schemas are fabricated here and handed to `update` as a browse session
//! and the worker would (no cluster, no registry): a benchmark harness,
//! labelled as such.

use std::sync::Arc;

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};

use kscope::app::screens::messages::effect::Effect as MessagesEffect;
use kscope::app::{Action, AppState, Code, Effect, Key, update};
use kscope::browse::{Codec, Header, Record, TimestampType};
use kscope::meta::MetadataSnapshot;
use kscope::paint::theme::Theme;
use kscope::schema::avro::AvroSchema;
use kscope::schema::fetch::{Compiled, Format, SchemaInfo};
use kscope::schema::protobuf::ProtobufSchema;

#[path = "support/frame.rs"]
mod frame;

use frame::{cluster, ready};

const RECORDS: i64 = 10_000;

/// A 1 KiB JSON value.
fn record(offset: i64) -> Record {
    let mut value = format!(
        r#"{{"order_id":"ord-{offset:08}","customer":"cust-{}","status":"PAID","items":["#,
        offset % 997
    );
    while value.len() < 1000 {
        value.push_str(r#"{"sku":"SKU-12345","qty":2,"price":19.99},"#);
    }
    value.push_str(r#"{"sku":"last","qty":1,"price":1.0}]}"#);
    Record {
        partition: 0,
        offset,
        leader_epoch: 1,
        timestamp: 1_800_000_000_000 + offset,
        timestamp_type: TimestampType::Create,
        key: Some(Bytes::from(format!("ord-{offset:08}"))),
        value: Some(Bytes::from(value)),
        headers: vec![Header {
            key: Bytes::from_static(b"trace-id"),
            value: Some(Bytes::from(format!("t-{offset}"))),
        }],
        codec: Codec::Lz4,
        size: 1100,
    }
}

/// The Messages screen of `orders` partition 0 with a full ring.
fn full(snap: &MetadataSnapshot) -> AppState {
    full_of(snap, record, false)
}

const AVRO: &str = r#"{"type":"record","name":"Order","namespace":"demo","fields":[
 {"name":"id","type":"long"},
 {"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID"]}},
 {"name":"customer","type":"string"},
 {"name":"items","type":{"type":"array","items":"string"}},
 {"name":"note","type":["null","string"],"default":null}]}"#;

const PROTO: &str = "syntax = \"proto3\";\npackage demo;\n\
    message Payment { string id = 1; int64 cents = 2; Card card = 3; }\n\
    message Card { string brand = 1; string last4 = 2; }\n";

fn framed(id: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0];
    out.extend_from_slice(&id.to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// Even offsets: an Avro order (~1 KiB); odd: a Protobuf payment.
fn framed_record(offset: i64) -> Record {
    let value = if offset % 2 == 0 {
        use apache_avro::types::Value;
        let schema = apache_avro::Schema::parse_str(AVRO).expect("the Avro schema");
        let items = (0..40)
            .map(|i| Value::String(format!("SKU-{i:05}-{offset}")))
            .collect();
        let order = Value::Record(vec![
            ("id".to_owned(), Value::Long(offset)),
            ("status".to_owned(), Value::Enum(1, "PAID".to_owned())),
            (
                "customer".to_owned(),
                Value::String(format!("cust-{}", offset % 997)),
            ),
            ("items".to_owned(), Value::Array(items)),
            ("note".to_owned(), Value::Union(0, Box::new(Value::Null))),
        ]);
        #[allow(deprecated)]
        let body = apache_avro::to_avro_datum(&schema, order).expect("encodes");
        framed(1, &body)
    } else {
        let mut payload = vec![0, 0x0a, 3, b'p', b'-', b'7', 0x10, 0xe2, 0x09, 0x1a, 12];
        payload.extend_from_slice(&[0x0a, 4, b'v', b'i', b's', b'a', 0x12, 4]);
        payload.extend_from_slice(b"4242");
        framed(2, &payload)
    };
    Record {
        value: Some(Bytes::from(value)),
        ..record(offset)
    }
}

fn schema_answers() -> Vec<(u32, Arc<SchemaInfo>)> {
    let info = |id: u32, format: Format, compiled: Compiled| {
        Arc::new(SchemaInfo {
            id,
            format,
            subject: Some(format!("subject-{id}")),
            version: Some(1),
            compiled,
        })
    };
    vec![
        (
            1,
            info(
                1,
                Format::Avro,
                Compiled::Avro(Box::new(AvroSchema::parse(AVRO, &[]).expect("avro"))),
            ),
        ),
        (
            2,
            info(
                2,
                Format::Protobuf,
                Compiled::Protobuf(ProtobufSchema::parse(PROTO, &[]).expect("proto")),
            ),
        ),
    ]
}

/// The Messages screen with a full ring of `make(offset)` records; with
/// `registry`, the schemas the screen asks for are answered.
fn full_of(snap: &MetadataSnapshot, make: fn(i64) -> Record, registry: bool) -> AppState {
    let mut state = ready(snap);
    state.screens.messages.schemas.enabled = registry;
    update(&mut state, Action::Key(Key::plain(Code::Enter)), snap);
    let effects = update(&mut state, Action::Key(Key::plain(Code::Enter)), snap);
    let session = effects
        .iter()
        .find_map(|e| match e {
            Effect::Messages(MessagesEffect::Browse { session, .. }) => Some(*session),
            _ => None,
        })
        .expect("Enter on a partition opens Messages");
    let records = (0..RECORDS).map(make).collect();
    update(
        &mut state,
        Action::Screen(kscope::app::screens::Msg::Messages(
            kscope::app::screens::messages::Msg::Browsed {
                session,
                records,
                dropped: 0,
                notices: Vec::new(),
                failed: None,
            },
        )),
        snap,
    );
    assert_eq!(state.view().rows.len(), 10_000, "a full ring");
    if registry {
        for (id, info) in schema_answers() {
            update(
                &mut state,
                Action::Schema {
                    id,
                    result: Ok(info),
                },
                snap,
            );
        }
        assert!(
            state.screens.messages.decoded.made > 0,
            "the rows on screen were decoded"
        );
    }
    state
}

/// A keystroke and a frame per iteration on a full ring with `filter` typed:
/// alternately `extra` and Backspace.
fn keystroke(c: &mut Criterion, name: &str, snap: &MetadataSnapshot, filter: &str, extra: char) {
    let theme = Theme::mono();
    let mut state = full(snap);
    for ch in filter.chars() {
        update(&mut state, Action::Key(Key::char(ch)), snap);
    }
    let mut terminal = frame::terminal();
    let mut typed = 0_u32;
    c.bench_function(name, |b| {
        b.iter(|| {
            typed += 1;
            let key = if typed % 2 == 1 {
                Key::char(extra)
            } else {
                Key::plain(Code::Backspace)
            };
            update(&mut state, Action::Key(key), snap);
            frame::draw(&mut terminal, &state, snap, &theme);
        });
    });
}

fn benches(c: &mut Criterion) {
    let theme = Theme::mono();
    let snap = cluster(1, 1);
    let state = full(&snap);
    let mut terminal = frame::terminal();
    c.bench_function("messages_frame_full_ring_10k_1KiB", |b| {
        b.iter(|| frame::draw(&mut terminal, &state, &snap, &theme));
    });
    // The same frame with every row Avro or Protobuf, decoded.
    let decoded = full_of(&snap, framed_record, true);
    c.bench_function("messages_frame_full_ring_10k_avro_protobuf", |b| {
        b.iter(|| frame::draw(&mut terminal, &decoded, &snap, &theme));
    });

    // Typing one more character of a substring that narrows: only the
    // rows that matched before are checked. Then deleting it: the whole
    // ring is scanned again.
    keystroke(
        c,
        "messages_filter_keystroke_full_ring",
        &snap,
        "/ord-0000",
        '9',
    );
    // A regex: each keystroke re-scans the ring.
    keystroke(
        c,
        "messages_filter_keystroke_regex_rescan",
        &snap,
        "/~status.:.PAID",
        'x',
    );

    let mut state = full(&snap);
    update(&mut state, Action::Key(Key::plain(Code::Enter)), &snap);
    c.bench_function("messages_record_detail_frame", |b| {
        b.iter(|| frame::draw(&mut terminal, &state, &snap, &theme));
    });
}

criterion_group!(messages, benches);
criterion_main!(messages);
