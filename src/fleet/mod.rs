//! The fleet: every context in the config at a glance. Each context is
//! polled with a small fixed set of read-only requests over kscope's own
//! connection layer (see `probe`), concurrently with a bound, on its own
//! cadence, a failing one backing off; each poll has its own deadline so a
//! hung cluster never delays another's row.
//!
//! For a screen: build [`FleetTarget`]s with [`targets`] (from the loaded
//! config file and the command line's `-b`/`-X`), [`Fleet::start`] them on
//! the tokio runtime (a task of its own), and read [`FleetRows`] from
//! [`Fleet::subscribe`]'s `watch` receiver: `borrow()` is the latest rows,
//! worst first (every context is there from the start, `Pending`), and
//! `changed()` wakes on each answered poll. [`FleetRow::age`] gives a row's
//! age at draw time. [`Fleet::poll_now`] is a refresh key;
//! [`Fleet::logged_in`] hands over a context's settings once the user has
//! typed its password (a `NeedsLogin` row waits for that). Dropping the
//! `Fleet` stops it.
//!
//! ```ignore
//! let fleet = Fleet::start(targets(loaded, &selection), FleetSettings::from_config(&file));
//! let mut rows = fleet.subscribe();
//! while rows.changed().await.is_ok() {
//!     let latest: FleetRows = rows.borrow_and_update().clone();
//!     // hand `latest` to the screen's store
//! }
//! ```
//!
//! For a one-shot answer (the CLI's `get fleet`): [`poll_all`].
//!
//! Cost: between polls a kept cluster sends nothing (no background refresh
//! or liveness task); above [`FleetSettings::keep_connections_up_to`]
//! contexts nothing is kept at all. The fleet resolves contexts itself
//! (`config::resolve`), always read-only and unattended (a
//! `password_command` without a terminal, `config::secret::unattended`),
//! before a poll's deadline starts.

mod error;
mod group_lag;
mod min_isr;
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
pub use target::{FleetTarget, RESOLVE_DEADLINE, targets};
pub use version::Release;
