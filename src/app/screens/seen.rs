//! What a screen module is given of the session beside its own store: the
//! time ([`Clock`]), what the stack shows when it plans ([`Seen`]) and its
//! view's rows when it keeps them itself ([`Kept`]).

use std::any::TypeId;
use std::time::{Instant, SystemTime};

/// The time a screen ages its data and rows against, read once per
/// `update` or frame.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    /// Monotonic now (the age of an answer).
    pub now: Instant,
    /// Wall-clock now in ms since the epoch (the age of a broker timestamp).
    pub now_ms: i64,
    /// Wall-clock now (how long a broker has been down, against the wall
    /// time it was seen gone).
    pub wall: SystemTime,
}

/// What the session shows, as a plan may need it beyond its own screen:
/// built once per `update` by the dispatch's caller. Most screens read
/// only `now`; the group list's plan reads the window and sort of its own
/// view on top, and, while hidden, which module is on top and further
/// down, and `L`. Modules are named by their shown type's [`TypeId`]
/// ([`Seen::on_top`]), so the contract names no screen enum: a module
/// imports the dispatch's types nowhere.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    /// Monotonic now.
    pub now: Instant,
    /// The rows of the view on top in the window drawn: indices into its
    /// module's store, as `rows` gave them.
    pub window: &'a [usize],
    /// The header of the column the view on top is sorted by.
    pub sorted_by: Option<&'static str>,
    /// The module of the screen on top: its shown type's id.
    pub top: Option<TypeId>,
    /// The modules of the screens below the top, bottom first.
    pub below: &'a [TypeId],
    /// `L` is on: the group list keeps loading while Topics shows, for its
    /// LAG column.
    pub follow_lag: bool,
}

impl Seen<'_> {
    /// Whether the screen on top is one of module `M`'s (`M` its shown
    /// type: `topics::List`).
    pub fn on_top<M: 'static>(&self) -> bool {
        self.top == Some(TypeId::of::<M>())
    }

    /// Whether a screen of module `M` is further down the stack.
    pub fn under<M: 'static>(&self) -> bool {
        self.below.contains(&TypeId::of::<M>())
    }

    /// Nothing seen but the time (tests, a plan outside a session).
    pub fn at(now: Instant) -> Seen<'static> {
        Seen {
            now,
            window: &[],
            sorted_by: None,
            top: None,
            below: &[],
            follow_lag: false,
        }
    }
}

/// A view's rows as [`Module::keep_rows`](super::Module::keep_rows) keeps them: indices into the
/// store, and the selection and scroll position, which follow the rows
/// that went and came (the selection on the last row stays on the last).
#[derive(Debug)]
pub struct Kept<'a> {
    /// The rows shown.
    pub rows: &'a mut Vec<usize>,
    /// Index into `rows` of the selected row.
    pub selected: &'a mut usize,
    /// Index into `rows` of the first row drawn.
    pub offset: &'a mut usize,
}
