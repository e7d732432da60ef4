//! jq expressions over records: `consume --filter/--project` and the
//! Messages screen's `/` and `:find` (`jq:EXPR` or `.EXPR`).
//!
//! A [`JqFilter`] is compiled once (parse errors carry the column) and run
//! per record on [`record_val`]: the object `-o json` prints
//! ([`super::json::RecordJson`]), built straight as a jq value (no JSON text
//! written and read back), except that a UTF-8 key or value that is itself
//! JSON is given parsed, so `.value.status` reaches into a JSON value. A
//! decoded (schema) key or value is its decoded JSON.
//!
//! Why jaq (`jaq-core`, `jaq-std`, `jaq-json`, 3.x/2.x on crates.io): the
//! candidates were `jaq` (pure Rust, actively released, the fastest of them,
//! compiles a filter once into a look-up table that then runs on any number
//! of values, `#![forbid(unsafe_code)]`), `jaq-interpret` (jaq's 1.x
//! interpreter, superseded by `jaq-core` 2+ and no longer released), `jq-rs`
//! (bindings to the C libjq: a C build, unsafe FFI, and JSON text in and
//! out per call) and `xq` (a pure-Rust reimplementation, unreleased since
//! 2022). jaq is maintained, safe and takes values directly.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use bytes::Bytes;
use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data, unwrap_valr};
use jaq_json::{Map, Num};

pub use jaq_json::Val;
use serde_json::Value;

use super::jq_read::{self, Read};
pub use super::jq_reuse::with_record_val;
use super::json::{Field, RecordJson};
use super::record::Header;

type Program = jaq_core::Filter<data::JustLut<Val>>;

/// A jq expression compiled once, run on any number of records. Cloning is
/// cheap (the program is shared).
#[derive(Clone)]
pub struct JqFilter {
    text: String,
    program: Arc<Program>,
}

impl fmt::Debug for JqFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("JqFilter").field(&self.text).finish()
    }
}

impl PartialEq for JqFilter {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for JqFilter {}

/// Why an expression did not compile, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JqError {
    /// The expression.
    pub text: String,
    /// What was wrong (`expected term`, `undefined filter foo/0`).
    pub message: String,
    /// The 1-based column (in characters) it was found at, if known.
    pub column: Option<usize>,
}

impl JqError {
    /// One line: `MESSAGE at column N` (for a status line).
    pub fn line(&self) -> String {
        match self.column {
            Some(column) => format!("{} at column {column}", self.message),
            None => self.message.clone(),
        }
    }

    /// The line, then the expression and a caret under the column.
    pub fn with_caret(&self) -> String {
        let mut out = self.line();
        if let Some(column) = self.column {
            out.push_str("\n  ");
            out.push_str(&self.text);
            out.push_str("\n  ");
            out.push_str(&" ".repeat(column - 1));
            out.push('^');
        }
        out
    }
}

impl fmt::Display for JqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

