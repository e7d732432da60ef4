//! [`Writer`]: frames in, chunks out. Frames are buffered as JSON lines and
//! written as one chunk on [`Writer::flush`] (the recorder calls it every
//! few seconds, so a killed recording loses at most those seconds) or when
//! the buffer passes [`CHUNK_TARGET`].

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::chunk;
use super::error::{Error, Result};
use super::frame::{Frame, Header};

/// Flush a chunk once this many bytes of frames are buffered.
pub const CHUNK_TARGET: usize = 4 * 1024 * 1024;

/// An open recording being written.
#[derive(Debug)]
pub struct Writer {
    out: BufWriter<File>,
    path: PathBuf,
    pending: Vec<u8>,
    pending_frames: u32,
    stats: Stats,
}

/// What a writer wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Frames written.
    pub frames: u64,
    /// Chunks written.
    pub chunks: u64,
    /// Bytes in the file.
    pub bytes: u64,
}

impl Writer {
    /// Create (or replace) `path` and write `header`.
    pub fn create(path: &Path, header: &Header) -> Result<Writer> {
        let io = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let mut out = BufWriter::new(File::create(path).map_err(io)?);
        let bytes = chunk::write_header(&mut out, header).map_err(io)?;
        out.flush().map_err(io)?;
        Ok(Writer {
            out,
            path: path.to_owned(),
            pending: Vec::new(),
            pending_frames: 0,
            stats: Stats {
                bytes,
                ..Stats::default()
            },
        })
    }

    fn io(&self, source: std::io::Error) -> Error {
        Error::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Buffer one frame (a chunk is written when the buffer is large).
    pub fn push(&mut self, frame: &Frame) -> Result<()> {
        serde_json::to_writer(&mut self.pending, frame)
            .map_err(|e| self.io(std::io::Error::other(e)))?;
        self.pending.push(b'\n');
        self.pending_frames += 1;
        self.stats.frames += 1;
        if self.pending.len() >= CHUNK_TARGET {
            self.flush()?;
        }
        Ok(())
    }

    /// Write what is buffered as one chunk, through to the file.
    pub fn flush(&mut self) -> Result<()> {
        if self.pending_frames == 0 {
            return Ok(());
        }
        let written = chunk::write_chunk(&mut self.out, &self.pending, self.pending_frames)
            .and_then(|n| self.out.flush().map(|()| n))
            .map_err(|e| self.io(e))?;
        self.stats.bytes += written;
        self.stats.chunks += 1;
        self.pending.clear();
        self.pending_frames = 0;
        Ok(())
    }

    /// Flush and close; what was written.
    pub fn finish(mut self) -> Result<Stats> {
        self.flush()?;
        self.out.get_ref().sync_all().map_err(|e| self.io(e))?;
        Ok(self.stats)
    }

    /// What was written so far (buffered frames counted).
    pub fn stats(&self) -> Stats {
        self.stats
    }
}
