//! The Messages screen's `/` filter over loaded records: a substring of the
//! key or value (case-insensitive unless it has a capital), `~regex` on
//! the key or value, `key:TEXT` on the key only, `header:NAME=TEXT` (or
//! `header:NAME` for its presence); `!` in front inverts any of them. A key
//! or value shown decoded (a Confluent-framed one whose schema is held, or
//! one its topic's mapping reads) is also searched as its decoded JSON text.
//!
//! `jq:EXPR`, or text starting with `.` then a letter, `_`, `[`, `"`, a
//! space or nothing (`.value.status == "FAILED"`), is a jq expression over
//! the record as `consume -o json` prints it (decoded values as their JSON;
//! see [`crate::browse::jq`]): compiled once here, a record passes when it
//! yields a value other than false or null. `~.*x` and the like stay regexes.

use regex::bytes::{Regex, RegexBuilder};

use crate::browse::jq::{self, JqFilter};
use crate::browse::json::{Field, RecordJson};
use crate::browse::{Format, Record};

use super::schema_cache::{SchemaCache, Shown};

#[derive(Debug, Clone)]
enum Form {
    /// In the key or the value.
    Anywhere(Needle),
    /// A regex over the key or the value.
    Regex(Regex),
    /// In the key.
    Key(Needle),
    /// A header named exactly `name` whose value holds the needle (any
    /// value when there is none).
    Header {
        name: Vec<u8>,
        value: Option<Needle>,
    },
    /// A jq expression over the record as JSON.
    Jq(JqFilter),
}

/// A literal searched for in bytes.
#[derive(Debug, Clone)]
struct Needle {
    text: String,
    ignore_case: bool,
    search: Regex,
}

impl Needle {
    fn new(text: &str) -> Result<Needle, String> {
        let ignore_case = !text.chars().any(char::is_uppercase);
        let search = RegexBuilder::new(&regex::escape(text))
            .case_insensitive(ignore_case)
            .build()
            .map_err(|e| format!("filter '{text}': {e}"))?;
        Ok(Needle {
            text: text.to_owned(),
            ignore_case,
            search,
        })
    }

    fn found(&self, bytes: Option<&[u8]>) -> bool {
        bytes.is_some_and(|b| self.search.is_match(b))
    }

    /// Whether everything this needle finds the other finds too.
    fn within(&self, other: &Needle) -> bool {
        self.ignore_case == other.ignore_case && self.text.contains(&other.text)
    }
}

/// A parsed record filter.
#[derive(Debug, Clone)]
pub struct RecordFilter {
    text: String,
    form: Form,
    inverse: bool,
}

impl RecordFilter {
    /// Parse what the user typed; `Ok(None)` for an empty filter.
    pub fn parse(text: &str) -> Result<Option<RecordFilter>, String> {
        let (inverse, rest) = match text.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if rest.is_empty() {
            return Ok(None);
        }
        let form = if let Some(expr) = jq::typed(rest) {
            if expr.trim().is_empty() {
                return Ok(None);
            }
            Form::Jq(JqFilter::compile(expr).map_err(|e| format!("jq: {}", e.line()))?)
        } else if let Some(pattern) = rest.strip_prefix('~') {
            if pattern.is_empty() {
                return Ok(None);
            }
            Form::Regex(Regex::new(pattern).map_err(|e| format!("regex '{pattern}': {e}"))?)
        } else if let Some(key) = rest.strip_prefix("key:") {
            Form::Key(Needle::new(key)?)
        } else if let Some(header) = rest.strip_prefix("header:") {
            let (name, value) = match header.split_once('=') {
                Some((name, value)) => (name, Some(Needle::new(value)?)),
                None => (header, None),
            };
            Form::Header {
                name: name.as_bytes().to_vec(),
                value,
            }
        } else {
            Form::Anywhere(Needle::new(rest)?)
        };
        Ok(Some(RecordFilter {
            text: text.to_owned(),
            form,
            inverse,
        }))
    }

    /// What the user typed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `record` passes, its key and value searched as bytes.
    pub fn matches(&self, record: &Record) -> bool {
        self.hit(record.key.as_deref(), record.value.as_deref(), record) != self.inverse
    }

