use super::*;
use proptest::prelude::*;

/// `a` and `b` are the same value in every detail a filter can see: the
/// same kinds (a machine integer is not a big one, a decimal keeps its
/// text), the same bytes, the same entries in the same order.
fn same(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Num(x), Val::Num(y)) => match (x, y) {
            (Num::Int(x), Num::Int(y)) => x == y,
            (Num::BigInt(x), Num::BigInt(y)) => x == y,
            (Num::Dec(x), Num::Dec(y)) => x == y,
            (Num::Float(x), Num::Float(y)) => x.to_bits() == y.to_bits(),
            _ => false,
        },
        (Val::TStr(x), Val::TStr(y)) | (Val::BStr(x), Val::BStr(y)) => x == y,
        (Val::Arr(x), Val::Arr(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(x, y)| same(x, y))
        }
        (Val::Obj(x), Val::Obj(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((xk, xv), (yk, yv))| same(xk, yk) && same(xv, yv))
        }
        _ => false,
    }
}

/// What jaq's reader makes of `text`, and ours: the same value whenever
/// ours takes the text.
fn check(text: &str) -> Read {
    let bytes = Bytes::copy_from_slice(text.as_bytes());
    let ours = read(&bytes);
    if let Read::Value(value) = &ours {
        let theirs = jaq_json::read::parse_single(text.as_bytes())
            .unwrap_or_else(|e| panic!("jaq's reader refuses {text:?} ({e}), ours took it"));
        assert!(
            same(value, &theirs),
            "{text:?}: ours {value:?}, jaq's {theirs:?}"
        );
    }
    ours
}

fn takes(text: &str) {
    assert!(matches!(check(text), Read::Value(_)), "{text:?} not taken");
}

fn refuses(text: &str) {
    assert!(matches!(check(text), Read::NotStrict), "{text:?} taken");
}

#[test]
fn strict_json_is_read_as_jaq_reads_it() {
    for text in [
        "null",
        " true ",
        "\tfalse\r\n",
        "0",
        "-0",
        "7",
        "-42",
        "123456789012345678",
        "-123456789012345678",
        "1234567890123456789",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775809",
        "18446744073709551616",
        "123456789012345678901234567890",
        "0.10",
        "-1.5e3",
        "1E+2",
        "2e-7",
        "0e0",
        r#""""#,
        r#""plain""#,
        r#""é ü 中文 😀""#,
        r#""a\"b\\c\/d\be\ff\ng\rh\ti""#,
        r#""\u00e9\u4e2d\ud83d\ude00\u0000""#,
        "[]",
        "[ ]",
        "{}",
        "{ }",
        "[1, [2, [3, []]], {}]",
        r#"{"a":1,"b":{"c":[true,null,"x"]},"d":[]}"#,
        r#"{"k":1,"j":2,"k":3}"#,
        r#" { "a" : [ 1 , 2 ] , "b" : { } } "#,
        r#"{"id":"order-1","amount":12.50,"tags":["a","b"],"address":{"country":"DE"}}"#,
    ] {
        takes(text);
    }
}

#[test]
fn a_repeated_key_keeps_its_first_place_and_its_last_value() {
    let Read::Value(Val::Obj(map)) = read(&Bytes::from_static(br#"{"k":1,"j":2,"k":3}"#)) else {
        panic!("not an object");
    };
    let keys: Vec<String> = map.keys().map(ToString::to_string).collect();
    assert_eq!(keys, [r#""k""#, r#""j""#]);
    assert_eq!(
        map.values().next().map(ToString::to_string).as_deref(),
        Some("3")
    );
}

#[test]
fn what_is_not_strict_json_is_left_to_jaqs_reader() {
    for text in [
        "",
        " ",
        "nul",
        "nullx",
        "true false",
        "01",
        "-",
        "1.",
        ".5",
        "1e",
        "1e+",
        "+1",
        "NaN",
        "Infinity",
        "-Infinity",
        "[1,]",
        "[1 2]",
        "[",
        "{",
        r#"{"a"}"#,
        r#"{"a":}"#,
        r#"{"a":1,}"#,
        "{1:2}",
        r#"{"a":1 # comment
        }"#,
        r#"b"bytes""#,
        r#""unterminated"#,
        "\"tab\tinside\"",
        r#""\x41""#,
        r#""\u12""#,
        r#""\ud83d""#,
        r#""\ud83d\u0041""#,
        r#""\ude00""#,
        "plain text",
        "not json",
        "{not json}",
    ] {
        refuses(text);
    }
}

#[test]
fn nesting_past_the_limit_is_too_deep() {
    let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
    assert!(matches!(read(&Bytes::from(deep)), Read::TooDeep));
    let deepest = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    takes(&deepest);
    // Unclosed and far too deep: stopped at the limit, not at the end.
    let unclosed = "{\"a\":".repeat(100_000);
    assert!(matches!(read(&Bytes::from(unclosed)), Read::TooDeep));
}

#[test]
fn a_plain_string_is_a_slice_of_the_text() {
    let text = Bytes::from_static(br#"{"name":"kafka"}"#);
    let Read::Value(Val::Obj(map)) = read(&text) else {
        panic!("not an object");
    };
    let Some(Val::TStr(name)) = map.values().next() else {
        panic!("not a string");
    };
    let within = text.as_ptr_range();
    assert!(within.contains(&name.as_ptr()), "copied, not sliced");
}

/// Any JSON value, as `serde_json` would write it.
fn json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        "[a-z\"\\\\/\u{0}-\u{1f}é中😀]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-c\u{e9}]{0,3}", inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn json_written_by_serde_is_read_as_jaq_reads_it(value in json(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&value)
        } else {
            serde_json::to_string(&value)
        }
        .expect("serializes");
        takes(&text);
    }

    #[test]
    fn any_text_taken_is_read_as_jaq_reads_it(value in json(), cut in any::<prop::sample::Index>(), byte in prop::sample::select(b"\"\\,:[]{}0-.eE+ #ntu\x01".to_vec())) {
        // A JSON text with one byte changed: mostly not JSON any more;
        // whatever ours still takes, jaq's reader reads the same.
        let mut text = serde_json::to_string(&value).expect("serializes").into_bytes();
        let at = cut.index(text.len());
        text[at] = byte;
        if let Ok(text) = String::from_utf8(text) {
            check(&text);
        }
    }

    #[test]
    fn any_short_text_taken_is_read_as_jaq_reads_it(text in "[\\[\\]{}\":,0-9.eE+\\- \\\\u0-9a-fnrtl]{0,16}") {
        check(&text);
    }
}
