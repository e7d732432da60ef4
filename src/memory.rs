//! Giving freed memory back to the operating system.
//!
//! glibc's allocator keeps the pages of freed memory mapped: after a full
//! metadata refresh of a million partitions (a 40 MB answer decoded next to
//! the snapshot it replaces) or after leaving a screen of 10,000 groups, the
//! process stays at its peak although the live heap is far smaller (measured:
//! 363 MiB instead of 194 idle at a million partitions, BENCHMARKS.md). The
//! TUI's run loop calls [`give_back_later`] after such a drop; glibc then
//! returns every whole free page of every arena (`malloc_trim(0)`).
//! Elsewhere (musl, other systems) it does nothing. `consume`, which frees
//! and allocates batch buffers all the time, asks instead for freed memory
//! to be kept and reused ([`tune_for_streaming`]).

use std::time::Instant;

/// [`give_back`] on a blocking thread: at a million partitions it walks the
/// free lists for ~20 ms, longer than a frame.
pub fn give_back_later(why: &'static str) {
    drop(tokio::task::spawn_blocking(move || give_back(why)));
}

/// Return whole free pages of the heap to the OS; logs what it took.
/// Returns whether any memory was released.
pub fn give_back(why: &str) -> bool {
    let started = Instant::now();
    let (in_use, free) = heap();
    let released = trim();
    tracing::debug!(
        why,
        released,
        in_use_kib = in_use / 1024,
        free_kib = free / 1024,
        took_us = started.elapsed().as_micros(),
        "gave freed memory back"
    );
    released
}

/// Bytes the allocator has handed out and bytes it holds free (glibc's
/// `mallinfo2`): what the heap really holds, against what RSS says.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)] // an FFI call without preconditions, as `trim`
pub fn heap() -> (usize, usize) {
    // SAFETY: mallinfo2 only reads the allocator's counters under its locks.
    let info = unsafe { libc::mallinfo2() };
    (info.uordblks + info.hblkhd, info.fordblks)
}

/// Not known off glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn heap() -> (usize, usize) {
    (0, 0)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)] // FFI without preconditions
fn trim() -> bool {
    // SAFETY: malloc_trim only walks and madvises the allocator's own free
    // lists under its locks; it has no preconditions.
    unsafe { libc::malloc_trim(0) == 1 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() -> bool {
    false
}

/// Tune glibc's allocator for a stream of short-lived buffers (`consume`):
/// each record batch inflates into a buffer of up to a few MiB, freed once
/// its records are printed. By default glibc maps every such buffer afresh
/// (above its mmap threshold), trims the heap's top as soon as it is free,
/// and gives each thread its own arena, so a buffer freed on the printing
/// thread is not reused by the decoding one: every batch touched new pages,
/// and page faults were a third of `consume`'s CPU (BENCHMARKS.md). Here
/// buffers up to 32 MiB come from the heap, up to 64 MiB of free heap is
/// kept for reuse, and all threads share one arena (the process has two).
/// Call it before any thread starts; it does nothing off glibc.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)] // FFI without preconditions, as `trim`
pub fn tune_for_streaming() {
    // SAFETY: mallopt only sets the allocator's parameters under its lock;
    // a refused value leaves the default in place, which is still correct.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
}

/// Nothing to tune off glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn tune_for_streaming() {}
