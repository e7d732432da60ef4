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

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data, unwrap_valr};

pub use jaq_json::Val;

pub use super::jq_record::{from_json, record_val, write};
pub use super::jq_reuse::with_record_val;

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

#[cfg(test)]
#[path = "jq_tests.rs"]
mod tests;
