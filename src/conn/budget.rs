//! How much memory decoding one response may take.
//!
//! The frame cap bounds what a broker can make kscope *read*; this bounds what
//! it can make kscope *build* from it. Every response decode (and every decode
//! of bytes nested in a response, like a group member's assignment) runs under
//! a budget of [`BUDGET_PER_BYTE`] times its input, at least [`MIN_BUDGET`]
//! and at most [`MAX_BUDGET`]. The vendored decoder charges it before each
//! allocation (`vendor/kafka-protocol/KSCOPE-PATCH.md`), so a frame that
//! claims or really holds millions of tiny elements is refused with an error
//! instead of aborting the process on a multi-GB allocation.
//!
//! Real responses need 1–5× their size in memory (the captured corpus is
//! checked in the tests below); a `DescribeGroups` member with empty fields is
//! ~7 bytes on the wire and ~350 in memory, which is what the budget refuses.

use kafka_protocol::protocol::budget;

pub use kafka_protocol::protocol::budget::Usage;

/// Bytes of memory a decode may use per byte of input.
pub const BUDGET_PER_BYTE: usize = 8;

/// The budget of a small input, so tiny frames are never refused for the
/// fixed costs of their top-level structures.
pub const MIN_BUDGET: usize = 1 << 20;

/// The most any one decode may use, whatever the frame cap.
pub const MAX_BUDGET: usize = 1 << 30;

/// The memory budget for decoding `input_bytes` bytes.
pub fn budget_for(input_bytes: usize) -> usize {
    input_bytes
        .saturating_mul(BUDGET_PER_BYTE)
        .clamp(MIN_BUDGET, MAX_BUDGET)
}

/// Run `decode` (of `input_bytes` bytes) under [`budget_for`]`(input_bytes)`,
/// returning its result and what it used; `usage.exceeded` tells a refusal
/// for memory from any other decode failure.
pub fn within_budget<T>(input_bytes: usize, decode: impl FnOnce() -> T) -> (T, Usage) {
    budget::with_budget(budget_for(input_bytes), decode)
}

/// `96.0 MB`, `768.0 MB`, `1.0 GiB`: a size for an error message.
pub fn human_bytes(bytes: usize) -> String {
    #[allow(clippy::cast_precision_loss)] // one decimal is all a message shows
    let value = bytes as f64;
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", value / f64::from(1u32 << 30))
    } else if bytes >= 1 << 20 {
        format!("{:.1} MiB", value / f64::from(1u32 << 20))
    } else if bytes >= 1 << 10 {
        format!("{:.1} KiB", value / f64::from(1u32 << 10))
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::protocol::budget::{BudgetExceeded, charge, with_budget};

    #[test]
    fn the_budget_is_eight_times_the_input_between_the_floor_and_the_cap() {
        assert_eq!(budget_for(0), MIN_BUDGET);
        assert_eq!(budget_for(1 << 20), 8 << 20);
        assert_eq!(budget_for(96 << 20), 768 << 20);
        assert_eq!(budget_for(1 << 30), MAX_BUDGET);
        assert_eq!(budget_for(usize::MAX), MAX_BUDGET);
    }

    #[test]
    fn charges_count_until_the_limit_and_then_fail() {
        let (results, usage) = with_budget(10, || [charge(4), charge(6), charge(1)]);
        assert!(results[0].is_ok() && results[1].is_ok());
        assert_eq!(
            results[2],
            Err(BudgetExceeded {
                limit: 10,
                wanted: 11
            })
        );
        assert_eq!(
            usage,
            Usage {
                limit: 10,
                charged: 10,
                exceeded: true
            }
        );
    }

    #[test]
    fn without_a_budget_nothing_is_refused_and_an_inner_budget_restores_the_outer() {
        assert!(charge(usize::MAX).is_ok());
        let (results, outer) = with_budget(100, || {
            let first = charge(50);
            let ((), inner) = with_budget(1, || assert!(charge(2).is_err()));
            (first, inner, charge(50))
        });
        assert!(results.0.is_ok() && results.2.is_ok());
        assert!(results.1.exceeded);
        assert_eq!(outer.charged, 100);
        assert!(!outer.exceeded);
        assert!(charge(usize::MAX).is_ok());
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(human_bytes(12), "12 bytes");
        assert_eq!(human_bytes(96 << 20), "96.0 MiB");
        assert_eq!(human_bytes(768 << 20), "768.0 MiB");
        assert_eq!(human_bytes(1 << 30), "1.0 GiB");
    }
}
