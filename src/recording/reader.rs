//! Reading a recording: [`read`] keeps every chunk before damage and says
//! where the damage is; [`read_strict`] fails on it.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use super::chunk::Cursor;
use super::error::{Error, Result};
use super::frame::{Frame, Header};

/// A recording read back.
#[derive(Debug)]
pub struct Recording {
    pub header: Header,
    /// Every frame of every whole chunk, in file order.
    pub frames: Vec<Frame>,
    /// Where reading stopped early, if it did: the frames are those before.
    pub damage: Option<Error>,
}

/// Read `path`; a bad header is an error, damage after it is kept in
/// [`Recording::damage`] with the frames before it.
pub fn read(path: &Path) -> Result<Recording> {
    let file = File::open(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    let mut cursor = Cursor::new(BufReader::new(file), path);
    let header = cursor.header()?;
    let mut frames = Vec::new();
    let damage = loop {
        match cursor.chunk() {
            Ok(Some(chunk)) => frames.extend(chunk),
            Ok(None) => break None,
            Err(error) => break Some(error),
        }
    };
    Ok(Recording {
        header,
        frames,
        damage,
    })
}

/// Read `path`, failing on any damage.
pub fn read_strict(path: &Path) -> Result<Recording> {
    let mut recording = read(path)?;
    match recording.damage.take() {
        Some(error) => Err(error),
        None => Ok(recording),
    }
}
