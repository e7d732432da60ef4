//! Decode arbitrary bytes as a Confluent-framed value through the schema
//! decoders (`schema::decoder::decode_with`, as `kscope consume` and the
//! Messages screen do once a schema id is cached): the first input byte picks
//! the schema — an Avro record using every Avro type and the logical types
//! kscope renders, a recursive Avro record (a linked list), a Protobuf file
//! with several top-level and nested messages (so the message-index list
//! matters), maps, oneofs, enums and repeated fields, or JSON Schema — and
//! the rest is the payload after the magic byte and schema id. The wire
//! prefix parser sees the whole input too. The schemas are compiled in
//! process (no registry).
#![no_main]

use std::sync::OnceLock;

use kscope::schema::avro::AvroSchema;
use kscope::schema::decoder::decode_with;
use kscope::schema::fetch::{Compiled, Format, SchemaInfo};
use kscope::schema::protobuf::ProtobufSchema;
use kscope::schema::wire;

const AVRO: &str = r#"{"type":"record","name":"Everything","namespace":"fuzz","fields":[
 {"name":"s","type":"string"},{"name":"b","type":"bytes"},{"name":"i","type":"int"},
 {"name":"l","type":"long"},{"name":"f","type":"float"},{"name":"d","type":"double"},
 {"name":"t","type":"boolean"},{"name":"n","type":"null"},
 {"name":"e","type":{"type":"enum","name":"Colour","symbols":["RED","GREEN","BLUE"]}},
 {"name":"x","type":{"type":"fixed","name":"Four","size":4}},
 {"name":"a","type":{"type":"array","items":"long"}},
 {"name":"m","type":{"type":"map","values":"string"}},
 {"name":"u","type":["null","string","long",{"type":"array","items":"int"}]},
 {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":20,"scale":4}},
 {"name":"fdec","type":{"type":"fixed","name":"Sixteen","size":16,"logicalType":"decimal","precision":30,"scale":2}},
 {"name":"uuid","type":{"type":"string","logicalType":"uuid"}},
 {"name":"date","type":{"type":"int","logicalType":"date"}},
 {"name":"tms","type":{"type":"int","logicalType":"time-millis"}},
 {"name":"tus","type":{"type":"long","logicalType":"time-micros"}},
 {"name":"tsm","type":{"type":"long","logicalType":"timestamp-millis"}},
 {"name":"tsu","type":{"type":"long","logicalType":"timestamp-micros"}},
 {"name":"ltm","type":{"type":"long","logicalType":"local-timestamp-millis"}},
 {"name":"dur","type":{"type":"fixed","name":"Twelve","size":12,"logicalType":"duration"}},
 {"name":"inner","type":{"type":"record","name":"Inner","fields":[
   {"name":"k","type":"string"},{"name":"v","type":["null","Inner"],"default":null}]}}]}"#;

const AVRO_RECURSIVE: &str = r#"{"type":"record","name":"Node","namespace":"fuzz","fields":[
 {"name":"value","type":"long"},{"name":"next","type":["null","Node"]}]}"#;

const PROTO: &str = r#"syntax = "proto3";
package fuzz;
message First { string a = 1; }
message Everything {
  string s = 1; bytes b = 2; int32 i32 = 3; int64 i64 = 4; uint32 u32 = 5; uint64 u64 = 6;
  sint32 s32 = 7; sint64 s64 = 8; fixed32 f32 = 9; fixed64 f64 = 10; sfixed32 sf32 = 11;
  sfixed64 sf64 = 12; float fl = 13; double db = 14; bool t = 15; Colour colour = 16;
  repeated int64 numbers = 17; repeated string words = 18; map<string, Inner> by_name = 19;
  map<int32, string> by_id = 20; Inner inner = 21; repeated Inner inners = 22;
  oneof choice { string text = 23; int64 number = 24; Inner nested = 25; }
  optional string maybe = 26;
  enum Colour { RED = 0; GREEN = 1; BLUE = 2; }
  message Inner { string k = 1; Inner next = 2; repeated double points = 3; }
}
message Last { Everything.Inner inner = 1; }
"#;

fn info(format: Format, compiled: Compiled) -> SchemaInfo {
    SchemaInfo {
        id: 1,
        format,
        subject: Some("fuzz-value".to_owned()),
        version: Some(1),
        compiled,
    }
}

fn schemas() -> &'static [SchemaInfo; 4] {
    static SCHEMAS: OnceLock<[SchemaInfo; 4]> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        kscope::schema::avro::limit_allocations();
        let avro = AvroSchema::parse(AVRO, &[]).expect("the Avro schema");
        let recursive = AvroSchema::parse(AVRO_RECURSIVE, &[]).expect("the recursive schema");
        let proto = ProtobufSchema::parse(PROTO, &[]).expect("the Protobuf schema");
        [
            info(Format::Avro, Compiled::Avro(Box::new(avro))),
            info(Format::Avro, Compiled::Avro(Box::new(recursive))),
            info(Format::Protobuf, Compiled::Protobuf(proto)),
            info(Format::JsonSchema, Compiled::JsonSchema),
        ]
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = wire::split(data);
    let Some((&which, payload)) = data.split_first() else {
        return;
    };
    let schema = &schemas()[usize::from(which % 4)];
    let _ = decode_with(schema, payload);
});
