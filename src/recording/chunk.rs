//! The bytes on disk: a header, then independently decodable chunks.
//!
//! ```text
//! header  "KSCOPREC" | version u16 | length u32 | header JSON | crc32c u32
//! chunk   "KSCH" | frames u32 | raw length u32 | zstd length u32 | crc32c u32 | zstd bytes
//! ```
//!
//! Integers are big-endian. A chunk's zstd bytes inflate to `raw length`
//! bytes of JSON lines, one [`Frame`] per line; the crc32c covers the zstd
//! bytes, so a flipped bit is found before anything is inflated. Every
//! length is checked against a cap before anything is allocated, and the
//! inflation is bounded by the (capped) raw length. A chunk stands alone:
//! a file cut anywhere replays every chunk before the cut.

use std::io::{ErrorKind, Read, Write};
use std::path::Path;

use super::error::{Error, Result};
use super::frame::{Frame, Header};

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"KSCOPREC";
/// Each chunk's first four bytes.
pub const CHUNK_MAGIC: &[u8; 4] = b"KSCH";
/// The format version this build writes (and the newest it reads).
pub const VERSION: u16 = 1;
/// The largest header accepted.
pub const MAX_HEADER: u32 = 64 * 1024;
/// The largest chunk accepted, compressed or inflated.
pub const MAX_CHUNK: u32 = 64 * 1024 * 1024;
/// The most frames a chunk may claim (a frame is at least a few bytes of
/// JSON, so a raw length of `MAX_CHUNK` holds fewer).
const MAX_FRAMES: u32 = MAX_CHUNK / 8;
/// The zstd level: fast, and recordings are mostly repetition.
const LEVEL: i32 = 3;

pub fn write_header(out: &mut impl Write, header: &Header) -> std::io::Result<u64> {
    let json = serde_json::to_vec(header).map_err(std::io::Error::other)?;
    let length = u32::try_from(json.len())
        .ok()
        .filter(|n| *n <= MAX_HEADER)
        .ok_or_else(|| std::io::Error::other("recording header too large"))?;
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_be_bytes())?;
    out.write_all(&length.to_be_bytes())?;
    out.write_all(&json)?;
    out.write_all(&crc32c::crc32c(&json).to_be_bytes())?;
    Ok(18 + u64::from(length))
}

/// Compress `lines` (`frames` JSON lines) into one chunk on `out`; returns
/// the bytes written.
pub fn write_chunk(out: &mut impl Write, lines: &[u8], frames: u32) -> std::io::Result<u64> {
    let packed = zstd::bulk::compress(lines, LEVEL)?;
    let raw = u32::try_from(lines.len()).ok().filter(|n| *n <= MAX_CHUNK);
    let zlen = u32::try_from(packed.len()).ok().filter(|n| *n <= MAX_CHUNK);
    let (Some(raw), Some(zlen)) = (raw, zlen) else {
        return Err(std::io::Error::other("recording chunk too large"));
    };
    out.write_all(CHUNK_MAGIC)?;
    out.write_all(&frames.to_be_bytes())?;
    out.write_all(&raw.to_be_bytes())?;
    out.write_all(&zlen.to_be_bytes())?;
    out.write_all(&crc32c::crc32c(&packed).to_be_bytes())?;
    out.write_all(&packed)?;
    Ok(20 + u64::from(zlen))
}

/// A byte stream that knows its offset and says where it ran dry.
pub struct Cursor<'a, R> {
    input: R,
    path: &'a Path,
    offset: u64,
}

impl<'a, R: Read> Cursor<'a, R> {
    /// Read `input` (from `path`, for messages) from offset 0.
    pub fn new(input: R, path: &'a Path) -> Self {
        Self {
            input,
            path,
            offset: 0,
        }
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    fn corrupt(&self, offset: u64, what: impl Into<String>) -> Error {
        Error::Corrupt {
            path: self.path.to_owned(),
            offset,
            what: what.into(),
        }
    }

    /// Fill `buf`; `Ok(false)` at a clean end of file (nothing read), a
    /// truncation error (naming `start`, the piece's first byte) when it
    /// ends part-way.
    fn fill(&mut self, buf: &mut [u8], start: u64, what: &str) -> Result<bool> {
        let mut read = 0;
        while read < buf.len() {
            match self.input.read(&mut buf[read..]) {
                Ok(0) => break,
                Ok(n) => read += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(Error::Io {
                        path: self.path.to_owned(),
                        source,
                    });
                }
            }
        }
        self.offset += read as u64;
        if read == buf.len() {
            return Ok(true);
        }
        if read == 0 && self.offset == start {
            return Ok(false);
        }
        Err(Error::Truncated {
            path: self.path.to_owned(),
            offset: start,
            what: format!("{what} ends after {} bytes", self.offset - start),
        })
    }

    fn must_fill(&mut self, buf: &mut [u8], start: u64, what: &str) -> Result<()> {
        if self.fill(buf, start, what)? {
            Ok(())
        } else {
            Err(Error::Truncated {
                path: self.path.to_owned(),
                offset: start,
                what: format!("{what} missing"),
            })
        }
    }

