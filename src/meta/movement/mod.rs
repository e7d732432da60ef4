//! Leader movement and the other observed changes: what an event is
//! ([`MovementEvent`]), what kinds there are ([`MovementKind`]), and the
//! diff of two consecutive metadata snapshots that finds most of them
//! ([`diff`]).
//!
//! - `event`: one observed change (time, subject, kind);
//! - `kind`: the kinds, serialized with a `kind` tag in `snake_case` (the
//!   CLI prints them; recordings read them back), and their names;
//! - `diff`: each installed snapshot diffed against the one it replaces;
//! - `reconcile`: a member's partitions before and after, as the KIP-848
//!   reconciliation kinds carry them.
//!
//! What an event means (severity, source, subject) is in
//! `movement_meaning`, the bounded log of them in `movement_log`, their rate
//! limits in `event_limits`.

mod diff;
mod event;
mod kind;
mod reconcile;

pub use diff::diff;
pub use event::MovementEvent;
pub use kind::MovementKind;
pub use reconcile::{MemberChange, Partitions};
