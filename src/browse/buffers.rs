//! Buffers that inflated batches are decoded into, handed back for reuse
//! when the last record of their batch is dropped.
//!
//! A batch of 1 MiB inflates into a fresh buffer; once its records are
//! printed (or leave the Messages ring) the buffer is freed. Left to the
//! allocator, the next batch's buffer is usually new memory: a freed block
//! serves a later request only when the sizes fit, and the kernel then
//! faults in (and zeroes) every page again. Those faults were a fifth of
//! `consume`'s CPU on well-compressed topics. Here a dropped batch's buffer
//! goes into a small pool, and the next batch of the same size or smaller
//! takes it, pages already mapped. The pool holds at most [`KEPT_BYTES`]; a
//! buffer past [`LARGEST_KEPT`] is freed as before.

use std::sync::{Mutex, PoisonError};

use bytes::Bytes;

/// The most capacity the pool keeps, over all its buffers.
const KEPT_BYTES: usize = 32 << 20;
/// A buffer larger than this is not kept.
const LARGEST_KEPT: usize = 16 << 20;

/// Free buffers, and their total capacity.
static POOL: Mutex<(Vec<Vec<u8>>, usize)> = Mutex::new((Vec::new(), 0));

/// Capacities below this are not rounded to a size class.
const SMALLEST_CLASS: usize = 64 << 10;

/// An empty buffer of at least `capacity` bytes: the smallest pooled one that
/// fits, or a new one.
///
/// A new buffer's capacity is rounded up to a power of two (from 64 KiB up
/// to [`LARGEST_KEPT`]), so that batches of about the same size take each
/// other's buffers: without the classes, a batch asking for a few bytes
/// more than any pooled buffer holds takes fresh memory while the pool
/// keeps buffers just too small (4 % of `consume`'s page faults on the
/// bench's base shape). Capacity never written to costs address space,
/// not pages.
pub fn take(capacity: usize) -> Vec<u8> {
    if capacity <= LARGEST_KEPT {
        let capacity = size_class(capacity);
        let mut pool = POOL.lock().unwrap_or_else(PoisonError::into_inner);
        let (buffers, held) = &mut *pool;
        let best = buffers
            .iter()
            .enumerate()
            .filter(|(_, b)| b.capacity() >= capacity)
            .min_by_key(|(_, b)| b.capacity())
            .map(|(at, _)| at);
        if let Some(at) = best {
            let buffer = buffers.swap_remove(at);
            *held -= buffer.capacity();
            return buffer;
        }
    }
    Vec::with_capacity(size_class(capacity))
}

/// `capacity` rounded up to its size class (itself when small or too large
/// to be kept).
fn size_class(capacity: usize) -> usize {
    if (SMALLEST_CLASS..=LARGEST_KEPT).contains(&capacity) {
        capacity.next_power_of_two()
    } else {
        capacity
    }
}

/// `buffer` as `Bytes` that return it to the pool when the last slice of it
/// is dropped.
pub fn into_bytes(buffer: Vec<u8>) -> Bytes {
    Bytes::from_owner(Pooled(buffer))
}

/// A buffer owned by `Bytes`; going back to the pool on drop.
struct Pooled(Vec<u8>);

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        let mut buffer = std::mem::take(&mut self.0);
        let capacity = buffer.capacity();
        if capacity == 0 || capacity > LARGEST_KEPT {
            return;
        }
        buffer.clear();
        let mut pool = POOL.lock().unwrap_or_else(PoisonError::into_inner);
        let (buffers, held) = &mut *pool;
        if *held + capacity <= KEPT_BYTES {
            *held += capacity;
            buffers.push(buffer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_batch_buffer_is_taken_again_and_the_pool_stays_bounded() {
        let buffer = take(3 << 20);
        let at = buffer.as_ptr();
        let mut buffer = buffer;
        buffer.extend_from_slice(&[7; 100]);
        let bytes = into_bytes(buffer);
        let slice = bytes.slice(10..20);
        drop(bytes);
        assert_eq!(&slice[..], &[7; 10], "a slice keeps the buffer alive");
        drop(slice);
        // Other tests use the pool too: the buffer is there, or was taken.
        let again = take(3 << 20);
        if again.as_ptr() == at {
            assert!(again.is_empty(), "a reused buffer comes back empty");
        }
        let huge = into_bytes(vec![0; LARGEST_KEPT + 1]);
        drop(huge);
        let pool = POOL.lock().unwrap_or_else(PoisonError::into_inner);
        assert!(pool.1 <= KEPT_BYTES);
        assert!(
            pool.0
                .iter()
                .all(|b| b.capacity() <= LARGEST_KEPT && b.is_empty())
        );
        assert_eq!(pool.1, pool.0.iter().map(Vec::capacity).sum::<usize>());
    }
}
