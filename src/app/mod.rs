//! The model: [`AppState`], [`Screen`], [`Action`], the pure [`update`]
//! returning [`Effect`]s, the keymap, filter, sort and command line.
//! Nothing here does I/O or awaits. What failed reaches it as a
//! [`Failure`] (transient or final, and the words to show), never as a
//! bare string it would have to read.

pub mod action;
pub mod command;
pub mod configs;
pub mod event_sources;
pub mod event_strip;
pub mod failure;
pub mod filter;
mod forward;
pub mod groups;
mod input;
pub mod key;
pub mod keymap;
mod keymap_defaults;
pub mod layout;
mod navigate;
pub mod replay;
pub mod rows;
pub mod screen;
pub mod screens;
mod select;
pub mod sizes;
pub mod state;
pub mod stores;
pub mod throughput;
mod update;
pub mod watermarks;

/// The names the group list's polling had before it moved to
/// `screens::groups` (the tests and benches import them from here).
pub mod group_poll {
    pub use super::groups::sorted_by_lag;
    pub use super::screens::groups::plan::REST_EVERY;
}

pub use action::{Action, DegradedInfo, Effect};
pub use failure::Failure;
pub use key::{Code, Key};
pub use keymap::Keymap;
pub use screen::{Screen, Sort, View};
pub use state::{AppState, Link, Mode};
pub use update::update;
