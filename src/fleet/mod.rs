//! The fleet: every context in the config at a glance. Each context is
//! polled with a small fixed set of requests over kscope's own connection
//! layer (see `probe`), concurrently with a bound, on its own cadence, a
//! failing one backing off; each poll has its own deadline so a hung
//! cluster never delays another's row.
//!
//! For a screen: build [`FleetTarget`]s with [`targets`], start a
//! [`Fleet`] (a tokio task) and read [`FleetRows`] from
//! [`Fleet::subscribe`]'s `watch` receiver. For a one-shot answer (the
//! CLI's `get fleet`): [`poll_all`].

mod error;
mod poller;
mod probe;
mod row;
mod settings;
mod sweep;
mod target;
mod version;

pub use error::{Error, Reason};
pub use poller::{Fleet, FleetRows, poll_all};
pub use row::{FleetRow, Health, by_severity};
pub use settings::FleetSettings;
pub use target::{FleetTarget, targets};
pub use version::Release;
