//! One poll of one context: a small fixed set of requests, all within the
//! poll's own deadline.
//!
//! - a full `Metadata` (brokers, topics, partition state) with the quorum's
//!   `DescribeQuorum` beside it (what every refresh sends);
//! - kscope's liveness check: a `Metadata` for no topics to each listed
//!   broker (which brokers answer);
//! - one `ApiVersions` for the features (the release);
//! - `ListGroups` on each broker, then `OffsetFetch` and `ListOffsets` for
//!   the next few groups of the lag sweep, and a header-sized `Fetch` for a
//!   few of their most lagging partitions (lag in time; see `group_lag`);
//! - one `DescribeConfigs` of `min.insync.replicas` for a bounded batch of
//!   topics (under-min-ISR; see `min_isr`).
//!
//! Nothing is written, no group is joined, no offset committed.

use std::time::{Duration, Instant};

use crate::config::resolve::ResolvedContext;
use crate::conn::protocol::messages::DescribeQuorumRequest;
use crate::inspect::cluster_info::{api_versions_request, read_features};
use crate::meta::{Cluster, ClusterConfig, MetadataSnapshot};

use super::error::Error;
use super::group_lag::groups;
use super::min_isr::{self, MinIsr};
use super::row::{FleetRow, Health};
use super::settings::FleetSettings;
use super::sweep::Sweep;
use super::target::FleetTarget;
use super::version;

/// Background metadata refreshes of a kept cluster: effectively never (each
/// poll refreshes itself).
const NO_BACKGROUND_REFRESH: Duration = Duration::from_hours(24);

/// Everything the fleet holds for one context between polls.
#[derive(Debug)]
pub(super) struct ContextState {
    /// The context.
    pub(super) target: FleetTarget,
    /// Its settings, once resolved (a password command runs once).
    pub(super) resolved: Option<ResolvedContext>,
    /// Its connections, kept between polls on a small fleet.
    pub(super) cluster: Option<Cluster>,
    /// Where the lag sweep is.
    pub(super) sweep: Sweep,
    /// Each topic's `min.insync.replicas` read so far.
    pub(super) min_isr: MinIsr,
    pub(super) row: FleetRow,
}

impl ContextState {
    /// A context not polled yet.
    pub(super) fn new(target: FleetTarget) -> ContextState {
        let row = FleetRow::pending(&target.name);
        ContextState {
            target,
            resolved: None,
            cluster: None,
            sweep: Sweep::default(),
            min_isr: MinIsr::default(),
            row,
        }
    }
}

/// Poll `state`'s context once, within `settings.poll_deadline`, and
/// update its row. `keep`: keep the connections for the next poll.
/// A context not resolved yet is resolved first, within its own deadline
/// (`target::RESOLVE_DEADLINE`, before the poll's starts): a
/// `password_command` that needs a terminal makes the row "needs login",
/// never "timed out".
pub(super) async fn poll(state: &mut ContextState, settings: &FleetSettings, keep: bool) {
    let deadline = settings.poll_deadline;
    let resolved = match state.resolved {
        Some(_) => Ok(()),
        None => state
            .target
            .resolve()
            .await
            .map(|resolved| state.resolved = Some(resolved)),
    };
    let error = match resolved {
        Err(error) => Some(error),
        Ok(()) => match tokio::time::timeout(deadline, Box::pin(read(state, settings))).await {
            Ok(Ok(())) => None,
            Ok(Err(error)) => Some(error),
            Err(_) => Some(Error::Deadline {
                context: state.target.name.clone(),
                after: deadline,
            }),
        },
    };
    if let Some(error) = error {
        tracing::debug!(%error, "fleet poll failed");
        state.row.fail(&error);
        // A failed cluster may hold a hung connection: start afresh.
        state.cluster = None;
    } else {
        state.row.error = None;
        state.row.error_kind = None;
        state.row.failures = 0;
        state.row.judge();
        state.row.stamp(Instant::now());
        // A kept cluster diffed this refresh against the last poll's
        // snapshot; a fresh one has nothing to compare with.
        state.row.events_5m = state.cluster.as_ref().filter(|_| keep).map(recent_events);
    }
    // A context that needs login waits for the user, not for a time.
    let retries = state.row.failures > 0 && state.row.health != Health::NeedsLogin;
    state.row.retry_in_ms = retries.then(|| {
        u64::try_from(settings.next_wait(state.row.failures).as_millis()).unwrap_or(u64::MAX)
    });
    if !keep {
        state.cluster = None;
    }
}

/// The cluster config of a fleet poll: the context's own connection
/// settings with timeouts no longer than the poll, no background refresh
/// or liveness check.
fn cluster_config(resolved: &ResolvedContext, deadline: Duration) -> ClusterConfig {
    let mut connection = resolved.connection.clone();
    connection.connect_timeout = connection.connect_timeout.min(deadline);
    connection.request_timeout = connection.request_timeout.min(deadline);
    connection.read_only = true;
    ClusterConfig {
        connection,
        refresh_interval: NO_BACKGROUND_REFRESH,
        max_staleness: NO_BACKGROUND_REFRESH,
        // Each poll checks liveness itself: a kept cluster sends nothing
        // between polls.
        background_liveness: false,
        ..ClusterConfig::default()
    }
}

