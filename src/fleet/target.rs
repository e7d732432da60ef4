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

use super::error::Error;

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
    /// thread, within `deadline`. A password command that fails or waits
    /// for a terminal is [`Error::NeedsLogin`].
    pub async fn resolve(&self, deadline: Duration) -> Result<ResolvedContext, Error> {
        let target = self.clone();
        let work = tokio::task::spawn_blocking(move || {
            resolve::resolve(&target.loaded, &target.selection)
        });
        let context = self.name.clone();
        match tokio::time::timeout(deadline, work).await {
            Ok(Ok(Ok(resolved))) => Ok(resolved),
            Ok(Ok(Err(error))) => Err(Error::from_config(&context, &error)),
            Ok(Err(join)) => Err(Error::Config {
                context,
                message: format!("resolving the context failed: {join}"),
            }),
            // Only a password command can make resolving slow.
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
