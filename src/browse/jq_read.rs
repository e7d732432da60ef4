//! A record's JSON text read straight into jq values, for `--filter` and the
//! Messages `/` and `:find` (issue 29: a filter over JSON-text values at
//! 300k records/s).
//!
//! [`read`] takes strict JSON (RFC 8259) and builds exactly the value
//! `jaq_json::read::parse_single` builds for it: the same number kinds (an
//! integer as a machine or big integer, anything with a fraction or an
//! exponent as jaq's decimal kept as written), object entries in their
//! order with a repeated key's last value in its first place. It is faster
//! because a string without escapes is a slice of the record's bytes (no
//! copy), and arrays and objects are collected on a stack kept per thread
//! and then built at their final size. jaq's reader accepts more than JSON (`#` comments,
//! `NaN`, `Infinity`, `+1`, `b"..."`, non-string keys); for any of that
//! [`read`] says [`Read::NotStrict`] and the caller asks jaq's reader, so
//! what a filter sees does not change.

use std::cell::RefCell;

use bytes::Bytes;
use jaq_json::{Map, Num, Rc, Val};

/// How deep arrays and objects may nest. jaq's reader recurses without a
/// bound (a deep enough text overflows the stack); deeper than this is
/// [`Read::TooDeep`].
pub const MAX_DEPTH: usize = 512;

/// What [`read`] made of a text.
#[derive(Debug)]
pub enum Read {
    /// The text is strict JSON: its value.
    Value(Val),
    /// Not strict JSON (maybe not JSON at all, maybe jaq's superset).
    NotStrict,
    /// Arrays or objects nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

/// Read `text` (valid UTF-8) as one JSON value with optional white space
/// around it.
pub fn read(text: &Bytes) -> Read {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => {
            let (items, entries) = &mut *scratch;
            let read = read_with(text, items, entries);
            // Empty unless reading stopped halfway.
            items.clear();
            entries.clear();
            read
        }
        Err(_) => read_with(text, &mut Vec::new(), &mut Vec::new()),
    })
}

/// Array items and object entries being read.
type Stacks = (Vec<Val>, Vec<(Val, Val)>);

thread_local! {
    /// The stacks arrays and objects are collected on, kept from one text
    /// to the next (empty between them).
    static SCRATCH: RefCell<Stacks> = const { RefCell::new((Vec::new(), Vec::new())) };
}

fn read_with(text: &Bytes, items: &mut Vec<Val>, entries: &mut Vec<(Val, Val)>) -> Read {
    let mut reader = Reader {
        src: text,
        at: 0,
        depth: 0,
        items,
        entries,
    };
    reader.skip_space();
    let value = reader.value();
    reader.skip_space();
    match value {
        Ok(value) if reader.at == text.len() => Read::Value(value),
        Ok(_) | Err(Stop::NotStrict) => Read::NotStrict,
        Err(Stop::TooDeep) => Read::TooDeep,
    }
}

/// Why reading stopped early.
enum Stop {
    NotStrict,
    TooDeep,
}