impl JqFilter {
    /// Compile `text` (jq with jaq's standard library).
    pub fn compile(text: &str) -> Result<JqFilter, JqError> {
        let error = |message: String, at: Option<&str>| JqError {
            text: text.to_owned(),
            message,
            column: at.and_then(|part| column(text, part)),
        };
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs());
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs());
        let arena = Arena::default();
        let file = File {
            code: text,
            path: (),
        };
        let modules = Loader::new(defs).load(&arena, file).map_err(|errors| {
            let first = errors.into_iter().next().map(|(_, e)| e);
            match first {
                Some(jaq_core::load::Error::Lex(errors)) => match errors.first() {
                    Some((expect, at)) => {
                        error(format!("expected {}", lex_expect(expect)), Some(at))
                    }
                    None => error("invalid expression".to_owned(), None),
                },
                Some(jaq_core::load::Error::Parse(errors)) => match errors.first() {
                    Some((expect, at)) => error(
                        format!("expected {}, found {}", expect.as_str(), found(at)),
                        Some(at),
                    ),
                    None => error("invalid expression".to_owned(), None),
                },
                Some(jaq_core::load::Error::Io(errors)) => error(
                    errors
                        .first()
                        .map_or_else(|| "cannot load".to_owned(), |(_, e)| e.clone()),
                    None,
                ),
                None => error("invalid expression".to_owned(), None),
            }
        })?;
        let program = Compiler::default()
            .with_funs(funs)
            .compile(modules)
            .map_err(|errors| {
                let first = errors.into_iter().flat_map(|(_, e)| e).next();
                match first {
                    Some((name, undefined)) => {
                        let arity = match undefined {
                            jaq_core::compile::Undefined::Filter(n) => format!("/{n}"),
                            _ => String::new(),
                        };
                        error(
                            format!("undefined {} {name}{arity}", undefined.as_str()),
                            Some(name),
                        )
                    }
                    None => error("invalid expression".to_owned(), None),
                }
            })?;
        Ok(JqFilter {
            text: text.to_owned(),
            program: Arc::new(program),
        })
    }

    /// The expression as typed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `input` passes: the expression yields at least one value that
    /// is neither `false` nor `null` (the first such ends the run). An error
    /// before that is returned.
    pub fn passes(&self, input: Val) -> Result<bool, String> {
        let ctx = Ctx::<data::JustLut<Val>>::new(&self.program.lut, Vars::new([]));
        for out in self.program.id.run((ctx, input)).map(unwrap_valr) {
            match out {
                Ok(value) if truthy(&value) => return Ok(true),
                Ok(_) => {}
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(false)
    }

    /// Every value the expression yields for `input`, in order; an error
    /// ends the run (the values before it were given).
    pub fn each(&self, input: Val, mut yielded: impl FnMut(&Val)) -> Result<(), String> {
        let ctx = Ctx::<data::JustLut<Val>>::new(&self.program.lut, Vars::new([]));
        for out in self.program.id.run((ctx, input)).map(unwrap_valr) {
            yielded(&out.map_err(|e| e.to_string())?);
        }
        Ok(())
    }
}

/// jq's truth: everything but `false` and `null`.
pub fn truthy(value: &Val) -> bool {
    !matches!(value, Val::Null | Val::Bool(false))
}

/// Whether what the user typed in `/` or `:find` is a jq expression: it
/// starts with `jq:` (the rest is the expression), or with `.` followed by
/// a letter, `_`, `[`, `"`, a space or nothing (the whole text: `.value.id`,
/// `.["a b"]`, `.`). `None` for anything else: a substring, or a regex such
/// as `.*FAILED`, `.+` or `..x` (a regex that must start with `.` and a
/// letter is written `(.)x`).
pub fn typed(text: &str) -> Option<&str> {
    if let Some(expr) = text.strip_prefix("jq:") {
        return Some(expr);
    }
    let after = text.strip_prefix('.')?;
    let jq_like = after
        .chars()
        .next()
        .is_none_or(|c| c.is_alphabetic() || matches!(c, '_' | '[' | '"' | ' '));
    jq_like.then_some(text)
}

/// The 1-based character column of `part` in `whole`, when `part` lies in it.
fn column(whole: &str, part: &str) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    if start > whole.len() || !whole.is_char_boundary(start) {
        return None;
    }
    Some(whole[..start].chars().count() + 1)
}

fn found(at: &str) -> String {
    if at.is_empty() {
        "the end".to_owned()
    } else {
        let token: String = at.chars().take(12).collect();
        format!("'{token}'")
    }
}

fn lex_expect(expect: &jaq_core::load::lex::Expect<&str>) -> &'static str {
    use jaq_core::load::lex::Expect;
    match expect {
        Expect::Digit => "digit",
        Expect::Ident => "identifier",
        Expect::Delim("(") => "closing parenthesis",
        Expect::Delim("[") => "closing bracket",
        Expect::Delim("{") => "closing brace",
        Expect::Delim("\"") => "closing quote",
        Expect::Delim(_) => "closing delimiter",
        Expect::Escape => "string escape sequence",
        Expect::Unicode => "4-digit hexadecimal code point",
        _ => "token",
    }
}

/// A record as the jq input: the fields of `-o json` in its order, a JSON
/// key or value parsed. [`with_record_val`] builds the same value faster
/// when records come one after another.
pub fn record_val(json: &RecordJson<'_>) -> Val {
    let mut map = sized_map(18);
    record_entries(json, |name, entry| {
        map.insert(name_val(name), entry.into_val());
    });
    Val::obj(map)
}

/// The value of one of a record's entries, as [`record_entries`] gives it:
/// a text known to repeat from record to record is left unmade, so that an
/// object refilled in place can keep the one it holds.
pub(super) enum Entry<'a> {
    /// A name known at compile time (`CREATE_TIME`, `utf8`, `none`).
    Name(&'static str),
    /// A text (the topic's name).
    Text(&'a str),
    /// Any other value.
    Val(Val),
}

impl Entry<'_> {
    pub(super) fn into_val(self) -> Val {
        match self {
            Entry::Name(name) => name_val(name),
            Entry::Text(s) => text(s),
            Entry::Val(value) => value,
        }
    }

    /// The text of a name or text entry.
    pub(super) fn text(&self) -> Option<&str> {
        match self {
            Entry::Name(s) | Entry::Text(s) => Some(s),
            Entry::Val(_) => None,
        }
    }
}

