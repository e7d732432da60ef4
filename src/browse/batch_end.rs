//! Where the batches not iterated yet end, read from their framing alone
//! (nothing inflated, no checksum): the offset a fetch that reads ahead of
//! them starts at.

use super::{Items, LOG_OVERHEAD, MAGIC_AT, read_i32, read_i64};

/// Where a v2 batch keeps `last_offset_delta`.
const LAST_DELTA_AT: usize = 23;

impl Items {
    /// The offset after the last whole batch not iterated yet: where the
    /// next fetch starts once they are all decoded (a partial batch at the
    /// end, as a fetch answer cut at its byte limit has, is read again by
    /// that fetch). `None` when there is no whole batch left, or the framing
    /// is not plain v2 batches (a corrupt or old-format answer is read to
    /// its end before anything is asked after it).
    pub fn end_offset(&self) -> Option<i64> {
        let mut at = self.at;
        let mut end = None;
        while let Some(rest) = self.bytes.get(at..).filter(|r| !r.is_empty()) {
            let (Some(base), Some(length)) = (read_i64(rest, 0), read_i32(rest, 8)) else {
                break; // cut inside the framing: a partial batch
            };
            let length = usize::try_from(length).ok()?;
            if length < LAST_DELTA_AT + 4 - LOG_OVERHEAD {
                return None;
            }
            let needed = LOG_OVERHEAD + length;
            if rest.len() < needed {
                break;
            }
            if rest.get(MAGIC_AT) != Some(&2) {
                return None;
            }
            let delta = read_i32(rest, LAST_DELTA_AT)?;
            end = Some(
                base.saturating_add(i64::from(delta.max(0)))
                    .saturating_add(1),
            );
            at += needed;
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use bytes::{BufMut, Bytes, BytesMut};

    use super::super::items;

    /// The framing of a v2 batch of `count` offsets from `base`, `body`
    /// bytes after its fixed header (contents not valid records: only the
    /// framing is read).
    fn framed(out: &mut BytesMut, base: i64, count: i32, body: usize) {
        out.put_i64(base);
        out.put_i32(i32::try_from(61 - 12 + body).unwrap());
        out.put_i32(0); // leader epoch
        out.put_u8(2); // magic
        out.put_u32(0); // crc
        out.put_i16(0); // attributes
        out.put_i32(count - 1); // last offset delta
        out.put_bytes(0, 61 - 27 + body);
    }

    #[test]
    fn whole_batches_end_after_the_last() {
        let mut bytes = BytesMut::new();
        framed(&mut bytes, 100, 10, 40);
        framed(&mut bytes, 110, 5, 7);
        assert_eq!(items(&bytes.freeze(), 0, 1 << 20).end_offset(), Some(115));
    }

    #[test]
    fn a_cut_batch_at_the_end_is_read_again() {
        let mut bytes = BytesMut::new();
        framed(&mut bytes, 100, 10, 40);
        framed(&mut bytes, 110, 5, 300);
        let cut = bytes.len() - 100;
        let cut = items(&bytes.freeze().slice(..cut), 0, 1 << 20);
        assert_eq!(cut.end_offset(), Some(110));
        let mut only_cut = BytesMut::new();
        framed(&mut only_cut, 7, 3, 300);
        let only_cut = only_cut.freeze().slice(..20);
        assert_eq!(items(&only_cut, 0, 1 << 20).end_offset(), None);
    }

    #[test]
    fn old_formats_and_bad_lengths_are_not_read_past() {
        let mut bytes = BytesMut::new();
        framed(&mut bytes, 0, 2, 10);
        let mut old = bytes.clone();
        old[16] = 1;
        assert_eq!(items(&old.freeze(), 0, 1 << 20).end_offset(), None);
        bytes.put_i64(2);
        bytes.put_i32(-5);
        assert_eq!(items(&bytes.freeze(), 0, 1 << 20).end_offset(), None);
        assert_eq!(items(&Bytes::new(), 0, 1 << 20).end_offset(), None);
    }
}
