//! The re-ask driver for coordinator-routed, many-groups-per-request calls.
//!
//! `DescribeGroups`, `ConsumerGroupDescribe` and batched `OffsetFetch` answer
//! *successfully* with an error code per group. `NOT_COORDINATOR` and
//! `COORDINATOR_LOAD_IN_PROGRESS` there never reach the cluster's retry loop
//! (which only sees whole-request failures), so each round here does what
//! that loop would: forget the group's coordinator, look it up again, and
//! re-ask just those groups — rounds run by the batch retry driver
//! (`meta::drive_pending`), bounded by the retry policy's coordinator timeout.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use tokio::task::JoinSet;

use crate::conn::ErrorCode;
use crate::meta::{self, Disposition};

use super::client::GroupsClient;
use super::error::{Error, Result};
use super::offset_fetch::batches;

/// Per-group answers of one request.
pub(super) type Answers<T> = Vec<(String, std::result::Result<T, ErrorCode>)>;

/// What a group still needs after a round.
enum Next {
    Done,
    Again,
}

impl GroupsClient {
    /// Ask `send` for every group, batched per coordinator, re-asking groups
    /// whose coordinator moved or is loading. Every group gets an answer.
    pub(super) async fn per_coordinator<T, F, Fut>(
        &self,
        groups: Vec<(String, i32)>,
        send: F,
    ) -> BTreeMap<String, Result<T>>
    where
        T: Send + 'static,
        F: Fn(GroupsClient, i32, Vec<String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = meta::Result<Answers<T>>> + Send + 'static,
    {
        let send = Arc::new(send);
        let policy = self.cluster().config().retry;
        let deadline = Instant::now() + policy.coordinator_timeout;
        // The retry driver's budget for a moved coordinator: time.
        let (done, Ok(())) = meta::drive_pending(
            &policy,
            Disposition::RefreshCoordinator,
            BTreeMap::new(),
            groups,
            |mut done, pending, last| {
                let send = send.clone();
                async move {
                    let again = self.round(&send, pending, last, &mut done).await;
                    (done, Ok::<_, std::convert::Infallible>(again))
                }
            },
            |mut done, again| async move {
                let pending = self.relocate(again, deadline, &mut done).await;
                (done, pending)
            },
        )
        .await;
        done
    }

    /// One round: every batch concurrently; returns the groups to re-ask.
    async fn round<T, F, Fut>(
        &self,
        send: &Arc<F>,
        pending: Vec<(String, i32)>,
        last: bool,
        done: &mut BTreeMap<String, Result<T>>,
    ) -> Vec<String>
    where
        T: Send + 'static,
        F: Fn(GroupsClient, i32, Vec<String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = meta::Result<Answers<T>>> + Send + 'static,
    {
        let mut requests = JoinSet::new();
        for (node, batch) in batches(&pending, self.batch()) {
            let future = send(self.clone(), node, batch.clone());
            requests.spawn(async move { (node, batch, future.await) });
        }
        let mut again = Vec::new();
        while let Some(joined) = requests.join_next().await {
            let Ok((node, batch, answer)) = joined else {
                continue;
            };
            match answer {
                Ok(answers) => {
                    for (group, answer) in answers {
                        if let Next::Again = settle(done, &group, answer, last) {
                            again.push(group);
                        }
                    }
                    for group in batch {
                        if !done.contains_key(&group) && !again.contains(&group) {
                            done.insert(group.clone(), Err(Error::NotFound(group)));
                        }
                    }
                }
                // A coordinator that went away is a lost connection, or (once
                // the metadata dropped it) a node the pool no longer knows.
                Err(error) if !last && (error.needs_coordinator_refresh() || !self.knows(node)) => {
                    again.extend(batch);
                }
                Err(error) => {
                    for group in batch {
                        let failure = Error::for_group(&group, error.clone());
                        done.insert(group, Err(failure));
                    }
                }
            }
        }
        again
    }

    fn knows(&self, node: i32) -> bool {
        self.cluster().snapshot().broker(node).is_some()
    }

    /// Find the new coordinator of every group to re-ask: all of them in
    /// one batched `FindCoordinator` a round, none waiting past `deadline`
    /// (the policy's coordinator timeout from the first ask).
    async fn relocate<T>(
        &self,
        again: Vec<String>,
        deadline: Instant,
        done: &mut BTreeMap<String, Result<T>>,
    ) -> Vec<(String, i32)> {
        if again.is_empty() {
            return Vec::new();
        }
        for group in &again {
            self.invalidate_coordinator(group);
        }
        let mut pending = Vec::with_capacity(again.len());
        for (group, found) in self.coordinators_for(&again, deadline).await {
            match found {
                Ok(node) => pending.push((group, node)),
                Err(error) => {
                    let failure = Error::for_group(&group, error);
                    done.insert(group, Err(failure));
                }
            }
        }
        pending
    }
}

fn settle<T>(
    done: &mut BTreeMap<String, Result<T>>,
    group: &str,
    answer: std::result::Result<T, ErrorCode>,
    last: bool,
) -> Next {
    match answer {
        Ok(value) => {
            done.insert(group.to_owned(), Ok(value));
            Next::Done
        }
        Err(code) if code.needs_coordinator_refresh() && !last => Next::Again,
        Err(code) => {
            let failure = Error::Group {
                group: group.to_owned(),
                code,
            };
            done.insert(group.to_owned(), Err(failure));
            Next::Done
        }
    }
}
