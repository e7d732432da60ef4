use super::*;
use crate::browse::{Codec, Header, Record, TimestampType};
use bytes::Bytes;
use serde_json::Value;

use crate::browse::jq_read;
use crate::browse::json::{Field, RecordJson};

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

/// Values given as JSON text, each with its schema-decoded twin (what a
/// registry's decoding gives for the same data; a text that is not JSON is
/// a string either way).
const VALUES: [&str; 9] = [
    r#"{"id":"order-7","status":"FAILED","amount":12.50,"n":-3,"big":18446744073709551615,"huge":123456789012345678901234567890,"neg":-9223372036854775809,"tags":["a","ü",{"x":[1,2]}],"address":{"city":"Zürich","country":"DE","geo":{"lat":47.37,"lon":8.54}},"none":null,"ok":true}"#,
    r#"[1,"two",[3],{"four":4.0},null,false]"#,
    r#""中文 😀 \"quoted\" \u00e9""#,
    "42",
    "-0.5e3",
    "null",
    r#"{"status":"OK","dup":1,"dup":2}"#,
    "not json",
    r#"{"status": "FAILED", broken"#,
];

/// Expressions over the value, its key and headers, nested paths, arrays,
/// strings and numbers.
const EXPRESSIONS: [&str; 24] = [
    ".value",
    ".value.status",
    r#".value.status == "FAILED""#,
    r#".value.status == "FAILED" and .value.address.country == "DE""#,
    ".value.address.city",
    ".value.address.geo.lat > 47",
    ".value.tags[]",
    ".value.tags[2].x[1]",
    ".value | type",
    ".value | length",
    ".value | keys_unsorted?",
    ".value.address | tojson",
    ".value.amount * 2",
    ".value.big",
    ".value.big == 18446744073709551615",
    ".value.huge > 1e29",
    ".value.neg < -9223372036854775000",
    ".value.n + 1",
    ".value[1]?",
    r#".value | strings | test("é|ü|😀")"#,
    r#".value | strings | startswith("not")"#,
    r#".key == "order-1" and (.headers[] | select(.key == "region") | .value) == "eu""#,
    ".partition, .offset",
    "[.value | .. | numbers] | add",
];

/// Each output of `filter` on `input`, read back as a serde value (a
/// decimal jaq keeps as written, `12.50`, and the float a decoding gives,
/// `12.5`, compare equal), and whether it ended in an error (whose message
/// quotes the value as it is held, so `-0.5e3` or `-500.0`).
fn answers(filter: &JqFilter, input: Val) -> (Vec<Value>, bool) {
    let mut out = Vec::new();
    let result = filter.each(input, |v| {
        let mut line = Vec::new();
        write(v, &mut line);
        out.push(serde_json::from_slice(&line).expect("jaq writes JSON"));
    });
    (out, result.is_err())
}

#[test]
fn json_text_and_decoded_values_give_the_same_answers() {
    for text in VALUES {
        let r = record(text);
        let decoded: Value =
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()));
        let from_text = record_val(&RecordJson::plain("orders", &r));
        let from_decoded = record_val(&RecordJson {
            value: Field::Decoded {
                json: &decoded,
                encoding: "avro",
                schema_id: Some(1),
            },
            ..RecordJson::plain("orders", &r)
        });
        for expression in EXPRESSIONS {
            let filter = JqFilter::compile(expression).expect("compiles");
            let text_answers = answers(&filter, from_text.clone());
            assert_eq!(
                text_answers,
                answers(&filter, from_decoded.clone()),
                "{expression} on {text}"
            );
            assert_eq!(
                filter.passes(from_text.clone()).ok(),
                filter.passes(from_decoded.clone()).ok(),
                "{expression} on {text}"
            );
        }
    }
    // The answers are not all empty or all errors: the expressions reach in.
    let filter = JqFilter::compile(".value.tags[2].x[1], .value.address.city").expect("compiles");
    let (out, error) = answers(&filter, input(VALUES[0]));
    assert_eq!(out, [serde_json::json!(2), serde_json::json!("Zürich")]);
    assert!(!error);
}

#[test]
fn json_text_that_does_not_parse_is_a_string() {
    for text in [
        "not json",
        r#"{"status": "FAILED", broken"#,
        "nullx",
        "[1,]",
        "\"tab\tinside\"",
    ] {
        assert_eq!(outputs(".value | type", text), [r#""string""#], "{text}");
        assert_eq!(
            outputs(".value", text),
            [serde_json::to_string(text).expect("json")],
            "{text}"
        );
    }
}

#[test]
fn jaqs_json_superset_is_still_read() {
    // Not strict JSON, but jaq's reader takes it, as before.
    assert_eq!(outputs(".value", "01"), ["1"]);
    assert_eq!(outputs(".value.a", "{\"a\":1 # note\n}"), ["1"]);
    assert_eq!(outputs(".value[0]", "[+1]"), ["1"]);
}

#[test]
fn json_nested_past_the_limit_is_a_string() {
    let depth = jq_read::MAX_DEPTH + 1;
    let deep: &'static str = Box::leak(("[".repeat(depth) + &"]".repeat(depth)).into_boxed_str());
    assert_eq!(outputs(".value | type", deep), [r#""string""#]);
}
