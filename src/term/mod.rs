//! The only code that touches the terminal: lifecycle, input, the run loop
//! and the effect worker.

mod browse;
mod find;
mod in_flight;
pub mod input;
mod run;
mod save;
pub mod terminal;
mod worker;

pub use run::{Msg, run};
