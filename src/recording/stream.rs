//! A recording read one chunk at a time, for the headless answers (`get
//! --at`, `watch --from-file`): what they need is folded as the frames go
//! by and no frame is kept, so memory is the state at the cursor plus one
//! chunk, not the whole file decoded (a 10-minute recording of 100k
//! partitions through a rolling restart held 540 MB that way).
//!
//! A cursor counted from the end (`-90s`, `end`, no `--at`) needs the last
//! frame's time first: a pass over the chunks checks and inflates each and
//! reads its last line's `t` only, then the fold stops at the first frame
//! after the cursor. The TUI's replay moves back and forth and
//! keeps the decoded frames ([`super::reader::read`]).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use super::chunk::Cursor;
use super::cursor::parse_time;
use super::error::{Error, Result};
use super::frame::{Frame, Header};

/// A recording opened for streaming: its header, and where it is.
#[derive(Debug)]
pub struct Stream {
    path: std::path::PathBuf,
    /// The header, checked.
    pub header: Header,
}

/// What a fold found: where it stopped early, if it did (damage: the
/// frames before it were folded).
pub type Damage = Option<Error>;

impl Stream {
    /// Open `path` and check its header.
    ///
    /// # Errors
    /// The file cannot be read or its header is not a recording's.
    pub fn open(path: &Path) -> Result<Stream> {
        let mut cursor = cursor(path)?;
        let header = cursor.header()?;
        Ok(Stream {
            path: path.to_owned(),
            header,
        })
    }

    /// The last frame's time before any damage (the start when there is
    /// none), as [`super::Recording::end_ms`] has it.
    ///
    /// # Errors
    /// The file cannot be opened again.
    pub fn end_ms(&self) -> Result<i64> {
        let mut cursor = cursor(&self.path)?;
        cursor.header()?;
        let mut end = self.header.start_ms;
        while let Ok(Some(last)) = cursor.chunk_end() {
            if let Some(t) = last {
                end = end.max(t);
            }
        }
        Ok(end)
    }

    /// The cursor `text` names (`None`: the end), reading the file for its
    /// end only when `text` counts from there.
    ///
    /// # Errors
    /// `text` does not parse (in words), or the file cannot be read.
    pub fn parse_at(&self, text: Option<&str>) -> std::result::Result<i64, String> {
        let start = self.header.start_ms;
        let from_end = text.is_none_or(|t| {
            let t = t.trim();
            t == "end" || t.starts_with('-')
        });
        let end = if from_end {
            self.end_ms().map_err(|e| e.to_string())?
        } else {
            // Not read: the grammar takes it only for "end" and "-…".
            start
        };
        parse_time(start, end, text.unwrap_or("end"))
    }

    /// Hand every frame up to and including `at` to `each`, in file order,
    /// stopping at the first later one.
    ///
    /// # Errors
    /// The file cannot be opened again (damage after the header is the
    /// [`Damage`] returned, with the frames before it handed out).
    pub fn until(&self, at: i64, mut each: impl FnMut(Frame)) -> Result<Damage> {
        let mut cursor = cursor(&self.path)?;
        cursor.header()?;
        loop {
            match cursor.chunk() {
                Ok(Some(frames)) => {
                    for frame in frames {
                        if frame.t > at {
                            return Ok(None);
                        }
                        each(frame);
                    }
                }
                Ok(None) => return Ok(None),
                Err(error) => return Ok(Some(error)),
            }
        }
    }
}

fn cursor(path: &Path) -> Result<Cursor<'_, BufReader<File>>> {
    let file = File::open(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    Ok(Cursor::new(BufReader::new(file), path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::frame::{Body, Health, Metadata};
    use crate::recording::{View, Writer, read};

    /// Frames a second apart over several chunks: health that changes at
    /// each, and a snapshot every fifth.
    fn write(path: &Path) -> Vec<i64> {
        let header = Header {
            kscope: "test".to_owned(),
            context: None,
            start_ms: 1_000,
            topics: None,
            groups: None,
        };
        let mut writer = Writer::create(path, &header).expect("create");
        let mut times = Vec::new();
        for i in 0..40_i32 {
            let t = 2_000 + i64::from(i) * 1_000;
            let body = if i % 5 == 0 {
                Body::Snapshot(Metadata {
                    controller: Some(i),
                    ..Metadata::default()
                })
            } else {
                Body::Health(Health {
                    not_answering: vec![(i, t)],
                    frozen: None,
                })
            };
            writer.push(&Frame { t, body }).expect("push");
            if i % 7 == 6 {
                writer.flush().expect("flush");
            }
            times.push(t);
        }
        writer.finish().expect("finish");
        times
    }

    fn folded(stream: &Stream, at: i64) -> (View, Damage) {
        let mut view = View {
            at,
            ..View::default()
        };
        let damage = stream.until(at, |f| view.apply(&f.body)).expect("read");
        (view, damage)
    }

    fn same(a: &View, b: &View) {
        assert_eq!(
            (a.at, a.has_metadata, &a.metadata, &a.health),
            (b.at, b.has_metadata, &b.metadata, &b.health)
        );
    }

    #[test]
    fn the_fold_at_any_cursor_is_the_whole_files_view_there() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("r.krec");
        let times = write(&path);
        let whole = read(&path).expect("read");
        let stream = Stream::open(&path).expect("open");
        assert_eq!(stream.end_ms().expect("end"), whole.end_ms());
        for at in [0, 1_000, 2_000, 2_500, 9_000, 20_999, 41_000, 99_000] {
            let (view, damage) = folded(&stream, at);
            assert!(damage.is_none());
            same(&view, &whole.view_at(at));
        }
        for text in ["end", "-5s", "+3s", "start"] {
            let at = stream.parse_at(Some(text)).expect("parses");
            assert_eq!(at, whole.parse_at(text).expect("parses"), "{text}");
        }
        assert_eq!(stream.parse_at(None), Ok(*times.last().expect("frames")));
        assert!(stream.parse_at(Some("yesterday")).is_err());
    }

    #[test]
    fn a_cut_file_folds_up_to_the_cut_and_says_where() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("r.krec");
        write(&path);
        let bytes = std::fs::read(&path).expect("bytes");
        std::fs::write(&path, &bytes[..bytes.len() - 10]).expect("cut");
        let whole = read(&path).expect("read");
        let offset = whole.damage.as_ref().and_then(Error::offset);
        assert!(offset.is_some());
        let stream = Stream::open(&path).expect("open");
        // The end is the last whole chunk's, as the whole read has it.
        let end = stream.end_ms().expect("end");
        assert_eq!(end, whole.end_ms());
        let (view, damage) = folded(&stream, i64::MAX);
        assert_eq!(damage.as_ref().and_then(Error::offset), offset);
        same(&view, &whole.view_at(i64::MAX));
        // A cursor before the cut never meets it.
        let (_, damage) = folded(&stream, 3_000);
        assert!(damage.is_none());
    }
}
