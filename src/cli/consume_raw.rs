//! `consume -o raw` with nothing between the broker and the pipe (no jq,
//! no registry, no mask rules, no record filter): each call's records are
//! written with vectored writes straight from the batch buffers they were
//! decoded into, instead of being copied value by value into the stdout
//! buffer (that copy was an eighth of the command's CPU).

use std::io::{IoSlice, Write};

use regex::bytes::Regex;

use crate::browse::Event;
use crate::schema::Decoder;

use super::args::OutputFormat;
use super::consume_sink::{ConsumeArgs, Output};
use super::error::Error;

/// The most slices one `writev` takes (Linux's `IOV_MAX`).
const IOV_MAX: usize = 1024;

/// Whether records go out as they came: `-o raw`, and nothing decodes,
/// masks, filters or picks them (`grep` is `--grep` when matched before
/// masking).
pub fn applies(
    args: &ConsumeArgs,
    output: OutputFormat,
    decoder: Option<&Decoder>,
    grep: Option<&Regex>,
) -> bool {
    output == OutputFormat::Raw
        && decoder.is_none()
        && !args.jq.active()
        && args.mask.for_topic(&args.topic).is_none()
        && grep.is_none()
        && args.key.is_none()
        && args.owner.is_none()
}

/// Write the value and a newline of every record among `events`, at most
/// `limit` of them, saying notices on stderr as they come; the number of
/// records written.
pub fn write_values(
    topic: &str,
    events: &[Event],
    limit: Option<u64>,
    out: &mut impl Write,
) -> Result<u64, Error> {
    let mut slices: Vec<IoSlice<'_>> = Vec::new();
    let mut written = 0u64;
    for event in events {
        match event {
            Event::Notice(notice) => Output::notice(topic, notice),
            Event::Record(record) => {
                if limit.is_some_and(|n| written >= n) {
                    break;
                }
                slices.push(IoSlice::new(record.value.as_deref().unwrap_or_default()));
                slices.push(IoSlice::new(b"\n"));
                written += 1;
            }
        }
    }
    for chunk in slices.chunks_mut(IOV_MAX) {
        write_all_vectored(out, chunk)?;
    }
    Ok(written)
}

/// `Write::write_all` for slices: writes every byte of `slices`, going on
/// after a short write.
fn write_all_vectored(out: &mut impl Write, mut slices: &mut [IoSlice<'_>]) -> std::io::Result<()> {
    IoSlice::advance_slices(&mut slices, 0);
    while !slices.is_empty() {
        match out.write_vectored(slices) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::Record;
    use bytes::Bytes;

    /// A writer taking at most 7 bytes of at most 3 slices per call: short
    /// writes everywhere.
    struct Stingy(Vec<u8>);

    impl Write for Stingy {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let n = buf.len().min(7);
            self.0.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
            let mut n = 0;
            for buf in bufs.iter().take(3) {
                let take = buf.len().min(7 - n);
                self.0.extend_from_slice(&buf[..take]);
                n += take;
                if n == 7 {
                    break;
                }
            }
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_value_and_newline_arrives_through_short_writes_and_past_iov_max() {
        let records: Vec<Event> = (0..3000)
            .map(|i| {
                let mut record = Record::sample(i, 0);
                record.value = (i % 7 != 0).then(|| Bytes::from(format!("value {i}")));
                Event::Record(record)
            })
            .collect();
        let mut out = Stingy(Vec::new());
        let written = write_values("t", &records, Some(2500), &mut out).expect("writes");
        assert_eq!(written, 2500);
        let expected: String = (0..2500)
            .map(|i| {
                if i % 7 == 0 {
                    "\n".to_owned()
                } else {
                    format!("value {i}\n")
                }
            })
            .collect();
        assert_eq!(String::from_utf8(out.0).expect("utf-8"), expected);
    }
}
