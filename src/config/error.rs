//! The config layer's one error type, and where in a file a problem is.
//!
//! Every message names what went wrong and where (file, line, column, or the
//! `-X` argument / key), and never carries a secret: values quoted by the TOML
//! deserializer are blanked before they reach a message.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A position in a config file, 1-based, for messages like `config.toml:3:7`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file.
    pub path: PathBuf,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl Location {
    /// The line and column of byte offset `span.start` in `text`.
    pub fn of(path: &Path, text: &str, span: &Range<usize>) -> Self {
        let offset = floor_char_boundary(text, span.start.min(text.len()));
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Self {
            path: path.to_owned(),
            line,
            column,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.path.display(), self.line, self.column)
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Everything that can go wrong finding, reading, checking and using a config.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file '{}': {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML, or does not match the schema.
    #[error("bad config file {at}: {message}")]
    Parse {
        /// Where.
        at: Location,
        /// What was expected (secret-free).
        message: String,
    },
    /// A value parsed but makes no sense (unknown mechanism, bad address, ...).
    #[error("bad config file {at}: {key}: {message}")]
    Invalid {
        /// Where.
        at: Location,
        /// The dotted key, e.g. `contexts.prod.sasl.mechanism`.
        key: String,
        /// What was expected.
        message: String,
    },
    /// `--context NAME` or `default_context` names no context.
    #[error("no context named '{name}' in {source_name} (known: {known})")]
    UnknownContext {
        /// The name asked for.
        name: String,
        /// Where the contexts were looked for.
        source_name: String,
        /// The names that exist, comma separated, or `none`.
        known: String,
    },
    /// Nothing says which cluster to use.
    #[error(
        "no cluster selected: pass --context NAME or -b HOST:PORT, or set default_context in {source_name}"
    )]
    NoContext {
        /// The config file (or a note that there is none).
        source_name: String,
    },
    /// A `-X key=value` argument is wrong.
    #[error("bad -X '{arg}': {message}")]
    Override {
        /// The key (never the value: it may be a password).
        arg: String,
        /// What was expected.
        message: String,
    },
    /// `-b` or a context's resolved settings do not hold together.
    #[error("context '{context}': {message}")]
    Context {
        context: String,
        /// What is wrong.
        message: String,
    },
    /// A secret reference (`${env:..}`, `${file:..}`, `password_command`) failed.
    #[error("{key}: {message}")]
    Secret {
        /// The key holding the reference, e.g. `contexts.prod.sasl.password`.
        key: String,
        /// What failed (never the secret).
        message: String,
    },
    /// Connecting with a resolved context failed (authentication, TLS, unreachable).
    #[error("context '{context}' ({security}): {source}")]
    Connect {
        context: String,
        /// How it connects, e.g. `SASL SCRAM-SHA-512 over TLS`.
        security: String,
        /// What the connection layer said (never a credential).
        source: Box<crate::conn::Error>,
    },
    /// Something the machine lacks: a home directory, an async runtime.
    #[error("{0}")]
    Environment(String),
}

impl ConfigError {
    /// Whether a `password_command` failed: run without a terminal, that is
    /// one that may need to ask the person for a password.
    pub fn is_password_command(&self) -> bool {
        matches!(self, Self::Secret { key, .. } if key.ends_with("password_command"))
    }

    /// The process exit code: 2 for bad usage or configuration, 1 when the
    /// configuration was fine but the cluster could not be reached or refused us.
    pub fn exit_code(&self) -> i32 {
        match self {
            Self::Connect { .. } => 1,
            _ => 2,
        }
    }

    /// A TOML/schema error at `span` of `text`, with quoted values blanked and,
    /// when the span is a value (`key = value`), the key named.
    pub(crate) fn parse(
        path: &Path,
        text: &str,
        span: Option<Range<usize>>,
        message: &str,
    ) -> Self {
        let span = span.unwrap_or(0..0);
        let at = Location::of(path, text, &span);
        let mut message = blank_quoted(message.trim());
        if let Some(key) = key_before(text, span.start) {
            message = format!("{key}: {message}");
        }
        Self::Parse { at, message }
    }

    /// A semantic error about `key` at `span` of `text`.
    pub(crate) fn invalid(
        path: &Path,
        text: &str,
        span: &Range<usize>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        let at = Location::of(path, text, span);
        Self::Invalid {
            at,
            key: key.into(),
            message: message.into(),
        }
    }
}

/// The key of `key = <value at offset>` on the value's line, if that is what precedes it.
fn key_before(text: &str, offset: usize) -> Option<&str> {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let (key, rest) = text[line_start..offset].split_once('=')?;
    let key = key.trim();
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    (rest.trim().is_empty() && !key.is_empty() && key.chars().all(plain)).then_some(key)
}

/// Replace what serde quotes with `"…"` (`invalid type: string "hunter2"`):
/// it is user data and may be a password typed into the wrong key.
fn blank_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut inside = false;
    for c in message.chars() {
        if c == '"' {
            if inside {
                out.push('…');
            }
            inside = !inside;
            out.push(c);
        } else if !inside {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_counts_lines_and_characters_from_one() {
        let text = "a = 1\nbé = 2\n";
        let path = Path::new("c.toml");
        assert_eq!(Location::of(path, text, &(0..1)).to_string(), "c.toml:1:1");
        let at = Location::of(path, text, &(9..10));
        assert_eq!((at.line, at.column), (2, 3));
        let past_end = Location::of(path, text, &(999..1000));
        assert_eq!(past_end.line, 3);
    }

    #[test]
    fn quoted_values_are_blanked_but_field_names_kept() {
        let message = "invalid type: string \"hunter2\", expected a boolean for `read_only`";
        let blanked = blank_quoted(message);
        assert!(!blanked.contains("hunter2"));
        assert!(blanked.contains("`read_only`"));
        assert!(blanked.contains("expected a boolean"));
    }

    #[test]
    fn a_wrongly_typed_value_names_its_key() {
        let text = "[contexts.a]\nread_only = \"yes\"\n";
        let error = ConfigError::parse(Path::new("c.toml"), text, Some(25..30), "invalid type");
        assert_eq!(
            error.to_string(),
            "bad config file c.toml:2:13: read_only: invalid type"
        );
        let error = ConfigError::parse(Path::new("c.toml"), text, Some(13..22), "unknown field");
        assert_eq!(
            error.to_string(),
            "bad config file c.toml:2:1: unknown field"
        );
    }

    #[test]
    fn every_config_error_exits_with_two() {
        let error = ConfigError::NoContext {
            source_name: "x".into(),
        };
        assert_eq!(error.exit_code(), 2);
    }
}
