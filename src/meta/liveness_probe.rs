//! The liveness check beside a headless command, not before it.
//!
//! `kscope get` used to ping every broker and ask the quorum first, then do
//! its work: on a healthy cluster that doubled a short command's time, and a
//! frozen broker (SIGSTOP, a long GC pause) held every answer back for the
//! ping's whole deadline. A [`LivenessProbe`] starts when the command starts
//! and runs beside it:
//!
//! - a broker the command (or the bootstrap) already heard from since it
//!   started is alive: it is not asked again, and a ping never opens a second
//!   connection to a broker (the pool's connection is shared);
//! - the others get the same ping as the background check;
//! - when the command's work is done, [`LivenessProbe::finish`] waits at most
//!   a short grace ([`PROBE_GRACE`]) for what is still out: a broker that has
//!   not answered by then is said as "not answering (yet)", the quorum as
//!   "has not answered (yet)". Neither holds the output back any longer.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;

use super::cluster::Cluster;
use super::error::Result;
use super::liveness::{Health, silent_line, stale_line};
use super::quorum::Quorum;

/// How long past the command's own work the probe may wait for brokers and
/// the quorum still to answer.
pub const PROBE_GRACE: Duration = Duration::from_millis(300);

/// A liveness check running beside a command.
#[derive(Debug)]
pub struct LivenessProbe {
    cluster: Cluster,
    since: Instant,
    brokers: Vec<i32>,
    pings: JoinSet<(i32, bool)>,
    /// The brokers whose pings are still out.
    out: BTreeSet<i32>,
    quorum: Quorumed,
}

/// The quorum's outcome: known at once (the connect's refresh asked it a
/// moment ago) or still being asked.
#[derive(Debug)]
enum Quorumed {
    Known(Result<Option<Quorum>>),
    Asking(JoinHandle<Result<Option<Quorum>>>),
}

/// What the probe found by its deadline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeReport {
    /// What the brokers and the quorum that answered said (as the background
    /// check publishes it).
    pub health: Arc<Health>,
    /// Brokers that had not answered when the grace ran out.
    pub pending: Vec<i32>,
    /// Whether the quorum had not answered when the grace ran out.
    pub quorum_pending: bool,
}

impl ProbeReport {
    /// One line per problem, for stderr: empty when all is well.
    pub fn warnings(&self) -> Vec<String> {
        let mut lines = self.health.warnings();
        if self.quorum_pending {
            lines.push(stale_line("the KRaft quorum has not answered (yet)"));
        }
        if !self.pending.is_empty() {
            lines.push(silent_line(self.pending.iter(), " (yet)"));
        }
        lines
    }
}

impl Cluster {
    /// Start a liveness check beside a command that started at `since`:
    /// brokers heard from since then are not asked.
    pub fn probe_liveness(&self, since: Instant) -> LivenessProbe {
        let brokers = self.listed_brokers();
        let mut pings = JoinSet::new();
        let mut out = BTreeSet::new();
        for &id in &brokers {
            if self.pool().heard_from_since(id, since) {
                continue;
            }
            let cluster = self.clone();
            pings.spawn(async move { (id, cluster.ping(id).await) });
            out.insert(id);
        }
        let quorum = if let Some(asked) = self.inner.liveness.take_recent_quorum() {
            Quorumed::Known(asked)
        } else {
            let cluster = self.clone();
            Quorumed::Asking(tokio::spawn(async move {
                cluster.ask_quorum_for_liveness().await
            }))
        };
        LivenessProbe {
            cluster: self.clone(),
            since,
            brokers,
            pings,
            out,
            quorum,
        }
    }
}

impl LivenessProbe {
    /// Wait at most `grace` for the pings and the quorum still out, then
    /// report. A broker counts as answering when its ping came back or the
    /// command heard from it meanwhile. A broker that lost the connect race
    /// (its handshake did not answer within the stagger) is not waited for:
    /// unless its ping is already back, it is "not answering (yet)".
    pub async fn finish(mut self, grace: Duration) -> ProbeReport {
        let deadline = Instant::now() + grace;
        let pool = self.cluster.pool();
        let mut pinged: BTreeMap<i32, bool> = BTreeMap::new();
        while self.out.iter().any(|&id| {
            !pool.lost_race_since(id, self.since) && !pool.heard_from_since(id, self.since)
        }) {
            let Ok(Some(joined)) = tokio::time::timeout_at(deadline, self.pings.join_next()).await
            else {
                break;
            };
            if let Ok((id, answered)) = joined {
                self.out.remove(&id);
                pinged.insert(id, answered);
            }
        }
        while let Some(Ok((id, answered))) = self.pings.try_join_next() {
            pinged.insert(id, answered);
        }
        self.pings.abort_all();
        let asked = match self.quorum {
            Quorumed::Known(asked) => Some(asked),
            Quorumed::Asking(mut task) => {
                match tokio::time::timeout_at(deadline, &mut task).await {
                    Ok(Ok(asked)) => Some(asked),
                    Ok(Err(_)) => None,
                    Err(_) => {
                        task.abort();
                        None
                    }
                }
            }
        };
        let mut answers = BTreeMap::new();
        let mut pending = Vec::new();
        for &id in &self.brokers {
            if pool.heard_from_since(id, self.since) {
                answers.insert(id, true);
            } else if let Some(&answered) = pinged.get(&id) {
                answers.insert(id, answered);
            } else {
                pending.push(id);
            }
        }
        let quorum_pending = asked.is_none();
        let health = self
            .cluster
            .publish_liveness(asked.as_ref(), &answers, None);
        ProbeReport {
            health,
            pending,
            quorum_pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::SystemTime;

    #[test]
    fn what_had_not_answered_by_the_deadline_is_said_as_not_yet() {
        let mut health = Health::default();
        health.not_answering.insert(3, SystemTime::UNIX_EPOCH);
        let report = ProbeReport {
            health: Arc::new(health),
            pending: vec![1, 2],
            quorum_pending: true,
        };
        assert_eq!(
            report.warnings(),
            [
                "broker 3 not answering (still listed in the cluster metadata)",
                "metadata may be stale: the KRaft quorum has not answered (yet) (what is shown is the last metadata the brokers hold)",
                "broker 1, 2 not answering (yet) (still listed in the cluster metadata)",
            ]
        );
        let quiet = ProbeReport {
            health: Arc::new(Health::default()),
            pending: Vec::new(),
            quorum_pending: false,
        };
        assert!(quiet.warnings().is_empty());
    }
}
