//! `kscope consume TOPIC --key K` newest first, in the partition the key
//! maps to (`consume_key`).
//!
//! Newest first reads the partition backwards in windows of offsets (1,000
//! records, then four times more each time), each window forward, until
//! enough matches are found or the log start is reached; every window's
//! matches are printed newest first. A window's fetch asks for about the
//! bytes the window holds (bytes per offset as read so far, plus a fiftieth
//! and 16 KiB), so that one fetch reads it whole and little past its end
//! (what a fetch reads past its window was read already: fetched for
//! nothing, it counts against the goal of reading about one partition's
//! share). Asking for too little costs less than asking for too much: the
//! broker cuts the answer inside a batch, that partial batch (at most one)
//! is fetched again by the next fetch, which the window's `until` keeps
//! going; a batch larger than the whole ask still comes whole (KIP-74).

use std::io::Write;

use crate::browse::{self, Browser, Event, Options, Start};
use crate::meta::Cluster;

use super::consume_key::KeyArg;
use super::consume_sink::{ConsumeArgs, Output};
use super::error::Error;

/// The first window read back from the end, in records.
const FIRST_WINDOW: i64 = 1000;
/// The per-partition fetch size of the first window (it ends at the log's
/// end, so nothing is read past it).
const FIRST_FETCH_BYTES: i32 = 1024 * 1024;
/// Bounds of a later window's fetch size (the lower one is also the slack
/// added to every estimate: about one batch of the Java producer's default
/// `batch.size`).
const FETCH_BYTES: (u64, u64) = (16 * 1024, 8 * 1024 * 1024);

/// A later window's fetch size: the bytes `span` offsets hold at the rate
/// read so far (`fetched` bytes over `covered` offsets), a fiftieth more and
/// 16 KiB, within [`FETCH_BYTES`].
fn window_fetch(span: i64, fetched: u64, covered: i64) -> i32 {
    let (span, covered) = (
        u64::try_from(span).unwrap_or(0),
        u64::try_from(covered).unwrap_or(0).max(1),
    );
    let bytes = span.saturating_mul(fetched) / covered;
    let want = bytes
        .saturating_add(bytes / 50)
        .saturating_add(FETCH_BYTES.0);
    i32::try_from(want.clamp(FETCH_BYTES.0, FETCH_BYTES.1)).unwrap_or(i32::MAX)
}

/// Newest first: read `partition` backwards in windows, printing each
/// window's matches newest first, until `count` are printed or the log
/// start is reached. Returns the matches printed and the bytes fetched.
pub async fn newest_first(
    cluster: &Cluster,
    args: &ConsumeArgs,
    key: &KeyArg,
    partition: i32,
    output: &mut Output<'_>,
    out: &mut impl Write,
) -> Result<(u64, u64), Error> {
    let count = args.count.unwrap_or(1);
    let (low, end) = browse::watermarks(cluster, &args.topic, partition, args.isolation).await?;
    let (mut hi, mut window, mut printed, mut fetched) = (end, FIRST_WINDOW, 0_u64, 0_u64);
    while hi > low && printed < count {
        let lo = hi.saturating_sub(window).max(low);
        let partition_max_bytes = if hi == end {
            FIRST_FETCH_BYTES
        } else {
            window_fetch(hi - lo, fetched, end - hi)
        };
        let options = Options {
            isolation: args.isolation,
            until: Some(hi),
            partition_max_bytes,
            ..Options::default()
        };
        let mut browser = Browser::open(
            cluster.clone(),
            &args.topic,
            Some(partition),
            &Start::Offset(lo),
            options,
        )
        .await?;
        let mut found = Vec::new();
        while !browser.finished() {
            for event in browser.next_events().await? {
                match event {
                    Event::Notice(notice) => Output::notice(&args.shown_topic, &notice),
                    Event::Record(record) => {
                        if key.matches(&record, output.decoder).await {
                            found.push(record);
                        }
                    }
                }
            }
        }
        fetched += browser.bytes_fetched();
        for record in found.iter().rev() {
            if printed >= count {
                break;
            }
            if output.print(args, record, out).await? {
                printed += 1;
            }
        }
        out.flush()?;
        hi = lo;
        window = window.saturating_mul(4);
    }
    Ok((printed, fetched))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_windows_fetch_asks_for_about_its_bytes() {
        // 250 bytes an offset so far: 4,000 offsets are ~1 MB, plus a
        // fiftieth and 16 KiB.
        assert_eq!(window_fetch(4000, 250_000, 1000), 1_020_000 + 16_384);
        assert_eq!(window_fetch(1, 10, 1000), 16_384, "at least 16 KiB");
        assert_eq!(
            window_fetch(i64::MAX, u64::MAX, 1),
            8 * 1024 * 1024,
            "at most 8 MiB"
        );
        assert_eq!(window_fetch(10, 0, 0), 16_384, "nothing read yet");
    }
}
