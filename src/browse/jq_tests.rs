use super::*;
use crate::browse::{Codec, Header, Record, TimestampType};
use bytes::Bytes;

fn record(value: &'static str) -> Record {
    Record {
        partition: 3,
        offset: 42,
        leader_epoch: 0,
        timestamp: 1_700_000_000_000,
        timestamp_type: TimestampType::Create,
        key: Some(Bytes::from_static(b"order-1")),
        value: Some(Bytes::from_static(value.as_bytes())),
        headers: vec![Header {
            key: Bytes::from_static(b"region"),
            value: Some(Bytes::from_static(b"eu")),
        }],
        codec: Codec::None,
        size: 10,
    }
}

fn input(value: &'static str) -> Val {
    record_val(&RecordJson::plain("orders", &record(value)))
}

fn error(text: &str) -> JqError {
    JqFilter::compile(text).expect_err("does not compile")
}

fn outputs(filter: &str, value: &'static str) -> Vec<String> {
    let mut out = Vec::new();
    JqFilter::compile(filter)
        .expect("compiles")
        .each(input(value), |v| {
            let mut line = Vec::new();
            write(v, &mut line);
            out.push(String::from_utf8(line).expect("utf8"));
        })
        .expect("runs");
    out
}

#[test]
fn parse_errors_name_the_column() {
    let e = error(".value.status == ");
    assert_eq!(e.column, Some(18), "{e:?}");
    assert!(e.message.starts_with("expected term"), "{e:?}");
    let e = error(".value | foo(1)");
    assert_eq!(e.message, "undefined filter foo/1");
    assert_eq!(e.column, Some(10));
    let e = error(".a and (.b");
    assert!(e.message.contains("closing parenthesis"), "{e:?}");
    assert_eq!(e.column, Some(11), "where the closing one is missing");
    let e = error(r#""é" | $nope"#);
    assert_eq!(e.message, "undefined variable $nope");
    assert_eq!(e.column, Some(7), "counted in characters");
}

#[test]
fn the_caret_stands_under_the_column() {
    let e = error(".value.status == ");
    assert_eq!(
        e.with_caret(),
        "expected term, found the end at column 18\n  .value.status == \n                   ^"
    );
}

#[test]
fn truthiness_is_jqs() {
    let r = input(r#"{"status":"FAILED","n":0,"none":null,"no":false,"items":[]}"#);
    for (filter, passes) in [
        (r#".value.status == "FAILED""#, true),
        (r#".value.status == "OK""#, false),
        (".value.n", true),
        (".value.items", true),
        (".value.none", false),
        (".value.no", false),
        (".value.missing", false),
        ("empty", false),
        ("false, null, 1", true),
        (
            r#".headers[] | select(.key == "region") | .value == "eu""#,
            true,
        ),
        (".partition == 3 and .offset == 42", true),
        (r#".key == "order-1""#, true),
    ] {
        let got = JqFilter::compile(filter)
            .expect("compiles")
            .passes(r.clone())
            .expect("runs");
        assert_eq!(got, passes, "{filter}");
    }
}

#[test]
fn an_error_at_run_time_is_returned() {
    let filter = JqFilter::compile(".value.status").expect("compiles");
    assert!(filter.passes(input("plain text")).is_err());
    assert!(filter.passes(input("[1]")).is_err());
}

#[test]
fn projection_yields_every_value_as_compact_json() {
    assert_eq!(
        outputs(".value.id, .value.tags[]", r#"{"id":7,"tags":["a","b"]}"#),
        ["7", "\"a\"", "\"b\""]
    );
    assert_eq!(
        outputs("{id: .value.id, p: .partition}", r#"{"id":7}"#),
        [r#"{"id":7,"p":3}"#]
    );
    assert_eq!(outputs(".value", "not json"), ["\"not json\""]);
}

#[test]
fn the_input_is_the_object_json_prints() {
    let r = record(r#"{"id":1}"#);
    let mut line = Vec::new();
    RecordJson::plain("orders", &r).write(&mut line);
    let printed: Value = serde_json::from_slice(&line).expect("json");
    let mut ours = Vec::new();
    write(&record_val(&RecordJson::plain("orders", &r)), &mut ours);
    let mut ours: Value = serde_json::from_slice(&ours).expect("json");
    // The one difference: a JSON value is given parsed.
    assert_eq!(ours["value"], serde_json::json!({"id": 1}));
    ours["value"] = Value::String(r#"{"id":1}"#.to_owned());
    assert_eq!(ours, printed);
}

#[test]
fn a_decoded_value_is_its_json() {
    let r = record("ignored");
    let json = serde_json::json!({"status": "FAILED", "amount": 1.5, "big": u64::MAX});
    let input = record_val(&RecordJson {
        value: Field::Decoded {
            json: &json,
            encoding: "avro",
            schema_id: Some(7),
        },
        ..RecordJson::plain("orders", &r)
    });
    let filter = JqFilter::compile(
        r#".value.status == "FAILED" and .value.amount == 1.5 and .value_schema_id == 7 and .value_encoding == "avro""#,
    )
    .expect("compiles");
    assert!(filter.passes(input).expect("runs"));
}

#[test]
fn jq_text_is_told_apart_from_a_regex() {
    assert_eq!(typed("jq:.value"), Some(".value"));
    assert_eq!(typed(".value.id == 1"), Some(".value.id == 1"));
    assert_eq!(typed("order"), None);
    assert_eq!(typed("~.*"), None);
    assert_eq!(typed("key:x"), None);
    assert_eq!(typed(".*FAILED"), None);
    assert_eq!(typed(".+"), None);
    assert_eq!(typed("..x"), None);
    assert_eq!(typed("."), Some("."));
    assert_eq!(typed(r#".["a b"]"#), Some(r#".["a b"]"#));
}

#[test]
fn the_program_can_be_sent_to_a_worker() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    send_sync(&JqFilter::compile(".").expect("compiles"));
}
