//! Confluent-framed records on the Messages screen: decoded with schemas the
//! worker fetched (handed to `update` as [`Action::Schema`], as the worker
//! would), whole-screen snapshots of the list and of the detail per format
//! (Avro, Protobuf, JSON Schema) at 80 and 150 columns, and the markers for
//! a schema being fetched and one the registry does not know. No terminal,
//! no cluster, no registry: the schemas are compiled here from their text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use kscope::app::failure::{Failure, Kind};
use kscope::app::screens::{self, schemas};
use kscope::app::{Action, AppState, Code, Effect, update};
use kscope::browse::Record;
use kscope::meta::MetadataSnapshot;
use kscope::schema::avro::AvroSchema;
use kscope::schema::fetch::{Compiled, Format, SchemaInfo};
use kscope::schema::protobuf::ProtobufSchema;

mod screens_fixture;

use screens_fixture::{browse_session, cluster, feed, keys, press, render, state};

const AVRO: &str = r#"{"type":"record","name":"Order","namespace":"demo","fields":[
 {"name":"id","type":"long"},
 {"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID"]}},
 {"name":"customer","type":"string"},
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

fn avro_value() -> Vec<u8> {
    use apache_avro::types::Value;
    let schema = apache_avro::Schema::parse_str(AVRO).expect("the Avro schema");
    let record = Value::Record(vec![
        ("id".to_owned(), Value::Long(1042)),
        ("status".to_owned(), Value::Enum(1, "PAID".to_owned())),
        ("customer".to_owned(), Value::String("ada".to_owned())),
        (
            "note".to_owned(),
            Value::Union(1, Box::new(Value::String("gift wrap".to_owned()))),
        ),
    ]);
    // The one-call encoder is enough to build an input.
    #[allow(deprecated)]
    let body = apache_avro::to_avro_datum(&schema, record).expect("encodes");
    framed(1, &body)
}

fn protobuf_value() -> Vec<u8> {
    // Message index [0] (a single 0 byte), then Payment { id: "p-7",
    // cents: 1250, card: { brand: "visa", last4: "4242" } }.
    let mut payload = vec![0, 0x0a, 3, b'p', b'-', b'7', 0x10, 0xe2, 0x09, 0x1a, 12];
    payload.extend_from_slice(&[0x0a, 4, b'v', b'i', b's', b'a', 0x12, 4]);
    payload.extend_from_slice(b"4242");
    framed(2, &payload)
}

