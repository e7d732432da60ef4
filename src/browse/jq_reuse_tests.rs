use super::*;
use crate::browse::json::Field;
use crate::browse::{Codec, Header, Record, TimestampType};
use bytes::Bytes;

fn record(offset: i64, key: &'static str, value: &'static str, headers: usize) -> Record {
    Record {
        partition: 1,
        offset,
        leader_epoch: 2,
        timestamp: 1_700_000_000_000 + offset,
        timestamp_type: if offset % 2 == 0 {
            TimestampType::Create
        } else {
            TimestampType::LogAppend
        },
        key: Some(Bytes::from_static(key.as_bytes())),
        value: Some(Bytes::from_static(value.as_bytes())),
        headers: (0..headers)
            .map(|n| Header {
                key: Bytes::from(format!("h{n}")),
                value: Some(Bytes::from_static(b"v")),
            })
            .collect(),
        codec: if offset % 3 == 0 {
            Codec::None
        } else {
            Codec::Zstd
        },
        size: 100,
    }
}

fn printed(value: &Val) -> String {
    value.to_string()
}

#[test]
fn a_refilled_object_is_the_one_record_val_builds() {
    let decoded = serde_json::json!({"id": 9});
    let records = [
        record(0, "k0", r#"{"id":1,"tags":["a"]}"#, 1),
        record(1, "k1", "plain text", 0),
        record(2, r#"{"k":2}"#, "[1,2]", 3),
        record(3, "k3", r#"{"id":3}"#, 1),
    ];
    let mut refills = 0;
    for topic in ["orders", "orders", "payments"] {
        for (n, r) in records.iter().enumerate() {
            let plain = RecordJson::plain(topic, r);
            let json = match n {
                // A decoded value adds `value_schema_id`: another layout.
                3 => RecordJson {
                    value: Field::Decoded {
                        json: &decoded,
                        encoding: "avro",
                        schema_id: Some(4),
                    },
                    ..plain
                },
                _ => plain,
            };
            let fresh = printed(&record_val(&json));
            let spare_before = SPARE.with(|s| s.borrow().as_ref().map(Rc::as_ptr));
            let (reused, same_object) = with_record_val(&json, |input| {
                let Val::Obj(object) = &input else {
                    panic!("not an object");
                };
                (printed(&input), Some(Rc::as_ptr(object)) == spare_before)
            });
            assert_eq!(reused, fresh, "{topic} record {n}");
            refills += usize::from(same_object);
        }
    }
    assert!(
        refills >= 6,
        "the spare object was refilled only {refills} times"
    );
}

#[test]
fn an_object_still_held_is_not_refilled() {
    let a = record(0, "k0", r#"{"id":1}"#, 1);
    let b = record(1, "k1", r#"{"id":2}"#, 1);
    let kept = with_record_val(&RecordJson::plain("orders", &a), |input| input);
    let second = with_record_val(&RecordJson::plain("orders", &b), |input| printed(&input));
    assert_eq!(
        printed(&kept),
        printed(&record_val(&RecordJson::plain("orders", &a)))
    );
    assert_eq!(
        second,
        printed(&record_val(&RecordJson::plain("orders", &b)))
    );
}

#[test]
fn between_records_the_spare_holds_no_record_data() {
    let r = record(0, "k0", r#"{"id":1}"#, 2);
    with_record_val(&RecordJson::plain("orders", &r), |_| ());
    let held = SPARE.with(|s| s.borrow().as_ref().map(|m| Val::Obj(Rc::clone(m))));
    let held = printed(&held.expect("a spare object"));
    assert!(held.contains(r#""key":null"#), "{held}");
    assert!(held.contains(r#""value":null"#), "{held}");
    assert!(held.contains(r#""headers":null"#), "{held}");
}
