//! The `decoded` JSON objects of Kafka's own records: a small object writer
//! over the record writer's escaping, and the hex and time forms they share.

use std::fmt::Write as _;

use crate::browse::json_text::{number, string};

/// A small JSON object writer over the record writer's escaping.
pub struct Obj<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Obj<'a> {
    pub fn open(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Obj { out, first: true }
    }

    pub fn name(&mut self, name: &str) -> &mut Vec<u8> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        string(self.out, name.as_bytes());
        self.out.push(b':');
        self.out
    }

    pub fn str(&mut self, name: &str, text: &str) {
        string(self.name(name), text.as_bytes());
    }

    pub fn opt_str(&mut self, name: &str, text: Option<&str>) {
        match text {
            Some(text) => self.str(name, text),
            None => self.name(name).extend_from_slice(b"null"),
        }
    }

    pub fn num(&mut self, name: &str, n: impl itoa::Integer) {
        number(self.name(name), n);
    }

    pub fn opt_num(&mut self, name: &str, n: Option<impl itoa::Integer>) {
        match n {
            Some(n) => self.num(name, n),
            None => self.name(name).extend_from_slice(b"null"),
        }
    }

    pub fn bool(&mut self, name: &str, b: bool) {
        let text: &[u8] = if b { b"true" } else { b"false" };
        self.name(name).extend_from_slice(text);
    }

    pub fn close(self) {
        self.out.push(b'}');
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// A time in ms since the epoch as RFC 3339 UTC (the number when out of range).
pub fn time(ms: i64) -> String {
    crate::browse::format::datetime(ms, 0, 'T', "Z").unwrap_or_else(|| ms.to_string())
}
