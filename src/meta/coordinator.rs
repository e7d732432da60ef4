//! Finding group and transaction coordinators, cached.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::time::Instant;

use tokio::task::JoinSet;

use super::error::{Disposition, Error, Result};
use crate::conn::ErrorCode;
use crate::conn::protocol::StrBytes;
use crate::conn::protocol::messages::FindCoordinatorRequest;

use super::cluster::Cluster;
use super::retry::{Budget, drive, drive_pending};
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
        drive(
            &self.inner.config.retry,
            || self.coordinator_once(kind, key),
            |error| error.disposition(true),
            // Nothing to forget: only an answer is cached.
            |_, _| std::future::ready(()),
        )
        .await
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
        let node_id = match response.coordinators.first() {
            Some(coordinator) => read_answer(
                key,
                coordinator.node_id.0,
                coordinator.error_code,
                coordinator.error_message.as_ref(),
            ),
            None => read_answer(
                key,
                response.node_id.0,
                response.error_code,
                response.error_message.as_ref(),
            ),
        }?;
        self.inner.coordinators.insert(kind, key, node_id);
        Ok(node_id)
    }

    /// The coordinators of many keys at once, for recovering every group
    /// whose coordinator moved: a round is one `FindCoordinator` carrying
    /// every key still unanswered (batched from v4; before v4 one request
    /// per key, all at once), and rounds repeat, with the retry policy's
    /// backoff, for keys whose failure was not final. The rounds are
    /// [`drive_pending`]'s with a time budget ([`Budget::Until`]): nothing
    /// waits past `deadline` however many keys there are, and a key still
    /// without an answer then gets its last error. Cached coordinators are
    /// answered from the cache.
    pub async fn coordinators(
        &self,
        kind: CoordinatorKind,
        keys: &[String],
        deadline: Instant,
    ) -> BTreeMap<String, Result<i32>> {
        let mut done = BTreeMap::new();
        let mut pending = Vec::new();
        for key in keys {
            match self.inner.coordinators.get(kind, key) {
                Some(node) => drop(done.insert(key.clone(), Ok(node))),
                None => pending.push(key.clone()),
            }
        }
        let deadline = tokio::time::Instant::from_std(deadline);
        let (done, Ok(())) = drive_pending(
            &self.inner.config.retry,
            Budget::Until(deadline),
            done,
            pending,
            |done, pending, _| self.coordinators_round(kind, done, pending, deadline),
            |done, again| std::future::ready((done, again)),
        )
        .await;
        done
    }

    /// One round of [`Cluster::coordinators`] until `deadline`: every
    /// answer is cached and recorded in `done`, and so is every failure (it
    /// stands as the key's last error when time runs out); the keys whose
    /// failure was not final are asked again.
    async fn coordinators_round(
        &self,
        kind: CoordinatorKind,
        mut done: BTreeMap<String, Result<i32>>,
        pending: Vec<String>,
        deadline: tokio::time::Instant,
    ) -> (
        BTreeMap<String, Result<i32>>,
        std::result::Result<Vec<String>, Infallible>,
    ) {
        let round = self.find_coordinators(kind, &pending);
        let answers = tokio::time::timeout_at(deadline, round)
            .await
            .unwrap_or_else(|_| {
                let late = Error::Conn(crate::conn::Error::Timeout {
                    broker: "any broker".to_owned(),
                    what: "FindCoordinator".to_owned(),
                    after: self.inner.config.retry.coordinator_timeout,
                });
                pending
                    .iter()
                    .map(|k| (k.clone(), Err(late.clone())))
                    .collect()
            });
        let mut again = Vec::new();
        for (key, answer) in answers {
            match answer {
                Ok(node) => {
                    self.inner.coordinators.insert(kind, &key, node);
                    done.insert(key, Ok(node));
                }
                Err(error) => {
                    if error.disposition(true) != Disposition::Fatal {
                        again.push(key.clone());
                    }
                    done.insert(key, Err(error));
                }
            }
        }
        (done, Ok(again))
    }

    /// One round of [`Cluster::coordinators`]: every key's answer or error.
    async fn find_coordinators(
        &self,
        kind: CoordinatorKind,
        keys: &[String],
    ) -> Vec<(String, Result<i32>)> {
        let all = |error: Error| {
            keys.iter()
                .map(|k| (k.clone(), Err(error.clone())))
                .collect()
        };
        let connection = match self.inner.pool.any().await {
            Ok(connection) => connection,
            Err(error) => return all(error),
        };
        let version = match connection.negotiated_for::<FindCoordinatorRequest>() {
            Ok(version) => version,
            Err(error) => return all(error.into()),
        };
        if version < 4 {
            let mut lookups = JoinSet::new();
            for key in keys {
                let (cluster, key) = (self.clone(), key.clone());
                lookups.spawn(async move {
                    let found = cluster.coordinator_once(kind, &key).await;
                    (key, found)
                });
            }
            return lookups.join_all().await;
        }
        let request = FindCoordinatorRequest::default()
            .with_key_type(kind.key_type())
            .with_coordinator_keys(
                keys.iter()
                    .map(|k| StrBytes::from_string(k.clone()))
                    .collect(),
            );
        let response = match connection.send(request).await {
            Ok(response) => response,
            Err(error) => return all(error.into()),
        };
        keys.iter()
            .map(|key| {
                let answer = response
                    .coordinators
                    .iter()
                    .find(|c| c.key.as_str() == key.as_str())
                    .map_or_else(
                        || read_answer(key, -1, 0, None),
                        |c| read_answer(key, c.node_id.0, c.error_code, c.error_message.as_ref()),
                    );
                (key.clone(), answer)
            })
            .collect()
    }

    /// Forget a cached coordinator.
    pub fn invalidate_coordinator(&self, kind: CoordinatorKind, key: &str) {
        self.inner.coordinators.remove(kind, key);
    }
}

/// One key's answer in a `FindCoordinator` response: the node, or the error
/// its code (or a node id of -1) means.
fn read_answer(
    key: &str,
    node_id: i32,
    error_code: i16,
    message: Option<&StrBytes>,
) -> Result<i32> {
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
    Ok(node_id)
}
