//! Where a keyed record lands: the Java producer's default partitioner
//! (`BuiltInPartitioner.partitionForKey`), `toPositive(murmur2(key)) %
//! partitions`, with Kafka's `Utils.murmur2` (seed `0x9747b28c`) over the
//! serialized key bytes. librdkafka's `murmur2_random` partitioner computes
//! the same for non-empty keys.

/// Kafka's `Utils.murmur2` over `data`.
pub fn murmur2(data: &[u8]) -> i32 {
    const SEED: u32 = 0x9747_b28c;
    const M: u32 = 0x5bd1_e995;
    const R: u32 = 24;
    // `data.len()` as Java's int: keys are far below 2 GiB.
    let length = u32::try_from(data.len()).unwrap_or(u32::MAX);
    let mut h = SEED ^ length;
    let mut chunks = data.chunks_exact(4);
    for chunk in &mut chunks {
        let mut k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        if let Some(b) = tail.get(2) {
            h ^= u32::from(*b) << 16;
        }
        if let Some(b) = tail.get(1) {
            h ^= u32::from(*b) << 8;
        }
        h ^= u32::from(tail[0]);
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    i32::from_ne_bytes(h.to_ne_bytes())
}

/// Kafka's `Utils.toPositive`: the sign bit cleared (not `abs`).
pub fn to_positive(n: i32) -> i32 {
    n & 0x7fff_ffff
}

/// The partition the Java producer's default partitioner picks for `key`
/// among `partitions` (`None` when the topic has none).
pub fn partition_for_key(key: &[u8], partitions: i32) -> Option<i32> {
    (partitions > 0).then(|| to_positive(murmur2(key)) % partitions)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kafka's own vectors (`UtilsTest.testMurmur2`).
    #[test]
    fn murmur2_matches_kafkas_vectors() {
        let cases: [(&[u8], i32); 6] = [
            (b"21", -973_932_308),
            (b"foobar", -790_332_482),
            (b"a-little-bit-long-string", -985_981_536),
            (b"a-little-bit-longer-string", -1_486_304_829),
            (
                b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8",
                -58_897_971,
            ),
            (b"abc", 479_470_107),
        ];
        for (data, expected) in cases {
            assert_eq!(murmur2(data), expected, "{}", String::from_utf8_lossy(data));
        }
    }

    #[test]
    fn to_positive_clears_the_sign_bit_rather_than_negating() {
        assert_eq!(to_positive(i32::MIN), 0);
        assert_eq!(to_positive(-1), i32::MAX);
        assert_eq!(to_positive(-10), 0x7fff_fff6);
        assert_eq!(to_positive(10), 10);
    }

    #[test]
    fn partition_is_the_positive_hash_modulo_the_count() {
        // -973932308 & 0x7fffffff = 1173551340; % 100 = 40.
        assert_eq!(partition_for_key(b"21", 100), Some(40));
        assert_eq!(partition_for_key(b"21", 1), Some(0));
        assert_eq!(partition_for_key(b"21", 0), None);
        // Empty keys hash too (the Java client only skips null keys).
        assert!(partition_for_key(b"", 7).is_some_and(|p| (0..7).contains(&p)));
    }
}