    /// `len` bytes, `len` already checked against a cap.
    fn bytes(&mut self, len: u32, start: u64, what: &str) -> Result<Vec<u8>> {
        let mut buf = vec![0; len as usize];
        self.must_fill(&mut buf, start, what)?;
        Ok(buf)
    }

    /// The header, checked.
    pub fn header(&mut self) -> Result<Header> {
        let mut fixed = [0u8; 14];
        if !self.fill(&mut fixed, 0, "header")? || fixed[..8] != MAGIC[..] {
            return Err(Error::NotARecording {
                path: self.path.to_owned(),
            });
        }
        let version = u16::from_be_bytes([fixed[8], fixed[9]]);
        if version == 0 || version > VERSION {
            return Err(Error::Version {
                path: self.path.to_owned(),
                version,
                supported: VERSION,
            });
        }
        let length = u32::from_be_bytes([fixed[10], fixed[11], fixed[12], fixed[13]]);
        if length > MAX_HEADER {
            return Err(self.corrupt(10, format!("header length {length} over {MAX_HEADER}")));
        }
        let json = self.bytes(length, 0, "header")?;
        let mut crc = [0u8; 4];
        self.must_fill(&mut crc, 0, "header checksum")?;
        if u32::from_be_bytes(crc) != crc32c::crc32c(&json) {
            return Err(self.corrupt(0, "header checksum mismatch"));
        }
        serde_json::from_slice(&json).map_err(|e| self.corrupt(14, format!("header: {e}")))
    }

    /// The next chunk's frames; `Ok(None)` at the end of the file.
    pub fn chunk(&mut self) -> Result<Option<Vec<Frame>>> {
        let Some(raw) = self.inflate()? else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity((raw.frames as usize).min(raw.lines.len() / 8 + 1));
        for (index, line) in raw.lines() {
            let frame = Frame::from_json(line)
                .map_err(|e| self.corrupt(raw.start, format!("frame {index} of the chunk: {e}")))?;
            out.push(frame);
        }
        self.count(&raw, out.len())?;
        Ok(Some(out))
    }

    /// The next chunk's last frame time: the chunk checked and inflated as
    /// [`Cursor::chunk`] does and its lines counted, but only the last one
    /// read (for its `t`): a line in the middle that is not a frame is
    /// found by [`Cursor::chunk`] alone. `Ok(None)` at the end of the file,
    /// `Some(None)` for a chunk of no frames.
    pub fn chunk_end(&mut self) -> Result<Option<Option<i64>>> {
        let Some(raw) = self.inflate()? else {
            return Ok(None);
        };
        let mut last = None;
        let mut seen = 0;
        for (_, line) in raw.lines() {
            last = Some(line);
            seen += 1;
        }
        self.count(&raw, seen)?;
        let Some(line) = last else {
            return Ok(Some(None));
        };
        let (t, _) = Frame::tag(line).map_err(|e| {
            self.corrupt(raw.start, format!("frame {} of the chunk: {e}", seen - 1))
        })?;
        Ok(Some(Some(t)))
    }

    /// The next chunk checked and inflated; `Ok(None)` at the end of the file.
    fn inflate(&mut self) -> Result<Option<Inflated>> {
        let start = self.offset;
        let mut fixed = [0u8; 20];
        if !self.fill(&mut fixed, start, "chunk header")? {
            return Ok(None);
        }
        if fixed[..4] != CHUNK_MAGIC[..] {
            return Err(self.corrupt(start, "no chunk magic"));
        }
        let word = |at: usize| {
            u32::from_be_bytes([fixed[at], fixed[at + 1], fixed[at + 2], fixed[at + 3]])
        };
        let (frames, raw, zlen, crc) = (word(4), word(8), word(12), word(16));
        if raw > MAX_CHUNK || zlen > MAX_CHUNK || frames > MAX_FRAMES {
            return Err(self.corrupt(
                start,
                format!("chunk claims {frames} frames, {raw} bytes raw, {zlen} packed (caps {MAX_FRAMES}, {MAX_CHUNK})"),
            ));
        }
        let packed = self.bytes(zlen, start, "chunk")?;
        if crc32c::crc32c(&packed) != crc {
            return Err(self.corrupt(start, "chunk checksum mismatch"));
        }
        let lines = zstd::bulk::decompress(&packed, raw as usize)
            .map_err(|e| self.corrupt(start, format!("chunk does not inflate: {e}")))?;
        if lines.len() != raw as usize {
            return Err(self.corrupt(start, "chunk inflates to another length than it claims"));
        }
        Ok(Some(Inflated {
            start,
            frames,
            lines,
        }))
    }

    /// The chunk held `seen` frames: the count it claims, or damage.
    fn count(&self, raw: &Inflated, seen: usize) -> Result<()> {
        if seen == raw.frames as usize {
            return Ok(());
        }
        Err(self.corrupt(
            raw.start,
            format!("chunk holds {seen} frames, claims {}", raw.frames),
        ))
    }
}

/// A chunk checked and inflated, its lines not yet read.
struct Inflated {
    /// Its byte offset in the file.
    start: u64,
    /// The frames it claims.
    frames: u32,
    /// JSON lines.
    lines: Vec<u8>,
}

impl Inflated {
    /// Its non-empty lines, numbered.
    fn lines(&self) -> impl Iterator<Item = (usize, &[u8])> {
        self.lines
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .enumerate()
    }
}
