//! Schema-registry decoding through a warm schema cache: a typical 20-field
//! record (strings, ints, longs, doubles, booleans, a timestamp and a nested
//! record), Confluent-framed Avro and Protobuf, decoded to JSON by the same
//! `decode_with` the `Decoder` uses once an id is cached. BENCHMARK HARNESS:
//! the schemas are built in-process (no registry), labelled as such.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kscope::schema::avro::AvroSchema;
use kscope::schema::decoder::{Decoding, decode_with};
use kscope::schema::fetch::{Compiled, Format, SchemaInfo};
use kscope::schema::protobuf::ProtobufSchema;
use prost::Message as _;

/// Values decoded per iteration.
const RECORDS: u64 = 1_000;

const AVRO: &str = r#"{"type":"record","name":"Order","namespace":"bench","fields":[
 {"name":"id","type":"string"},{"name":"customer","type":"string"},{"name":"email","type":"string"},
 {"name":"country","type":"string"},{"name":"city","type":"string"},{"name":"status","type":"string"},
 {"name":"items","type":"int"},{"name":"quantity","type":"int"},{"name":"priority","type":"int"},
 {"name":"amount_cents","type":"long"},{"name":"tax_cents","type":"long"},{"name":"sequence","type":"long"},
 {"name":"discount","type":"double"},{"name":"weight","type":"double"},{"name":"score","type":"double"},
 {"name":"paid","type":"boolean"},{"name":"gift","type":"boolean"},
 {"name":"created","type":{"type":"long","logicalType":"timestamp-millis"}},
 {"name":"note","type":["null","string"]},
 {"name":"address","type":{"type":"record","name":"Address","fields":[
   {"name":"street","type":"string"},{"name":"zip","type":"string"}]}}]}"#;

const PROTO: &str = r#"syntax = "proto3";
package bench;
message Order {
  string id = 1; string customer = 2; string email = 3; string country = 4; string city = 5;
  string status = 6; int32 items = 7; int32 quantity = 8; int32 priority = 9;
  int64 amount_cents = 10; int64 tax_cents = 11; int64 sequence = 12; double discount = 13;
  double weight = 14; double score = 15; bool paid = 16; bool gift = 17; int64 created = 18;
  string note = 19; Address address = 20;
  message Address { string street = 1; string zip = 2; }
}
"#;

fn json_value(i: u64) -> serde_json::Value {
    serde_json::json!({
        "id": format!("order-{i}"), "customer": "customer-4711", "email": "someone@example.com",
        "country": "DE", "city": "Berlin", "status": "PAID", "items": 3, "quantity": 7,
        "priority": 2, "amount_cents": 129_900, "tax_cents": 20_700, "sequence": i,
        "discount": 0.15, "weight": 2.5, "score": 0.97, "paid": true, "gift": false,
        "created": 1_704_067_200_000_u64 + i, "note": "leave at the door",
        "address": {"street": "Unter den Linden 1", "zip": "10117"}
    })
}

fn framed(id: u32, index: &[u8], body: &[u8]) -> Vec<u8> {
    let mut out = vec![0];
    out.extend_from_slice(&id.to_be_bytes());
    out.extend_from_slice(index);
    out.extend_from_slice(body);
    out
}

fn avro_values(schema: &apache_avro::Schema) -> Vec<Vec<u8>> {
    use apache_avro::types::Value;
    (0..RECORDS)
        .map(|i| {
            let json = json_value(i);
            let mut fields = Vec::new();
            for (name, v) in json.as_object().unwrap() {
                let value = match (name.as_str(), v) {
                    ("created", v) => Value::TimestampMillis(v.as_i64().unwrap()),
                    ("note", v) => {
                        Value::Union(1, Box::new(Value::String(v.as_str().unwrap().into())))
                    }
                    ("address", v) => Value::Record(vec![
                        (
                            "street".into(),
                            Value::String(v["street"].as_str().unwrap().into()),
                        ),
                        (
                            "zip".into(),
                            Value::String(v["zip"].as_str().unwrap().into()),
                        ),
                    ]),
                    ("items" | "quantity" | "priority", v) => {
                        Value::Int(i32::try_from(v.as_i64().unwrap()).unwrap())
                    }
                    (_, serde_json::Value::String(s)) => Value::String(s.clone()),
                    (_, serde_json::Value::Bool(b)) => Value::Boolean(*b),
                    (_, serde_json::Value::Number(n)) if n.is_f64() => {
                        Value::Double(n.as_f64().unwrap())
                    }
                    (_, serde_json::Value::Number(n)) => Value::Long(n.as_i64().unwrap()),
                    other => panic!("unexpected field {other:?}"),
                };
                fields.push((name.clone(), value));
            }
            let apache_avro::Schema::Record(record) = schema else {
                panic!("a record schema")
            };
            // In schema order.
            let ordered: Vec<(String, Value)> = record
                .fields
                .iter()
                .map(|f| fields.iter().find(|(n, _)| *n == f.name).unwrap().clone())
                .collect();
            // The one-call encoder is enough to build inputs (its successor
            // needs a builder per schema); decoding is what is measured.
            #[allow(deprecated)]
            let body = apache_avro::to_avro_datum(schema, Value::Record(ordered)).unwrap();
            framed(1, &[], &body)
        })
        .collect()
}

fn protobuf_values(schema: &ProtobufSchema) -> Vec<Vec<u8>> {
    let descriptor = schema.message(&[0]).unwrap();
    (0..RECORDS)
        .map(|i| {
            let message =
                prost_reflect::DynamicMessage::deserialize(descriptor.clone(), json_value(i))
                    .unwrap();
            framed(2, &[0], &message.encode_to_vec())
        })
        .collect()
}

fn decode_all(info: &SchemaInfo, values: &[Vec<u8>]) -> usize {
    values
        .iter()
        .filter(|v| matches!(decode_with(info, &v[5..]), Decoding::Decoded(_)))
        .count()
}

fn bench(c: &mut Criterion) {
    let avro = AvroSchema::parse(AVRO, &[]).unwrap();
    let avro_values = avro_values(&apache_avro::Schema::parse_str(AVRO).unwrap());
    let avro = SchemaInfo {
        id: 1,
        format: Format::Avro,
        subject: Some("orders-value".into()),
        version: Some(1),
        compiled: Compiled::Avro(Box::new(avro)),
    };
    assert_eq!(
        decode_all(&avro, &avro_values),
        avro_values.len(),
        "every Avro value decodes"
    );
    let proto = ProtobufSchema::parse(PROTO, &[]).unwrap();
    let proto_values = protobuf_values(&proto);
    let proto = SchemaInfo {
        id: 2,
        format: Format::Protobuf,
        subject: Some("orders-value".into()),
        version: Some(1),
        compiled: Compiled::Protobuf(proto),
    };
    assert_eq!(
        decode_all(&proto, &proto_values),
        proto_values.len(),
        "every Protobuf value decodes"
    );

    let mut group = c.benchmark_group("schema_decode_20_fields");
    group.throughput(Throughput::Elements(RECORDS));
    group.bench_function("avro", |b| b.iter(|| decode_all(&avro, &avro_values)));
    group.bench_function("protobuf", |b| b.iter(|| decode_all(&proto, &proto_values)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