    /// Whether `record` of `topic` passes: its key and value searched as
    /// bytes and, when they show decoded under `format` with the schemas
    /// held, as their decoded JSON text too (decoded only when the bytes
    /// did not already hit).
    pub fn passes(
        &self,
        record: &Record,
        topic: &str,
        format: Format,
        schemas: &SchemaCache,
    ) -> bool {
        if let Form::Jq(filter) = &self.form {
            let passes = with_jq_input(record, topic, format, schemas, |input| {
                filter.passes(input).unwrap_or(false)
            });
            return passes != self.inverse;
        }
        let (key, value) = (record.key.as_deref(), record.value.as_deref());
        let mut hit = self.hit(key, value, record);
        if !hit && !matches!(self.form, Form::Header { .. }) {
            let text = |shown: Shown| match shown {
                Shown::Decoded(decoded) => Some(decoded.value.to_string()),
                _ => None,
            };
            let key = key.and_then(|k| text(schemas.shown(k, format)));
            let value = match self.form {
                Form::Key(_) => None,
                _ => value.and_then(|v| text(schemas.shown_value(topic, v, format))),
            };
            hit = self.hit(
                key.as_deref().map(str::as_bytes),
                value.as_deref().map(str::as_bytes),
                record,
            );
        }
        hit != self.inverse
    }

    /// Whether `key` or `value` (or `record`'s headers) hold what is asked.
    fn hit(&self, key: Option<&[u8]>, value: Option<&[u8]>, record: &Record) -> bool {
        match &self.form {
            Form::Anywhere(needle) => needle.found(key) || needle.found(value),
            Form::Regex(regex) => {
                key.is_some_and(|k| regex.is_match(k)) || value.is_some_and(|v| regex.is_match(v))
            }
            Form::Key(needle) => needle.found(key),
            Form::Header { name, value } => record.headers.iter().any(|h| {
                h.key.as_ref() == name.as_slice()
                    && value.as_ref().is_none_or(|n| n.found(h.value.as_deref()))
            }),
            Form::Jq(filter) => jq::with_record_val(&RecordJson::plain("", record), |input| {
                filter.passes(input).unwrap_or(false)
            }),
        }
    }

    /// Whether every record this filter passes, `previous` passed too (a
    /// keystroke that only narrows): then only `previous`'s matches need
    /// checking, not the whole ring.
    pub fn narrows(&self, previous: &RecordFilter) -> bool {
        if self.inverse || previous.inverse {
            return false;
        }
        match (&self.form, &previous.form) {
            (Form::Anywhere(new), Form::Anywhere(old)) | (Form::Key(new), Form::Key(old)) => {
                new.within(old)
            }
            (
                Form::Header {
                    name: new_name,
                    value: new,
                },
                Form::Header {
                    name: old_name,
                    value: old,
                },
            ) => {
                new_name == old_name
                    && match (new, old) {
                        (_, None) => true,
                        (Some(new), Some(old)) => new.within(old),
                        (None, Some(_)) => false,
                    }
            }
            _ => false,
        }
    }
}

/// Run `run` on `record` of `topic` as a jq expression's input: what
/// `-o json` prints, with a key or value shown decoded (schemas held) as its
/// decoded JSON ([`jq::with_record_val`]).
pub fn with_jq_input<T>(
    record: &Record,
    topic: &str,
    format: Format,
    schemas: &SchemaCache,
    run: impl FnOnce(jq::Val) -> T,
) -> T {
    let key = record.key.as_deref().map(|k| schemas.shown(k, format));
    let value = record
        .value
        .as_deref()
        .map(|v| schemas.shown_value(topic, v, format));
    let json = RecordJson {
        key: field(key.as_ref()),
        value: field(value.as_ref()),
        ..RecordJson::plain(topic, record)
    };
    jq::with_record_val(&json, run)
}

