//! The schema decoders on hostile input: garbage, truncations, huge length
//! prefixes, deep nesting and bad message indexes after a valid wire prefix
//! never panic, never abort, and never allocate what a length claims; each
//! is a `Decoding::Failed` marker (or a value, when the bytes happen to be
//! valid). Part of the hostile-input suite beside `conn_hostile` and the
//! fuzz targets.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use kscope::schema::avro::AvroSchema;
use kscope::schema::decoder::{Decoding, decode_with};
use kscope::schema::fetch::{Compiled, Format, SchemaInfo};
use kscope::schema::protobuf::ProtobufSchema;
use kscope::schema::wire;
use proptest::prelude::*;

const AVRO: &str = r#"{"type":"record","name":"R","fields":[
 {"name":"s","type":"string"},{"name":"b","type":"bytes"},
 {"name":"a","type":{"type":"array","items":"long"}},
 {"name":"m","type":{"type":"map","values":"string"}},
 {"name":"u","type":["null","double",{"type":"fixed","name":"F","size":4}]},
 {"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
 {"name":"t","type":{"type":"long","logicalType":"timestamp-micros"}}]}"#;

const RECURSIVE: &str = r#"{"type":"record","name":"Node","fields":[
 {"name":"next","type":["null","Node"]}]}"#;

const PROTO: &str = "syntax = \"proto3\";\nmessage Node { string name = 1; Node child = 2; repeated int64 n = 3; bytes raw = 4; map<string, Node> kids = 5; }\n";

fn info(compiled: Compiled, format: Format) -> SchemaInfo {
    SchemaInfo {
        id: 1,
        format,
        subject: None,
        version: None,
        compiled,
    }
}

fn schemas() -> Vec<SchemaInfo> {
    vec![
        info(
            Compiled::Avro(Box::new(AvroSchema::parse(AVRO, &[]).unwrap())),
            Format::Avro,
        ),
        info(
            Compiled::Avro(Box::new(AvroSchema::parse(RECURSIVE, &[]).unwrap())),
            Format::Avro,
        ),
        info(
            Compiled::Protobuf(ProtobufSchema::parse(PROTO, &[]).unwrap()),
            Format::Protobuf,
        ),
        info(Compiled::JsonSchema, Format::JsonSchema),
    ]
}

fn failed(decoding: &Decoding) -> bool {
    matches!(decoding, Decoding::Failed { .. })
}

#[test]
fn huge_length_prefixes_are_errors_not_allocations() {
    let schemas = schemas();
    // Avro string length 2^62 (zigzag varint), then nothing.
    let huge_string = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    assert!(failed(&decode_with(&schemas[0], &huge_string)));
    // A string of 400 MB claimed (below i32::MAX, above the lowered limit).
    let big = [0x80, 0xb5, 0xe9, 0xfd, 0x02];
    assert!(failed(&decode_with(&schemas[0], &big)));
    // An array block claiming 2^40 items.
    let array = [0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40];
    assert!(failed(&decode_with(&schemas[0], &array)));
    // Protobuf: message index count 2^31, then a length-delimited field claiming 2^32.
    assert!(failed(&decode_with(
        &schemas[2],
        &[0xfe, 0xff, 0xff, 0xff, 0x0f]
    )));
    assert!(failed(&decode_with(
        &schemas[2],
        &[0, 0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]
    )));
}

#[test]
fn deep_nesting_is_refused_or_decoded_without_overflowing_the_stack() {
    let schemas = schemas();
    // Avro: 100k levels of Node.next (union branch 1 = zigzag 2), then null:
    // over the recursive-schema limit, refused.
    let mut deep = vec![2_u8; 100_000];
    deep.push(0);
    assert!(failed(&decode_with(&schemas[1], &deep)));
    // Just under the limit: decoded on its own big stack.
    let mut deep = vec![2_u8; kscope::schema::avro::MAX_RECURSIVE_PAYLOAD - 1];
    deep.push(0);
    let Decoding::Decoded(decoded) = decode_with(&schemas[1], &deep) else {
        panic!("2k levels decode");
    };
    assert!(decoded.value["next"]["next"]["next"].is_object());
    // Protobuf: 10k nested `child` fields (prost's recursion limit refuses it).
    let mut nested: Vec<u8> = Vec::new();
    for _ in 0..10_000 {
        let mut outer = vec![0x12];
        let mut len = nested.len();
        while len >= 0x80 {
            outer.push(u8::try_from(len & 0x7f).unwrap() | 0x80);
            len >>= 7;
        }
        outer.push(u8::try_from(len).unwrap());
        outer.extend_from_slice(&nested);
        nested = outer;
        if nested.len() > 1 << 20 {
            break;
        }
    }
    let mut payload = vec![0];
    payload.extend_from_slice(&nested);
    assert!(failed(&decode_with(&schemas[2], &payload)));
    // JSON: serde_json's recursion limit.
    let json = "[".repeat(100_000);
    assert!(failed(&decode_with(&schemas[3], json.as_bytes())));
}

static SCHEMAS: std::sync::LazyLock<Vec<SchemaInfo>> = std::sync::LazyLock::new(schemas);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn garbage_after_the_prefix_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        for schema in SCHEMAS.iter() {
            let _ = decode_with(schema, &bytes);
        }
        let _ = wire::message_index(&bytes);
        let _ = wire::split(&bytes);
    }
}

/// An Avro array whose items take no bytes (`null`, an empty record) can
/// claim any count in a few bytes, and an array of such arrays multiplies
/// it past the reader's per-array allocation limit (82 bytes decoded to
/// 655,360 items before): values of such schemas are a marker. A huge count
/// of items that take bytes runs out of bytes or over the limit.
#[test]
fn huge_counts_are_markers_not_allocations() {
    let avro = |schema: &str| {
        info(
            Compiled::Avro(Box::new(AvroSchema::parse(schema, &[]).unwrap())),
            Format::Avro,
        )
    };
    let reason = |schema: &SchemaInfo, payload: &[u8]| match decode_with(schema, payload) {
        Decoding::Failed { reason, .. } => reason,
        other => panic!("decoded: {other:?}"),
    };
    // An outer block of 20 arrays, each a block of 32768 nulls, then the end.
    let mut nested_payload = vec![40];
    for _ in 0..20 {
        nested_payload.extend_from_slice(&[0x80, 0x80, 0x04, 0x00]);
    }
    nested_payload.push(0);
    let nested = avro(r#"{"type":"array","items":{"type":"array","items":"null"}}"#);
    let empties = avro(r#"{"type":"array","items":{"type":"record","name":"E","fields":[]}}"#);
    for (schema, payload) in [(&nested, &nested_payload[..]), (&empties, &[2, 0][..])] {
        let reason = reason(schema, payload);
        assert!(reason.contains("items that take no bytes"), "{reason}");
    }
    // A block of 2^40 longs; a map of 2^40 entries: over the limit, said plainly.
    let count = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x00];
    for schema in [
        r#"{"type":"array","items":"long"}"#,
        r#"{"type":"map","values":"null"}"#,
    ] {
        let reason = reason(&avro(schema), &count);
        assert!(reason.contains("over the 16 MiB"), "{schema}: {reason}");
        assert!(!reason.contains("max_allocation_bytes"), "{reason}");
    }
    // Protobuf: a repeated field's items each take bytes: a count cannot be
    // claimed, and a packed run claiming 2^32 bytes is a marker.
    assert!(failed(&decode_with(
        &schemas()[2],
        &[0, 0x1a, 0xff, 0xff, 0xff, 0xff, 0x0f, 1]
    )));
}
