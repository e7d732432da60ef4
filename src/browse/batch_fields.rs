//! Reading a record's fields (varints, nullable byte strings) from an
//! inflated batch body, each read checked against the body's end.

use bytes::Bytes;

use super::error::BatchError;

/// A cursor over a batch's (inflated) records.
pub(super) struct Cursor<'a> {
    pub(super) body: &'a Bytes,
    pub(super) at: usize,
}

impl Cursor<'_> {
    pub(super) fn byte(&mut self) -> Result<u8, BatchError> {
        let b = *self
            .body
            .get(self.at)
            .ok_or(BatchError::Malformed("record runs past its batch"))?;
        self.at += 1;
        Ok(b)
    }

    /// A zigzag varlong.
    pub(super) fn varlong(&mut self) -> Result<i64, BatchError> {
        let mut raw: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            raw |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                #[allow(clippy::cast_possible_wrap)]
                return Ok((raw >> 1) as i64 ^ -((raw & 1) as i64));
            }
        }
        Err(BatchError::Malformed("varint longer than 10 bytes"))
    }

    pub(super) fn varint(&mut self) -> Result<i32, BatchError> {
        i32::try_from(self.varlong()?).map_err(|_| BatchError::Malformed("varint out of range"))
    }

    /// `n` bytes as a slice of the body.
    pub(super) fn take(&mut self, n: usize) -> Result<Bytes, BatchError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.body.len())
            .ok_or(BatchError::Malformed("length runs past its batch"))?;
        let out = self.body.slice(self.at..end);
        self.at = end;
        Ok(out)
    }

    /// A varint-length-prefixed byte field; -1 is null.
    pub(super) fn nullable(&mut self) -> Result<Option<Bytes>, BatchError> {
        match self.varint()? {
            -1 => Ok(None),
            n if n < -1 => Err(BatchError::Malformed("negative length")),
            n => self
                .take(usize::try_from(n).unwrap_or(usize::MAX))
                .map(Some),
        }
    }
}
