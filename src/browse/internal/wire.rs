//! Reading Kafka's own record schemas (the coordinators' keys and values):
//! big-endian integers, strings and bytes with an `int16`/`int32` length, and
//! in flexible versions compact strings, arrays and tagged fields (unsigned
//! varint lengths plus one). Every read checks the bytes left first: a
//! truncated or hostile record is an error, never a panic or a huge
//! allocation.

use std::fmt;

/// Why a record could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError(pub String);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WireError {}

/// The result of a read.
pub type Read<T> = Result<T, WireError>;

/// A cursor over one key's or value's bytes.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Whether strings, bytes and arrays are compact (flexible versions).
    pub flexible: bool,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader {
            bytes,
            at: 0,
            flexible: false,
        }
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }

    fn take(&mut self, n: usize, what: &str) -> Read<&'a [u8]> {
        let left = self.bytes.len() - self.at;
        if n > left {
            return Err(WireError(format!(
                "truncated: {what} needs {n} bytes at byte {}, {left} left",
                self.at
            )));
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Read<[u8; N]> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// An `int8`.
    pub fn i8(&mut self, what: &str) -> Read<i8> {
        self.array(what).map(i8::from_be_bytes)
    }

    /// An `int16`.
    pub fn i16(&mut self, what: &str) -> Read<i16> {
        self.array(what).map(i16::from_be_bytes)
    }

    /// An `int32`.
    pub fn i32(&mut self, what: &str) -> Read<i32> {
        self.array(what).map(i32::from_be_bytes)
    }

    /// An `int64`.
    pub fn i64(&mut self, what: &str) -> Read<i64> {
        self.array(what).map(i64::from_be_bytes)
    }

    /// A `uuid`: its 16 bytes as the protocol carries them.
    pub fn uuid(&mut self, what: &str) -> Read<[u8; 16]> {
        self.array(what)
    }

    /// An unsigned varint (at most 5 bytes, a `u32`).
    pub fn uvarint(&mut self, what: &str) -> Read<u32> {
        let mut value: u32 = 0;
        for shift in [0, 7, 14, 21, 28] {
            let [b] = self.array::<1>(what)?;
            value |= u32::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(WireError(format!("{what}: varint longer than 5 bytes")))
    }

    /// A length: `int16` (strings), `int32` (bytes, arrays) or, flexible, an
    /// unsigned varint holding length + 1. `None` is null (-1, or 0 compact).
    fn length(&mut self, wide: bool, what: &str) -> Read<Option<usize>> {
        let n: i64 = if self.flexible {
            i64::from(self.uvarint(what)?) - 1
        } else if wide {
            i64::from(self.i32(what)?)
        } else {
            i64::from(self.i16(what)?)
        };
        match n {
            -1 => Ok(None),
            n if n < -1 => Err(WireError(format!("{what}: negative length {n}"))),
            n => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
        }
    }

    /// A nullable string (invalid UTF-8 replaced, never refused).
    pub fn nullable_string(&mut self, what: &str) -> Read<Option<String>> {
        let Some(n) = self.length(false, what)? else {
            return Ok(None);
        };
        let bytes = self.take(n, what)?;
        Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
    }

    /// A string that must not be null.
    pub fn string(&mut self, what: &str) -> Read<String> {
        self.nullable_string(what)?
            .ok_or_else(|| WireError(format!("{what}: null where a string is required")))
    }

    /// A byte field; only its length is kept (null is 0).
    pub fn bytes_len(&mut self, what: &str) -> Read<usize> {
        let n = self.length(true, what)?.unwrap_or(0);
        self.take(n, what).map(<[u8]>::len)
    }

    /// An array's element count; each element takes at least one byte, so a
    /// count beyond the bytes left is refused before anything is allocated.
    pub fn count(&mut self, what: &str) -> Read<usize> {
        let n = self.length(true, what)?.unwrap_or(0);
        let left = self.bytes.len() - self.at;
        if n > left {
            return Err(WireError(format!(
                "{what}: {n} entries in {left} bytes (truncated or corrupt)"
            )));
        }
        Ok(n)
    }

    /// Skip a flexible version's tagged fields (nothing when not flexible).
    pub fn tagged_fields(&mut self, what: &str) -> Read<()> {
        self.each_tagged(what, |_, _| Ok(()))
    }

    /// Hand each of a flexible version's tagged fields, its tag and its
    /// bytes, to `f` (nothing when not flexible).
    pub fn each_tagged(
        &mut self,
        what: &str,
        mut f: impl FnMut(u32, &'a [u8]) -> Read<()>,
    ) -> Read<()> {
        if !self.flexible {
            return Ok(());
        }
        let fields = self.uvarint(what)?;
        for _ in 0..fields {
            let tag = self.uvarint(what)?;
            let size = self.uvarint(what)?;
            f(
                tag,
                self.take(usize::try_from(size).unwrap_or(usize::MAX), what)?,
            )?;
        }
        Ok(())
    }
}

/// A value of a version or type its decoder does not know: the version it
/// starts with and the bytes after it (shown, never guessed at), or why not
/// even the version could be read.
pub fn versioned_bytes(bytes: &[u8]) -> Result<(i16, Vec<u8>), WireError> {
    let mut r = Reader::new(bytes);
    let version = r.i16("value version")?;
    Ok((version, r.rest().to_vec()))
}
