//! What a screen module's fetch runs against: the session's [`Reach`]
//! (cluster, groups client, schema registry) and the [`Source`] each module
//! takes from it.

use crate::app::failure::Failure;
use crate::groups::GroupsClient;
use crate::meta::Cluster;
use crate::schema::RegistryClient;

/// What a screen's fetch can run against, as the session holds it: the
/// cluster's connection and the context's schema registry.
#[derive(Clone, Default)]
pub struct Reach {
    /// The cluster, once connected.
    pub cluster: Option<Cluster>,
    /// The context's schema registry, or why it could not be set up (none
    /// configured: `None`).
    pub registry: Option<Registry>,
    /// The cluster's consumer-group client (with its request counts and
    /// topic-name cache), once connected.
    pub groups: Option<GroupsClient>,
}

/// The context's schema registry client, or why there is none (its
/// config is unusable: final until the context changes).
pub type Registry = Result<RegistryClient, Failure>;

/// One thing a fetch runs against ([`Module::Source`](super::Module::Source)), taken from the
/// [`Reach`]; without it the fetch is not started.
pub trait Source: Sized + Send + 'static {
    /// Whether a screen fetching from it asks only while the cluster is
    /// connected (its `plan` is not called otherwise).
    const NEEDS_CLUSTER: bool;

    /// It, if the session has it.
    fn from_reach(reach: &Reach) -> Option<Self>;
}

impl Source for Cluster {
    const NEEDS_CLUSTER: bool = true;

    fn from_reach(reach: &Reach) -> Option<Cluster> {
        reach.cluster.clone()
    }
}

impl Source for GroupsClient {
    const NEEDS_CLUSTER: bool = true;

    fn from_reach(reach: &Reach) -> Option<GroupsClient> {
        reach.groups.clone()
    }
}

/// Nothing: a screen that never fetches (its data arrives by itself) and
/// is shown whether or not the cluster is connected (the fleet).
impl Source for () {
    const NEEDS_CLUSTER: bool = false;

    fn from_reach(_: &Reach) -> Option<()> {
        Some(())
    }
}

impl Source for Registry {
    /// The registry answers without the cluster.
    const NEEDS_CLUSTER: bool = false;

    fn from_reach(reach: &Reach) -> Option<Registry> {
        reach.registry.clone()
    }
}