async fn read(state: &mut ContextState, settings: &FleetSettings) -> Result<(), Error> {
    let context = state.target.name.clone();
    let failed = |source| Error::Cluster {
        context: context.clone(),
        source,
    };
    let Some(resolved) = &state.resolved else {
        return Ok(());
    };
    let snapshot = if let Some(cluster) = &state.cluster {
        cluster.refresh().await.map_err(failed)?
    } else {
        let config = cluster_config(resolved, settings.poll_deadline);
        let cluster = Cluster::connect(resolved.bootstrap_servers.clone(), config)
            .await
            .map_err(failed)?;
        let snapshot = cluster.snapshot();
        state.cluster = Some(cluster);
        snapshot
    };
    let Some(cluster) = state.cluster.clone() else {
        return Ok(());
    };
    counts(&mut state.row, &snapshot);
    let min_isr_due = state
        .min_isr
        .due(&snapshot, Instant::now(), min_isr::TOPICS_PER_POLL);
    let (health, mode, release, (), min_isr_read) = tokio::join!(
        cluster.check_liveness(),
        mode(&cluster, &snapshot),
        release(&cluster),
        groups(
            &cluster,
            &mut state.sweep,
            &mut state.row,
            settings.lag_groups_per_poll
        ),
        min_isr::read(&cluster, &min_isr_due),
    );
    state
        .min_isr
        .record(&snapshot, min_isr_due, &min_isr_read, Instant::now());
    let below = state.min_isr.count(&snapshot);
    state.row.under_min_isr = below.map(|(under, _)| under);
    state.row.min_isr_topics_checked = below.map_or(0, |(_, known)| known);
    let registered = snapshot.brokers().len();
    let silent = snapshot
        .brokers()
        .iter()
        .filter(|b| health.not_answering.contains_key(&b.node_id))
        .count();
    state.row.brokers_registered = Some(registered);
    state.row.brokers_answering = Some(registered - silent);
    state.row.metadata_mode = mode;
    state.row.kafka_version = release.kafka;
    state.row.metadata_version = release.metadata_version;
    Ok(())
}

/// The cluster's movement events of the last five minutes.
fn recent_events(cluster: &Cluster) -> usize {
    let since = std::time::SystemTime::now()
        .checked_sub(std::time::Duration::from_mins(5))
        .unwrap_or(std::time::UNIX_EPOCH);
    cluster
        .movements()
        .iter()
        .filter(|e| e.time >= since)
        .count()
}

/// Brokers, controller, topics and partition health from the snapshot.
fn counts(row: &mut FleetRow, snapshot: &MetadataSnapshot) {
    let (mut under, mut offline) = (0, 0);
    for topic in snapshot.topics() {
        if let Some(stats) = snapshot.topic_stats(&topic.name) {
            under += stats.under_replicated;
            offline += stats.offline;
        }
    }
    row.controller_id = snapshot.controller_id();
    row.topics = Some(snapshot.topics().len());
    row.partitions = Some(snapshot.partition_count());
    row.under_replicated = Some(under);
    row.offline = Some(offline);
}

/// `kraft` when the quorum answered the refresh (or the broker offers
/// `DescribeQuorum`), `zookeeper` when it does not offer it.
async fn mode(cluster: &Cluster, snapshot: &MetadataSnapshot) -> Option<&'static str> {
    if !snapshot.quorum_voters().is_empty() {
        return Some("kraft");
    }
    match cluster.negotiated_for::<DescribeQuorumRequest>().await {
        Ok(_) => Some("kraft"),
        Err(error) if error.is_unsupported_version() => Some("zookeeper"),
        Err(_) => None,
    }
}

/// The release, from one `ApiVersions`; nothing when it fails.
async fn release(cluster: &Cluster) -> version::Release {
    match cluster.send_any(api_versions_request()).await {
        Ok(response) => read_features(&response)
            .map(|(features, _)| version::release(&features))
            .unwrap_or_default(),
        Err(error) => {
            tracing::debug!(%error, "fleet: features unavailable");
            version::Release::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::min_isr::MinIsr;
    use crate::meta::BrokerInfo;

    /// A cluster with no topics says 0 for its topic and partition counts
    /// (row, JSON and table alike); what was not read stays null / `-`.
    #[test]
    fn a_cluster_without_topics_counts_zero_and_an_unread_metric_stays_unknown() {
        let broker = BrokerInfo {
            node_id: 1,
            host: "127.0.0.1".to_owned(),
            port: 9092,
            rack: None,
        };
        let snapshot = MetadataSnapshot::new(vec![broker], Vec::new(), Some(1), None);
        let mut row = FleetRow::pending("empty");
        counts(&mut row, &snapshot);
        let below = MinIsr::default().count(&snapshot);
        row.under_min_isr = below.map(|(under, _)| under);
        row.min_isr_topics_checked = below.map_or(0, |(_, known)| known);
        row.judge();
        assert_eq!(row.health, Health::Ok);
        let json = serde_json::to_value(&row).expect("serializes");
        for field in [
            "topics",
            "partitions",
            "under_replicated",
            "offline",
            "under_min_isr",
        ] {
            assert_eq!(json[field], 0, "{field}: {json:#}");
        }
        // Not read in this test: unknown, not zero.
        assert!(json["groups"].is_null(), "{json:#}");
        assert!(json["worst_lag"].is_null(), "{json:#}");
        let table = crate::columns::fleet::table();
        let cells = crate::columns::cells(&table, &row);
        let cell = |header: &str| {
            let at = table.iter().position(|c| c.header == header).expect(header);
            cells[at].clone()
        };
        for header in ["TOPICS", "PARTITIONS", "URP", "<MIN ISR", "OFFLINE"] {
            assert_eq!(cell(header), "0", "{header}");
        }
        assert_eq!(cell("GROUPS"), "-");
    }
}