fn json_value() -> Vec<u8> {
    framed(3, br#"{"user":"ada","active":true,"tags":["a","b"]}"#)
}

/// A record of partition 0.
fn record(offset: i64, key: Option<&[u8]>, value: &[u8]) -> Record {
    screens_fixture::record(0, offset, key, Some(value))
}

/// Offsets 10..=14: Avro (with a JSON Schema key), Protobuf, JSON Schema,
/// an id the registry does not know, an id whose fetch has not answered.
fn sample() -> Vec<Record> {
    vec![
        record(10, Some(&framed(3, br#"{"k":1}"#)), &avro_value()),
        record(11, Some(b"pay-7"), &protobuf_value()),
        record(12, Some(b"user-ada"), &json_value()),
        record(13, Some(b"ghost"), &framed(99, &[2, 4, 6])),
        record(14, Some(b"later"), &framed(5, &[1, 2, 3])),
    ]
}

fn info(id: u32, format: Format, subject: &str, compiled: Compiled) -> Arc<SchemaInfo> {
    Arc::new(SchemaInfo {
        id,
        format,
        subject: Some(subject.to_owned()),
        version: Some(i32::try_from(id).expect("small") + 1),
        compiled,
    })
}

fn schemas() -> Vec<(u32, Result<Arc<SchemaInfo>, Failure>)> {
    vec![
        (
            1,
            Ok(info(
                1,
                Format::Avro,
                "orders-value",
                Compiled::Avro(Box::new(AvroSchema::parse(AVRO, &[]).expect("avro"))),
            )),
        ),
        (
            2,
            Ok(info(
                2,
                Format::Protobuf,
                "payments-value",
                Compiled::Protobuf(ProtobufSchema::parse(PROTO, &[]).expect("proto")),
            )),
        ),
        (
            3,
            Ok(info(
                3,
                Format::JsonSchema,
                "users-value",
                Compiled::JsonSchema,
            )),
        ),
        (
            99,
            Err(Failure::new(
                Kind::Final,
                "schema id 99 not found in the registry",
            )),
        ),
    ]
}

/// Open Messages of `orders` partition 0 with a registry configured, feed
/// the sample and answer every fetch but id 5's; returns the fetches asked.
fn open(s: &mut AppState, snap: &MetadataSnapshot) -> Vec<u32> {
    s.screens.messages.schemas.enabled = true;
    keys(s, snap, "/orders");
    press(s, snap, Code::Enter);
    press(s, snap, Code::Enter);
    let effects = press(s, snap, Code::Enter);
    let session = browse_session(&effects).expect("Enter on a partition starts a browse session");
    let effects = feed(s, snap, session, sample());
    let asked: Vec<u32> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::FetchSchema { id } => Some(*id),
            _ => None,
        })
        .collect();
    for (id, result) in schemas() {
        let again = update(s, Action::Schema { id, result }, snap);
        assert!(
            !again
                .iter()
                .any(|e| matches!(e, Effect::FetchSchema { .. })),
            "an id asked for is not asked again while its answer is pending or in: {again:?}"
        );
    }
    asked
}

fn both_widths(name: &str, setup: impl Fn(&mut AppState, &MetadataSnapshot)) {
    let snap = cluster();
    for (label, width, height) in [("narrow", 80, 24), ("wide", 150, 24)] {
        let mut s = state(&snap, width, height);
        s.screens.messages.utc_offset = 3600;
        setup(&mut s, &snap);
        insta::assert_snapshot!(format!("{name}_{label}"), render(&s, &snap));
    }
}

/// Open the record at row `row` (0 = offset 10).
fn detail(s: &mut AppState, snap: &MetadataSnapshot, row: usize) {
    press(s, snap, Code::Home);
    for _ in 0..row {
        press(s, snap, Code::Down);
    }
    press(s, snap, Code::Enter);
}

#[test]
fn each_distinct_schema_id_on_screen_is_asked_for_once() {
    let snap = cluster();
    let mut s = state(&snap, 80, 24);
    let mut asked = open(&mut s, &snap);
    asked.sort_unstable();
    assert_eq!(asked, [1, 2, 3, 5, 99], "the key's id 3 is asked once");
}

#[test]
fn framed_records_list_decoded() {
    both_widths("schemas_messages", |s, snap| {
        open(s, snap);
    });
}

#[test]
fn avro_detail() {
    both_widths("schemas_avro_detail", |s, snap| {
        open(s, snap);
        detail(s, snap, 0);
    });
}

#[test]
fn protobuf_detail() {
    both_widths("schemas_protobuf_detail", |s, snap| {
        open(s, snap);
        detail(s, snap, 1);
    });
}

#[test]
fn jsonschema_detail() {
    both_widths("schemas_jsonschema_detail", |s, snap| {
        open(s, snap);
        detail(s, snap, 2);
    });
}

#[test]
fn unknown_and_pending_ids_are_marked_with_their_bytes() {
    let snap = cluster();
    let mut s = state(&snap, 80, 24);
    open(&mut s, &snap);
    detail(&mut s, &snap, 3);
    let screen = render(&s, &snap);
    assert!(
        screen.contains("not decoded: schema id 99 not found in the registry"),
        "{screen}"
    );
    assert!(screen.contains("00000000  02 04 06"), "{screen}");
    press(&mut s, &snap, Code::Esc);
    detail(&mut s, &snap, 4);
    let screen = render(&s, &snap);
    assert!(screen.contains("schema id 5: decoding…"), "{screen}");
    assert!(screen.contains("00000000  01 02 03"), "{screen}");
    // The answer lands while the record is open: it is laid out again.
    let landed = Failure::new(
        Kind::Transient,
        "schema registry 'http://127.0.0.1:9' unreachable: refused",
    );
    update(
        &mut s,
        Action::Schema {
            id: 5,
            result: Err(landed),
        },
        &snap,
    );
    let screen = render(&s, &snap);
    assert!(screen.contains("not decoded: schema registry"), "{screen}");
}

#[test]
fn a_schema_format_shows_only_its_own_format_decoded() {
    let snap = cluster();
    let mut s = state(&snap, 150, 24);
    open(&mut s, &snap);
    keys(&mut s, &snap, ":format protobuf");
    press(&mut s, &snap, Code::Enter);
    let screen = render(&s, &snap);
    assert!(screen.contains("[schema 1 not decoded]"), "{screen}");
    assert!(screen.contains(r#"{"id":"p-7","cents":1250"#), "{screen}");
    detail(&mut s, &snap, 0);
    let screen = render(&s, &snap);
    assert!(
        screen.contains("not decoded: schema id 1 is avro, not protobuf"),
        "{screen}"
    );
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, ":format hex");
    press(&mut s, &snap, Code::Enter);
    let screen = render(&s, &snap);
    assert!(screen.contains("00 00 00 00 02 00 0a 03"), "{screen}");
}

fn version_rows() -> Vec<kscope::schema::subjects::VersionRow> {
    use kscope::schema::subjects::VersionRow;
    let row = |subject: &str, version, latest, id, schema_type, schema: &str| VersionRow {
        subject: subject.to_owned(),
        version,
        latest,
        id,
        schema_type,
        compatibility: Some("BACKWARD".to_owned()),
        references: Vec::new(),
        schema: schema.to_owned(),
    };
    vec![
        row("orders-value", 1, false, 1, "avro", AVRO),
        row("orders-value", 2, true, 4, "avro", AVRO),
        VersionRow {
            references: vec![("common/money.proto".to_owned(), "money-value".to_owned(), 1)],
            compatibility: Some("FULL_TRANSITIVE".to_owned()),
            ..row("payments-value", 1, true, 2, "protobuf", PROTO)
        },
        row(
            "users-value",
            1,
            true,
            3,
            "jsonschema",
            r#"{"type":"object","properties":{"user":{"type":"string"}}}"#,
        ),
    ]
}

/// `:schemas` with the list answered.
fn open_schemas(s: &mut AppState, snap: &MetadataSnapshot) {
    s.screens.messages.schemas.enabled = true;
    keys(s, snap, ":schemas");
    let effects = press(s, snap, Code::Enter);
    let request = effects
        .iter()
        .find_map(|e| match e {
            Effect::Query(screens::Query::Schemas(schemas::Query { request })) => Some(*request),
            _ => None,
        })
        .expect(":schemas asks for the list");
    let again = update(
        s,
        Action::Resize {
            width: s.width,
            height: s.height,
        },
        snap,
    );
    assert!(
        !again
            .iter()
            .any(|e| matches!(e, Effect::Query(screens::Query::Schemas(_)))),
        "asked once while the answer is pending"
    );
    let result = Arc::new(Ok(version_rows()));
    let answer = screens::Msg::Schemas(schemas::Msg::Answer { request, result });
    update(s, Action::Screen(answer), snap);
}

#[test]
fn the_schemas_screen_lists_every_subject_version() {
    both_widths("schemas_subjects", |s, snap| {
        open_schemas(s, snap);
    });
}

#[test]
fn enter_shows_a_versions_schema_text() {
    both_widths("schemas_version_text", |s, snap| {
        open_schemas(s, snap);
        keys(s, snap, "/payments");
        press(s, snap, Code::Enter);
        press(s, snap, Code::Enter);
    });
}

#[test]
fn schemas_without_a_registry_is_a_notice() {
    let snap = cluster();
    let mut s = state(&snap, 80, 24);
    keys(&mut s, &snap, ":schemas");
    let effects = press(&mut s, &snap, Code::Enter);
    assert!(effects.is_empty(), "{effects:?}");
    let screen = render(&s, &snap);
    assert!(screen.contains("no schema registry"), "{screen}");
}

#[test]
fn the_subjects_are_asked_for_while_the_cluster_is_not_connected() {
    let snap = cluster();
    let mut s = state(&snap, 80, 24);
    s.screens.messages.schemas.enabled = true;
    s.link = kscope::app::Link::Connecting {
        attempt: 1,
        error: None,
        retrying: true,
    };
    keys(&mut s, &snap, ":schemas");
    let effects = press(&mut s, &snap, Code::Enter);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Query(screens::Query::Schemas(_)))),
        "the registry answers without the cluster: {effects:?}"
    );
}