/// A key or value as `RecordJson` writes it: decoded, or its bytes.
fn field(shown: Option<&Shown>) -> Field<'_> {
    match shown {
        Some(Shown::Decoded(decoded)) => Field::Decoded {
            json: &decoded.value,
            encoding: decoded.format.name(),
            schema_id: (decoded.schema_id != 0).then_some(decoded.schema_id),
        },
        _ => Field::Bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::{Codec, Header, TimestampType};
    use bytes::Bytes;

    fn record(key: Option<&'static str>, value: Option<&'static str>) -> Record {
        Record {
            partition: 0,
            offset: 0,
            leader_epoch: 0,
            timestamp: 0,
            timestamp_type: TimestampType::Create,
            key: key.map(|k| Bytes::from_static(k.as_bytes())),
            value: value.map(|v| Bytes::from_static(v.as_bytes())),
            headers: vec![Header {
                key: Bytes::from_static(b"trace"),
                value: Some(Bytes::from_static(b"abc-123")),
            }],
            codec: Codec::None,
            size: 0,
        }
    }

    fn passes(filter: &str, record: &Record) -> bool {
        RecordFilter::parse(filter)
            .expect("parses")
            .expect("not empty")
            .matches(record)
    }

    #[test]
    fn decoded_values_are_searched_as_their_json_text() {
        use crate::schema::mapping::{Mappings, Source, TopicSchema};
        let dir = tempfile::tempdir().expect("tempdir");
        let avsc = dir.path().join("o.avsc");
        let schema = r#"{"type":"record","name":"O","fields":[{"name":"id","type":"long"},{"name":"customer","type":"string"}]}"#;
        std::fs::write(&avsc, schema).expect("write");
        let schemas = SchemaCache {
            mappings: Mappings::new(vec![TopicSchema {
                topic: regex::Regex::new("^orders$").expect("regex"),
                source: Source::Avro(avsc),
            }]),
            ..SchemaCache::default()
        };
        schemas.mappings.prepare("orders", None);
        // Raw Avro of {"id": 1042, "customer": "ada"}: 1042 zigzag is 2084.
        let mut r = record(Some("k"), None);
        r.value = Some(Bytes::from_static(b"\xa4\x10\x06ada"));
        let on = |filter: &str, topic: &str, format: Format| {
            RecordFilter::parse(filter)
                .expect("parses")
                .expect("not empty")
                .passes(&r, topic, format, &schemas)
        };
        // Field names and numbers are only in the decoded JSON.
        assert!(on("customer", "orders", Format::Auto));
        assert!(on(r#"~"id":10\d\d"#, "orders", Format::Auto));
        assert!(!on("!customer", "orders", Format::Auto));
        assert!(on("ada", "orders", Format::Auto), "the bytes still match");
        assert!(!on("customer", "orders", Format::Hex), "hex shows bytes");
        assert!(!on("customer", "other", Format::Auto), "no mapping there");
        assert!(!on("key:customer", "orders", Format::Auto));
        assert!(!passes("customer", &r), "bytes alone do not hold it");
    }

    #[test]
    fn every_form_matches_what_it_says() {
        let r = record(Some("order-7"), Some(r#"{"status":"PAID"}"#));
        let table = [
            ("paid", true),
            ("PAID", true),
            ("Paid", false),
            ("order-7", true),
            ("!paid", false),
            ("~stat.s", true),
            ("~^order", true),
            ("key:order", true),
            ("key:status", false),
            ("header:trace", true),
            ("header:trace=ABC", false),
            ("header:trace=abc", true),
            ("header:span", false),
            ("!header:span", true),
        ];
        for (filter, want) in table {
            assert_eq!(passes(filter, &r), want, "{filter}");
        }
        let tombstone = record(None, None);
        assert!(!passes("x", &tombstone));
        assert!(passes("!x", &tombstone));
        assert!(RecordFilter::parse("").expect("ok").is_none());
        assert!(RecordFilter::parse("~(").is_err());
    }

    #[test]
    fn a_longer_needle_narrows_the_previous_filter() {
        let f = |t: &str| RecordFilter::parse(t).expect("ok").expect("some");
        assert!(f("pai").narrows(&f("pa")));
        assert!(f("xpay").narrows(&f("pa")));
        assert!(!f("pa").narrows(&f("pai")));
        assert!(!f("Pai").narrows(&f("pa")), "case-sensitive now");
        assert!(!f("!pai").narrows(&f("!pa")));
        assert!(f("key:ab").narrows(&f("key:a")));
        assert!(!f("key:ab").narrows(&f("a")));
        assert!(f("header:t=ab").narrows(&f("header:t")));
        assert!(!f("~ab").narrows(&f("~a")));
    }
}
