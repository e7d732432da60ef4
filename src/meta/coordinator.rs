//! Finding group and transaction coordinators, cached.

use super::error::{Error, Result};
use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::FindCoordinatorRequest;

use super::cluster::Cluster;
use super::routing::CoordinatorKind;

impl Cluster {
    /// The coordinator for a group, cached.
    pub async fn coordinator_for(&self, group: &str) -> Result<i32> {
        self.coordinator(CoordinatorKind::Group, group).await
    }

    /// The coordinator for a group or transactional id, cached.
    ///
    /// Retried on the retriable codes like every other routed call. This one
    /// is easy to miss because it is not a `send_*` and so never went through
    /// `Cluster::dispatch` — but `COORDINATOR_NOT_AVAILABLE` is exactly what
    /// a *fresh* cluster returns, because `__consumer_offsets` is created
    /// lazily on first use and has no leader for a moment afterwards. Without
    /// a retry the first group lookup against a new cluster is a hard error
    /// for a condition that clears itself.
    ///
    /// "About a second", this used to say, and the attempt budget was sized
    /// for that — five attempts, roughly 1.5s. On a three-node cluster with
    /// 50 offset partitions to elect leaders for it is not about a second, so
    /// the wait is bounded by [`super::RetryPolicy::coordinator_timeout`] instead.
    ///
    /// This loop is *not* what the KIP-848 acceptance failures were about,
    /// though it was blamed for them first. Those never reached any retry:
    /// they arrived as a code inside a successful response, which `kafka-consume`
    /// re-asks for above the decode. This one covers the narrower case where
    /// `FindCoordinator` itself is refused.
    pub async fn coordinator(&self, kind: CoordinatorKind, key: &str) -> Result<i32> {
        let policy = self.inner.config.retry;
        let started = std::time::Instant::now();
        let mut attempt = 1;
        loop {
            let delay = policy.delay(attempt);
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }

            let error = match self.coordinator_once(kind, key).await {
                Ok(node) => return Ok(node),
                Err(error) => error,
            };

            let budget_left = if error.needs_coordinator_refresh() {
                started.elapsed() < policy.coordinator_timeout
            } else {
                policy.should_retry(attempt)
            };

            if !error.retriable() || !budget_left {
                return Err(error);
            }
            tracing::debug!(?kind, key, attempt, %error, "retrying FindCoordinator");
            attempt = attempt.saturating_add(1);
        }
    }

    /// One `FindCoordinator` round trip, cache included.
    async fn coordinator_once(&self, kind: CoordinatorKind, key: &str) -> Result<i32> {
        if let Some(node) = self.inner.coordinators.get(kind, key) {
            return Ok(node);
        }

        let connection = self.inner.pool.any().await?;
        // `key` is versions 0-3 and `coordinator_keys` is 4+, and the codec
        // *rejects* a field set outside its own version range rather than
        // ignoring it. Setting both to cover the range looks like belt and
        // braces and is an encode failure on every modern broker — which takes
        // down every coordinator-routed RPC with it.
        let version = connection.negotiated_for::<FindCoordinatorRequest>()?;
        let request = FindCoordinatorRequest::default().with_key_type(kind.key_type());
        let request = if version >= 4 {
            request.with_coordinator_keys(vec![StrBytes::from_string(key.to_owned())])
        } else {
            request.with_key(StrBytes::from_string(key.to_owned()))
        };
        let response = connection.send(request).await?;

        // v4+ moved the answer into a `coordinators` array and left the
        // top-level fields empty; older versions do the opposite. Reading only
        // one of the two shapes yields "coordinator 0", which is a real broker
        // id and therefore a bug that looks like it works.
        let (node_id, error_code, message) = match response.coordinators.first() {
            Some(coordinator) => (
                coordinator.node_id.0,
                coordinator.error_code,
                coordinator.error_message.as_ref().map(ToString::to_string),
            ),
            None => (
                response.node_id.0,
                response.error_code,
                response.error_message.as_ref().map(ToString::to_string),
            ),
        };

        if let Some(code) = ErrorCode::from_code(error_code) {
            let context = match message {
                Some(message) => format!("coordinator for '{key}' ({message})"),
                None => format!("coordinator for '{key}'"),
            };
            return Err(Error::from_code(code, Some(context)));
        }
        if node_id < 0 {
            return Err(Error::from_code(
                ErrorCode::CoordinatorNotAvailable,
                Some(format!("coordinator for '{key}'")),
            ));
        }

        self.inner.coordinators.insert(kind, key, node_id);
        Ok(node_id)
    }

    /// Forget a cached coordinator.
    pub fn invalidate_coordinator(&self, kind: CoordinatorKind, key: &str) {
        self.inner.coordinators.remove(kind, key);
    }
}