struct Reader<'a> {
    src: &'a Bytes,
    at: usize,
    depth: usize,
    /// Array items being read, innermost array last.
    items: &'a mut Vec<Val>,
    /// Object entries being read, innermost object last.
    entries: &'a mut Vec<(Val, Val)>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Step over `byte` (after white space), or stop.
    fn expect(&mut self, byte: u8) -> Result<(), Stop> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(Stop::NotStrict)
        }
    }

    fn literal(&mut self, word: &[u8], value: Val) -> Result<Val, Stop> {
        if self.src[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(Stop::NotStrict)
        }
    }

    /// One value starting at the current byte (white space already skipped).
    fn value(&mut self) -> Result<Val, Stop> {
        match self.peek() {
            Some(b'"') => self.string(),
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'n') => self.literal(b"null", Val::Null),
            Some(b't') => self.literal(b"true", Val::Bool(true)),
            Some(b'f') => self.literal(b"false", Val::Bool(false)),
            _ => Err(Stop::NotStrict),
        }
    }

    fn nested(&mut self, read: fn(&mut Self) -> Result<Val, Stop>) -> Result<Val, Stop> {
        if self.depth == MAX_DEPTH {
            return Err(Stop::TooDeep);
        }
        self.depth += 1;
        self.at += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    /// After `[`: the items and `]`.
    fn array(&mut self) -> Result<Val, Stop> {
        let start = self.items.len();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Val::Arr(Rc::new(Vec::new())));
        }
        loop {
            self.skip_space();
            let item = self.value()?;
            self.items.push(item);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    let items: Vec<Val> = self.items.drain(start..).collect();
                    return Ok(Val::Arr(Rc::new(items)));
                }
                _ => return Err(Stop::NotStrict),
            }
        }
    }

    /// After `{`: the entries and `}`.
    fn object(&mut self) -> Result<Val, Stop> {
        let start = self.entries.len();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Val::obj(Map::default()));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(Stop::NotStrict);
            }
            let key = self.string()?;
            self.expect(b':')?;
            self.skip_space();
            let value = self.value()?;
            self.entries.push((key, value));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    let count = self.entries.len() - start;
                    let mut map = Map::default();
                    map.reserve(count);
                    // `insert`, as jaq's reader does: a repeated key keeps
                    // its first place and takes its last value.
                    for (key, value) in self.entries.drain(start..) {
                        map.insert(key, value);
                    }
                    return Ok(Val::obj(map));
                }
                _ => return Err(Stop::NotStrict),
            }
        }
    }

    /// At `"`: the string and its closing quote.
    fn string(&mut self) -> Result<Val, Stop> {
        self.at += 1;
        let start = self.at;
        let end = self.src[start..]
            .iter()
            .position(|&b| matches!(b, b'"' | b'\\' | 0..=0x1F))
            .map(|n| start + n);
        match end.map(|end| (end, self.src[end])) {
            Some((end, b'"')) => {
                self.at = end + 1;
                Ok(Val::utf8_str(self.src.slice(start..end)))
            }
            Some((end, b'\\')) => {
                self.at = end;
                self.escaped(start)
            }
            _ => Err(Stop::NotStrict),
        }
    }

    /// The rest of a string from its first escape (at `self.at`); `start`
    /// is where its text began.
    fn escaped(&mut self, start: usize) -> Result<Val, Stop> {
        let mut out = self.src[start..self.at].to_vec();
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(Val::utf8_str(out));
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = self.escape()?;
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                Some(0..=0x1F) | None => return Err(Stop::NotStrict),
                Some(byte) => {
                    out.push(byte);
                    self.at += 1;
                }
            }
        }
    }

    /// After a `\`: the character it stands for.
    fn escape(&mut self) -> Result<char, Stop> {
        let kind = self.peek().ok_or(Stop::NotStrict)?;
        self.at += 1;
        Ok(match kind {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&unit) {
                    if !self.src[self.at..].starts_with(b"\\u") {
                        return Err(Stop::NotStrict);
                    }
                    self.at += 2;
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(Stop::NotStrict);
                    }
                    0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    unit
                };
                char::from_u32(code).ok_or(Stop::NotStrict)?
            }
            _ => return Err(Stop::NotStrict),
        })
    }

    fn hex4(&mut self) -> Result<u32, Stop> {
        let digits = self.src.get(self.at..self.at + 4).ok_or(Stop::NotStrict)?;
        let mut unit = 0;
        for &digit in digits {
            let value = char::from(digit).to_digit(16).ok_or(Stop::NotStrict)?;
            unit = unit * 16 + value;
        }
        self.at += 4;
        Ok(unit)
    }

    /// At `-` or a digit: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    fn number(&mut self) -> Result<Val, Stop> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let int_start = self.at;
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(Stop::NotStrict),
        }
        let int_end = self.at;
        let mut integral = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            self.some_digits()?;
            integral = false;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            self.some_digits()?;
            integral = false;
        }
        // Valid UTF-8: every byte of a number is ASCII.
        let text = std::str::from_utf8(&self.src[start..self.at]).map_err(|_| Stop::NotStrict)?;
        let num = if !integral {
            Num::Dec(Rc::new(text.to_owned()))
        } else if int_end - int_start <= 18 {
            // At most 18 digits fit an i64 (and jaq's machine integer).
            let magnitude = self.src[int_start..int_end]
                .iter()
                .fold(0_i64, |n, d| n * 10 + i64::from(d - b'0'));
            let signed = if start == int_start {
                magnitude
            } else {
                -magnitude
            };
            Num::from_integral(signed)
        } else {
            Num::from_str_radix(text, 10).ok_or(Stop::NotStrict)?
        };
        Ok(Val::Num(num))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }

    /// One digit or more.
    fn some_digits(&mut self) -> Result<(), Stop> {
        let start = self.at;
        self.digits();
        if self.at == start {
            Err(Stop::NotStrict)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
#[path = "jq_read_tests.rs"]
mod tests;
