//! The contexts a fleet polls, and resolving each one's settings off the
//! async threads (a `password_command` runs a process).
//!
//! Every context in the config file is a target, plus the `-b` one-off when
//! given. `-X` overrides apply to the one-off only: a `-X sasl.password`
//! meant for one cluster must not be sent to fifty. Every target is
//! resolved read-only: the fleet never changes a cluster.

use std::sync::Arc;
use std::time::Duration;

use crate::config::LoadedConfig;
use crate::config::resolve::{self, ONE_OFF, ResolvedContext, Selection};
use crate::config::secret;

use super::error::Error;

/// How long resolving a context may take in all: its unattended
/// `password_command`'s timeout and a second for the rest.
pub const RESOLVE_DEADLINE: Duration =
    secret::UNATTENDED_TIMEOUT.saturating_add(Duration::from_secs(1));

/// One context to poll.
#[derive(Clone)]
pub struct FleetTarget {
    /// The context's name ([`ONE_OFF`] for `-b`).
    pub name: String,
    loaded: Arc<LoadedConfig>,
    selection: Selection,
}

impl std::fmt::Debug for FleetTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FleetTarget")
            .field("name", &self.name)
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}

impl FleetTarget {
    /// Resolve the target's settings (secrets included) on a blocking
    /// thread, unattended: a `password_command` runs without a terminal
    /// and is killed after [`secret::UNATTENDED_TIMEOUT`]
    /// (`config::secret::unattended`). One that fails or waits for a
    /// terminal is [`Error::NeedsLogin`]: the user opens the context once
    /// (where its command may ask) and hands the settings over.
    pub async fn resolve(&self) -> Result<ResolvedContext, Error> {
        let target = self.clone();
        let work = tokio::task::spawn_blocking(move || {
            secret::unattended(secret::UNATTENDED_TIMEOUT, || {
                resolve::resolve(&target.loaded, &target.selection)
            })
        });
        let context = self.name.clone();
        match tokio::time::timeout(RESOLVE_DEADLINE, work).await {
            Ok(Ok(Ok(resolved))) => Ok(resolved),
            Ok(Ok(Err(error))) => Err(Error::from_config(&context, &error)),
            Ok(Err(join)) => Err(Error::Config {
                context,
                message: format!("resolving the context failed: {join}"),
            }),
            // Only a password command can make resolving slow (and it is
            // killed at its own timeout, before this).
            Err(_) => Err(Error::NeedsLogin { context }),
        }
    }
}

/// Every context in `loaded`, plus the `-b` one-off of `selection` (with
/// its `-X` overrides) when it names bootstrap servers.
pub fn targets(loaded: LoadedConfig, selection: &Selection) -> Vec<FleetTarget> {
    let loaded = Arc::new(loaded);
    let mut out: Vec<FleetTarget> = loaded
        .file
        .contexts
        .keys()
        .map(|name| FleetTarget {
            name: name.clone(),
            loaded: Arc::clone(&loaded),
            selection: Selection {
                context: Some(name.clone()),
                bootstrap: None,
                overrides: Vec::new(),
                read_only: true,
                mask: Vec::new(),
            },
        })
        .collect();
    if let Some(bootstrap) = &selection.bootstrap {
        out.push(FleetTarget {
            name: ONE_OFF.to_owned(),
            loaded,
            selection: Selection {
                context: None,
                bootstrap: Some(bootstrap.clone()),
                overrides: selection.overrides.clone(),
                read_only: true,
                mask: Vec::new(),
            },
        });
    }
    out
}
