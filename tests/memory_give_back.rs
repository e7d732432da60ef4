//! `kscope::memory::give_back` really returns freed heap to the OS (glibc).
//! Its own test binary: RSS is per process, and no other test may allocate
//! while it measures.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn freed_memory_in_the_middle_of_the_heap_goes_back_to_the_os() {
    /// The process's resident set in KiB.
    fn rss_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").expect("procfs");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc/self/status")
    }

    // ~256 MiB in 1 KiB blocks (like a snapshot's many small records),
    // every one written so its pages are resident.
    let mut blocks: Vec<Box<[u8]>> = (0..262_144u32)
        .map(|i| vec![u8::try_from(i % 251).unwrap_or(0); 1024].into_boxed_slice())
        .collect();
    // Keep one block in 64, so the free space is holes between live blocks
    // (never the heap's top, which free() alone could give back).
    let mut kept = Vec::new();
    for (i, block) in blocks.drain(..).enumerate() {
        if i % 64 == 0 {
            kept.push(block);
        }
    }
    drop(blocks);
    let before = rss_kib();
    assert!(
        kscope::memory::give_back("test"),
        "glibc says it released nothing"
    );
    let after = rss_kib();
    assert!(
        before.saturating_sub(after) > 128 * 1024,
        "only {} KiB of ~252 MiB freed went back: {before} -> {after} KiB",
        before.saturating_sub(after)
    );
    assert!(
        kept.iter()
            .enumerate()
            .all(|(i, b)| b[0] == u8::try_from((i * 64) % 251).unwrap_or(0))
    );
}
