//! KSCOPE-PATCH: a memory budget for one decode.
//!
//! Bounding each reservation by the bytes left in the buffer keeps a tiny
//! frame from claiming 2^31 elements, but not a large frame from being
//! genuinely full of small elements: a `DescribeGroups` member is ~7 bytes on
//! the wire and ~350 in memory, so a 96 MB frame of them needs ~5 GB. The
//! caller therefore sets a budget in bytes around a decode ([`with_budget`]),
//! and the decoders charge it before they allocate:
//!
//! - arrays charge `size_of::<T>()` for every element slot they reserve, and
//!   reserve conservatively (a small first reservation, then doubling, never
//!   past the claimed count or the bytes left);
//! - strings and byte fields charge their length (even when they share the
//!   frame's buffer rather than copying, which keeps the rule simple and
//!   over-counts by at most the frame's size);
//! - an unknown tagged field charges [`TAGGED_FIELD_COST`] plus its length.
//!
//! A charge past the budget fails the decode with [`BudgetExceeded`], and
//! [`with_budget`] reports that it happened. Outside [`with_budget`] nothing
//! is counted and nothing is refused, as upstream.
//!
//! Tested from kscope (`src/conn/budget.rs`), since a path dependency's own
//! tests do not run in kscope's workspace.
//!
//! The budget is thread-local: a decode is synchronous and runs on one thread,
//! so the caller brackets it without threading a parameter through every
//! generated `decode` function.

use std::cell::Cell;
use std::fmt;

/// What one entry of an `unknown_tagged_fields` map (`BTreeMap<i32, Bytes>`)
/// is charged besides its bytes: the `(i32, Bytes)` pair is 40 bytes, and
/// B-tree nodes filled in ascending order are a little over half full, so an
/// entry costs ~80 bytes of node; 96 leaves room for the internal nodes.
pub const TAGGED_FIELD_COST: usize = 96;

/// The decode needed more memory than its budget allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// The budget, in bytes.
    pub limit: usize,
    /// What had been charged, plus the charge that was refused.
    pub wanted: usize,
}

impl fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "decoding needs more than its {}-byte memory budget (at least {} bytes)",
            self.limit, self.wanted
        )
    }
}

impl std::error::Error for BudgetExceeded {}

/// What a budgeted decode used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// The budget, in bytes.
    pub limit: usize,
    /// Bytes charged, refused charges excluded.
    pub charged: usize,
    /// Whether a charge was refused (the decode then failed).
    pub exceeded: bool,
}

#[derive(Debug, Clone, Copy)]
struct State {
    limit: usize,
    charged: usize,
    exceeded: bool,
}

thread_local! {
    static BUDGET: Cell<Option<State>> = const { Cell::new(None) };
}

/// Restores the enclosing budget (if any) when a budgeted decode ends, even
/// by unwinding.
struct Restore(Option<State>);

impl Drop for Restore {
    fn drop(&mut self) {
        BUDGET.with(|budget| budget.set(self.0));
    }
}

/// Run `decode` with a budget of `limit` bytes and report what it used.
///
/// Budgets do not nest additively: an inner `with_budget` replaces the outer
/// one for its duration, and the outer one resumes where it was.
pub fn with_budget<T>(limit: usize, decode: impl FnOnce() -> T) -> (T, Usage) {
    let outer = BUDGET.with(|budget| {
        budget.replace(Some(State {
            limit,
            charged: 0,
            exceeded: false,
        }))
    });
    let restore = Restore(outer);
    let value = decode();
    let state = BUDGET.with(Cell::get);
    drop(restore);
    let usage = match state {
        Some(state) => Usage {
            limit: state.limit,
            charged: state.charged,
            exceeded: state.exceeded,
        },
        None => Usage {
            limit,
            charged: 0,
            exceeded: false,
        },
    };
    (value, usage)
}

/// Charge `bytes` against the current budget; without one, always succeeds.
pub fn charge(bytes: usize) -> Result<(), BudgetExceeded> {
    BUDGET.with(|budget| {
        let Some(mut state) = budget.get() else {
            return Ok(());
        };
        let wanted = state.charged.saturating_add(bytes);
        if wanted > state.limit {
            state.exceeded = true;
            budget.set(Some(state));
            return Err(BudgetExceeded {
                limit: state.limit,
                wanted,
            });
        }
        state.charged = wanted;
        budget.set(Some(state));
        Ok(())
    })
}
