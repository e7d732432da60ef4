//! The only code that touches the terminal: lifecycle, input, the run loop
//! and the effect worker.

mod browse;
mod find;
mod fleet;
mod in_flight;
pub mod input;
mod launch;
mod login;
mod msg;
mod pause;
pub mod replay;
mod replay_groups;
mod replay_tui;
mod run;
mod save;
mod session_effects;
mod session_messages;
mod session_schema;
mod staging;
pub mod terminal;
mod worker;

pub use launch::run;
pub use msg::Msg;
pub use replay_tui::run as replay;
