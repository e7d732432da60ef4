//! Asking the quorum, as the cluster does it: `DescribeQuorum` beside a full
//! refresh (kept for the next liveness check), and the active controller
//! chosen from its answer. What the request and its answer mean is in
//! `quorum`; this file is the `Cluster` side, so that `quorum` and `cluster`
//! do not import each other.

use super::cluster::Cluster;
use super::error::{Error, Result};
use super::quorum::{Quorum, choose, quorum_request, read_quorum};
use crate::conn;

impl Cluster {
    /// Ask the quorum for its leader (sent beside a full refresh's
    /// Metadata request, on the same connection, so it adds no round trip).
    ///
    /// Bounded by [`QUORUM_DEADLINE`](super::QUORUM_DEADLINE): the broker
    /// forwards the request to the active controller, and while that
    /// controller is hung or the quorum has lost its majority the answer
    /// waits for an election that may never come; the Metadata answer
    /// beside it must not wait too. A late answer
    /// counts as a transport failure (what was shown is kept), and the
    /// connection it was sent on is abandoned (a broker answers one
    /// connection's requests in order, so everything behind it would wait).
    /// Every outcome is also kept for the next liveness check
    /// (`Liveness::remember_quorum`), so a check right after a refresh does
    /// not wait out a lost quorum a second time.
    pub(super) async fn ask_quorum(&self) -> Result<Option<Quorum>> {
        let asked = self.ask_quorum_once().await;
        self.inner.liveness.remember_quorum(&asked);
        asked
    }

    async fn ask_quorum_once(&self) -> Result<Option<Quorum>> {
        let connection = self.inner.pool.any().await?;
        let deadline = self.config().quorum_deadline;
        let sent = tokio::time::timeout(deadline, connection.send(quorum_request()));
        if let Ok(response) = sent.await {
            return read_quorum(&response?);
        }
        // A broker answers one connection's requests in order: the stuck
        // DescribeQuorum would hold up everything sent after it.
        connection.abandon("DescribeQuorum got no answer in time");
        Err(Error::Conn(conn::Error::Timeout {
            broker: connection.describe(),
            what: "DescribeQuorum".to_owned(),
            after: deadline,
        }))
    }

    /// The active controller and the voters, from the quorum's answer
    /// (`asked`) and what the Metadata response named (`claimed`); see
    /// [`choose`].
    pub(super) fn active_controller(
        &self,
        asked: &Result<Option<Quorum>>,
        claimed: Option<i32>,
    ) -> (Option<i32>, Vec<i32>) {
        if let Err(error) = asked {
            tracing::debug!(%error, "DescribeQuorum for the active controller");
        }
        let held = self.snapshot();
        choose(asked, claimed, (held.controller_id(), held.quorum_voters()))
    }
}
