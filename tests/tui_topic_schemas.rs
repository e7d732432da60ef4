//! Values without the wire prefix on the Messages screen, decoded by the
//! topic's mapping (`[[contexts.NAME.topic_schemas]]`, here a local `.avsc`):
//! the screen asks the worker once to compile the mapping
//! ([`Effect::PrepareMapping`]), marks the values meanwhile, and once the
//! worker's answer lands ([`Action::MappingPrepared`], after it ran
//! `Mappings::prepare` as the loop does) shows them decoded in the list and
//! the detail; a value the schema cannot read is marked with its bytes. No
//! terminal, no cluster, no registry.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::Bytes;
use kscope::app::{Action, AppState, Code, Effect, update};
use kscope::browse::{Codec, Record, TimestampType};
use kscope::meta::MetadataSnapshot;
use kscope::schema::mapping::{Mappings, Source, TopicSchema};

mod screens_fixture;

use screens_fixture::{browse_session, cluster, feed, keys, press, render, state};

const AVSC: &str = r#"{"type":"record","name":"Order","fields":[
 {"name":"id","type":"long"},{"name":"customer","type":"string"}]}"#;

/// An Avro long: zigzag, then a little-endian base-128 varint.
fn avro_long(out: &mut Vec<u8>, v: i64) {
    let mut z = u64::from_ne_bytes(((v << 1) ^ (v >> 63)).to_ne_bytes());
    while z >= 0x80 {
        out.push(u8::try_from(z & 0x7f).expect("7 bits") | 0x80);
        z >>= 7;
    }
    out.push(u8::try_from(z).expect("7 bits"));
}

/// Raw Avro (no wire prefix) of `{"id": id, "customer": customer}`.
fn raw_avro(id: i64, customer: &str) -> Vec<u8> {
    let mut out = Vec::new();
    avro_long(&mut out, id);
    avro_long(&mut out, i64::try_from(customer.len()).expect("short"));
    out.extend_from_slice(customer.as_bytes());
    out
}

fn record(offset: i64, value: &[u8]) -> Record {
    Record {
        partition: 0,
        offset,
        leader_epoch: 3,
        timestamp: 1_800_000_000_000 + offset * 1_000,
        timestamp_type: TimestampType::Create,
        key: Some(Bytes::from_static(b"k")),
        value: Some(Bytes::copy_from_slice(value)),
        headers: vec![],
        codec: Codec::None,
        size: 20 + value.len(),
    }
}

fn prepares(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::PrepareMapping { topic } if topic == "orders"))
        .count()
}

/// Open Messages of `orders` partition 0 and feed two raw Avro values and
/// one the schema cannot read; how many times the mapping was asked for.
fn open(s: &mut AppState, snap: &MetadataSnapshot) -> usize {
    let mut asked = prepares(&keys(s, snap, "/orders"));
    asked += prepares(&press(s, snap, Code::Enter));
    asked += prepares(&press(s, snap, Code::Enter));
    let effects = press(s, snap, Code::Enter);
    asked += prepares(&effects);
    let session = browse_session(&effects).expect("Enter on a partition starts a browse session");
    let records = vec![
        record(10, &raw_avro(1042, "ada")),
        record(11, &raw_avro(7, "grace")),
        record(12, &[0xff]),
    ];
    asked + prepares(&feed(s, snap, session, records))
}

#[test]
fn raw_values_decode_with_the_topics_local_schema_once_it_is_compiled() {
    let dir = tempfile::tempdir().expect("tempdir");
    let avsc = dir.path().join("order.avsc");
    std::fs::write(&avsc, AVSC).expect("write the schema");
    let snap = cluster();
    let mut s = state(&snap, 150, 24);
    s.screens.messages.schemas.mappings = Mappings::new(vec![TopicSchema {
        topic: regex::Regex::new("^orders$").expect("regex"),
        source: Source::Avro(avsc),
    }]);
    assert_eq!(open(&mut s, &snap), 1, "the mapping is asked for once");
    let before = render(&s, &snap);
    assert!(before.contains("[topic schema decoding…]"), "{before}");
    assert!(!before.contains(r#""customer":"ada""#), "{before}");

    // What the loop does for Effect::PrepareMapping, then its answer.
    s.screens.messages.schemas.mappings.prepare("orders", None);
    let again = update(
        &mut s,
        Action::MappingPrepared {
            topic: "orders".to_owned(),
        },
        &snap,
    );
    assert_eq!(prepares(&again), 0, "a compiled mapping is not asked again");
    let list = render(&s, &snap);
    assert!(
        list.contains(r#"{"customer":"ada","id":1042}"#)
            || list.contains(r#"{"id":1042,"customer":"ada"}"#),
        "{list}"
    );
    assert!(list.contains(r#""grace""#), "{list}");
    assert!(list.contains("[topic schema not decoded] ff"), "{list}");

    press(&mut s, &snap, Code::Home);
    press(&mut s, &snap, Code::Enter);
    let detail = render(&s, &snap);
    assert!(detail.contains("the topic's local schema file"), "{detail}");
    assert!(detail.contains(r#""customer": "ada""#), "{detail}");
    assert!(detail.contains(r#""id": 1042"#), "{detail}");
}
