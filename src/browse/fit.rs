//! [`Fit`]: sizing a fetch to the offsets it has left to read, at the bytes
//! per offset read so far ([`super::Options::fit`]).
//!
//! A fetch reads a slice of the log's bytes, not a range of offsets: what
//! it asks for past a stop offset is fetched for nothing, and what it asks
//! for too little is cut inside a batch, that partial batch fetched again
//! by the next fetch. Reading newest first in windows (`consume --key`),
//! every fetch of a window asks for about the bytes left before the
//! window's end, the first one and the ones after an answer was cut alike.

/// The bytes per offset read so far, as the bytes fetched over the offsets
/// they covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    pub bytes: u64,
    pub offsets: i64,
}

/// Bounds of a fitted fetch's size (the lower one is also the slack added
/// to every estimate: about one batch of the Java producer's default
/// `batch.size`).
const BOUNDS: (u64, u64) = (16 * 1024, 8 * 1024 * 1024);

impl Fit {
    /// The bytes to ask for to read `span` offsets: what they hold at the
    /// rate read so far, a fiftieth more and 16 KiB, within 16 KiB..8 MiB.
    /// Asking for too little costs a partial batch (fetched again), asking
    /// for too much what lies past the stop: the margin is small.
    pub fn ask(self, span: i64) -> i32 {
        let (span, covered) = (
            u64::try_from(span).unwrap_or(0),
            u64::try_from(self.offsets).unwrap_or(0).max(1),
        );
        let bytes = span.saturating_mul(self.bytes) / covered;
        let want = bytes.saturating_add(bytes / 50).saturating_add(BOUNDS.0);
        i32::try_from(want.clamp(BOUNDS.0, BOUNDS.1)).unwrap_or(i32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetch_asks_for_about_the_bytes_its_offsets_hold() {
        // 250 bytes an offset so far: 4,000 offsets are ~1 MB, plus a
        // fiftieth and 16 KiB.
        let fit = |bytes, offsets| Fit { bytes, offsets };
        assert_eq!(fit(250_000, 1000).ask(4000), 1_020_000 + 16_384);
        assert_eq!(fit(10, 1000).ask(1), 16_384, "at least 16 KiB");
        assert_eq!(
            fit(u64::MAX, 1).ask(i64::MAX),
            8 * 1024 * 1024,
            "at most 8 MiB"
        );
        assert_eq!(fit(0, 0).ask(10), 16_384, "nothing read yet");
        assert_eq!(fit(250_000, 1000).ask(-5), 16_384, "nothing left");
    }
}