/// Each entry of `json`'s jq input, in the order `-o json` prints them.
pub(super) fn record_entries(json: &RecordJson<'_>, mut put: impl FnMut(&'static str, Entry<'_>)) {
    let record = json.record;
    let number = |n: i64| Entry::Val(int(n));
    put("topic", Entry::Text(json.topic));
    put("partition", number(record.partition.into()));
    put("offset", number(record.offset));
    put("leader_epoch", number(record.leader_epoch.into()));
    put("timestamp", number(record.timestamp));
    put("timestamp_type", Entry::Name(record.timestamp_type.name()));
    let (key, key_encoding) = field(record.key.as_ref(), &json.key);
    put("key", Entry::Val(key));
    put("key_encoding", Entry::Name(key_encoding));
    let (value, value_encoding) = field(record.value.as_ref(), &json.value);
    put("value", Entry::Val(value));
    put("value_encoding", Entry::Name(value_encoding));
    put(
        "headers",
        Entry::Val(record.headers.iter().map(header).collect()),
    );
    put(
        "size",
        number(i64::try_from(record.size).unwrap_or(i64::MAX)),
    );
    put("codec", Entry::Name(record.codec.name()));
    let names = [
        (&json.key, "key_schema_id", "key_schema_error"),
        (&json.value, "value_schema_id", "value_schema_error"),
    ];
    for (how, id_name, error_name) in names {
        match how {
            Field::Decoded {
                schema_id: Some(id),
                ..
            } => put(id_name, number((*id).into())),
            Field::Failed { schema_id, reason } => {
                put(id_name, number((*schema_id).into()));
                put(error_name, Entry::Text(reason));
            }
            _ => {}
        }
    }
}

/// An empty object with room for `n` entries (no regrowth while filled).
fn sized_map(n: usize) -> Map {
    let mut map = Map::default();
    map.reserve(n);
    map
}

/// A name known at compile time as a jq string (its bytes not copied).
fn name_val(name: &'static str) -> Val {
    Val::utf8_str(Bytes::from_static(name.as_bytes()))
}

/// A key or value and its encoding's name.
fn field(bytes: Option<&Bytes>, how: &Field<'_>) -> (Val, &'static str) {
    match how {
        Field::Bytes => bytes_val(bytes, true),
        Field::Decoded { json, encoding, .. } => (from_json(json), static_encoding(encoding)),
        Field::Failed { .. } => (
            text(&BASE64.encode(bytes.map_or(&[][..], |b| &b[..]))),
            "base64",
        ),
    }
}

fn static_encoding(name: &str) -> &'static str {
    match name {
        "avro" => "avro",
        "protobuf" => "protobuf",
        "jsonschema" => "jsonschema",
        _ => "decoded",
    }
}

/// Bytes as `null`, parsed JSON (when `parse` and they are JSON), text or
/// base64. Text is a slice of `bytes` (not copied).
fn bytes_val(bytes: Option<&Bytes>, parse: bool) -> (Val, &'static str) {
    match bytes {
        None => (Val::Null, "utf8"),
        Some(b) if std::str::from_utf8(b).is_ok() => {
            let parsed = if parse && looks_like_json(b) {
                parse_json(b)
            } else {
                None
            };
            (parsed.unwrap_or_else(|| Val::utf8_str(b.clone())), "utf8")
        }
        Some(b) => (text(&BASE64.encode(b)), "base64"),
    }
}

/// UTF-8 `text` as a JSON value, or `None` when it is not one: strict JSON
/// read by [`jq_read`], anything else by jaq's reader (which takes a
/// superset); nesting past [`jq_read::MAX_DEPTH`] is not taken as JSON
/// (jaq's reader would recurse until the stack overflows).
fn parse_json(text: &Bytes) -> Option<Val> {
    match jq_read::read(text) {
        Read::Value(value) => Some(value),
        Read::NotStrict => jaq_json::read::parse_single(text).ok(),
        Read::TooDeep => None,
    }
}

/// A cheap first look: JSON text starts with `{`, `[`, `"`, a digit, `-`,
/// `t`, `f` or `n` (after white space).
fn looks_like_json(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| {
            matches!(
                b,
                b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
            )
        })
}

fn header(header: &Header) -> Val {
    let mut map = sized_map(3);
    let key = if std::str::from_utf8(&header.key).is_ok() {
        Val::utf8_str(header.key.clone())
    } else {
        text(&String::from_utf8_lossy(&header.key))
    };
    map.insert(name_val("key"), key);
    let (value, encoding) = bytes_val(header.value.as_ref(), false);
    map.insert(name_val("value"), value);
    map.insert(name_val("value_encoding"), name_val(encoding));
    Val::obj(map)
}

fn text(s: &str) -> Val {
    Val::utf8_str(Bytes::copy_from_slice(s.as_bytes()))
}

fn int(n: impl Into<i64>) -> Val {
    Val::Num(Num::from_integral(n.into()))
}

/// A `serde_json` value (a schema's decoding) as a jq value.
pub fn from_json(value: &Value) -> Val {
    match value {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Val::Num(Num::from_integral(i)),
            (None, Some(u)) => Val::Num(Num::from_integral(u)),
            _ => Val::Num(Num::Float(n.as_f64().unwrap_or(f64::NAN))),
        },
        Value::String(s) => text(s),
        Value::Array(items) => items.iter().map(from_json).collect(),
        Value::Object(fields) => Val::obj(
            fields
                .iter()
                .map(|(k, v)| (text(k), from_json(v)))
                .collect(),
        ),
    }
}

/// Append `value` as compact JSON (what `--project` prints).
pub fn write(value: &Val, out: &mut Vec<u8>) {
    use std::io::Write as _;
    // Writing to a Vec cannot fail.
    let _ = write!(out, "{value}");
}

#[cfg(test)]
#[path = "jq_tests.rs"]
mod tests;
