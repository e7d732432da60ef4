//! [`Connection`]: one pipelined, version-negotiated stream to one broker.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::protocol::{Message, VersionRange};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio::task::AbortHandle;
use tokio::time::Instant;

use super::ApiKey;
use super::config::ConnectionConfig;
use super::error::{Error, Result};
use super::frame::{DecodeError, decode_response};
use super::heard::HeardFrom;
use super::peer::Peer;
use super::pipeline::{OUTGOING_QUEUE, Table, read_responses, write_requests};
use super::rpc::{Rpc, highest_common, is_read_only_api, supported_versions};

/// A connection to one broker: a cheap, cloneable handle.
///
/// Any number of requests may be in flight at once; responses are matched to
/// requests by correlation id. When the connection fails (socket error,
/// framing or decoding error, a request timing out) every request in flight
/// fails with that error and every later one with [`Error::Broken`]; check
/// [`Connection::is_broken`] and replace it.
#[derive(Debug, Clone)]
pub struct Connection {
    pub(super) inner: Arc<Shared>,
}

#[derive(Debug)]
pub(super) struct Shared {
    pub(super) peer: Peer,
    pub(super) client_id: String,
    pub(super) request_timeout: Duration,
    pub(super) read_only: bool,
    /// The broker's advertised version range per API key, set by the handshake.
    pub(super) broker_versions: OnceLock<HashMap<i16, VersionRange>>,
    pub(super) table: Table,
    pub(super) outgoing: mpsc::Sender<Bytes>,
    pub(super) tasks: [AbortHandle; 2],
    /// When the broker last answered a request on this connection.
    pub(super) heard: HeardFrom,
}

impl Drop for Shared {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Connection {
    /// Spawn the reader and writer tasks over `stream`.
    pub(super) fn start<S>(stream: S, peer: Peer, config: &ConnectionConfig) -> Connection
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let (reader, writer) = tokio::io::split(stream);
        let table = Table::default();
        let (outgoing, queue) = mpsc::channel(OUTGOING_QUEUE);
        let read_task = tokio::spawn(read_responses(
            reader,
            table.clone(),
            peer.clone(),
            config.max_frame_size,
        ));
        let write_task = tokio::spawn(write_requests(writer, queue, table.clone(), peer.clone()));
        Connection {
            inner: Arc::new(Shared {
                peer,
                client_id: config.client_id.clone(),
                request_timeout: config.request_timeout,
                read_only: config.read_only,
                broker_versions: OnceLock::new(),
                table,
                outgoing,
                tasks: [read_task.abort_handle(), write_task.abort_handle()],
                heard: HeardFrom::default(),
            }),
        }
    }

    /// Send a request at the negotiated version and wait for its response.
    pub async fn send<R: Rpc>(&self, request: R) -> Result<R::Response> {
        self.guard::<R>()?;
        let version = self.negotiated_for::<R>()?;
        self.send_at(request, version).await
    }

    /// Send at an explicit version (the handshake, before negotiation).
    pub(crate) async fn send_at<R: Rpc>(&self, request: R, version: i16) -> Result<R::Response> {
        self.guard::<R>()?;
        self.guard_request(&request, version)?;
        request.check().map_err(Error::InvalidRequest)?;
        let frame = self.round_trip(&request, version).await?;
        self.decode::<R>(frame, version)
    }

    /// Decode a response frame. A malformed one poisons the connection, since
    /// the two sides evidently disagree about what is on the wire; one over
    /// its memory budget does not (the frame was read whole, the stream is in
    /// step), so only that request fails.
    pub(crate) fn decode<R: Rpc>(&self, frame: Bytes, version: i16) -> Result<R::Response> {
        match decode_response::<R>(frame, version) {
            Ok((_, response)) => Ok(response),
            Err(DecodeError::OverBudget {
                api,
                version,
                frame_bytes,
                budget,
            }) => {
                let error = Error::ResponseOverBudget {
                    broker: self.inner.peer.to_string(),
                    api,
                    version,
                    frame_bytes,
                    budget,
                };
                tracing::warn!(%error, "response refused");
                Err(error)
            }
            Err(DecodeError::Malformed(message)) => {
                let error = Error::Codec {
                    broker: self.inner.peer.to_string(),
                    message,
                };
                self.inner.table.poison(&error);
                Err(error)
            }
        }
    }

    /// The read-only guard: refuse before anything is encoded or written.
    fn guard<R: Rpc>(&self) -> Result<()> {
        if self.inner.read_only && !is_read_only_api(R::API_KEY) {
            tracing::debug!(api = %R::API_KEY, broker = %self.inner.peer, "refused by read-only guard");
            return Err(Error::ReadOnly { api: R::API_KEY });
        }
        Ok(())
    }

    /// The read-only guard's second half: a request of an allowed API that
    /// would still change the cluster at this version.
    fn guard_request<R: Rpc>(&self, request: &R, version: i16) -> Result<()> {
        if !self.inner.read_only {
            return Ok(());
        }
        match request.writes_at(version) {
            Some(what) => {
                tracing::debug!(api = %R::API_KEY, version, broker = %self.inner.peer, "refused by read-only guard: {what}");
                Err(Error::ReadOnlyRequest {
                    api: R::API_KEY,
                    what,
                })
            }
            None => Ok(()),
        }
    }

    pub(super) fn broken(&self, reason: String) -> Error {
        Error::Broken {
            broker: self.inner.peer.to_string(),
            reason,
        }
    }

    /// The version `send` would use for `R`: the highest in both the request
    /// type's range and the broker's.
    pub fn negotiated_for<R: Rpc>(&self) -> Result<i16> {
        self.negotiate(R::API_KEY, <R as Message>::VERSIONS)
    }

    /// The negotiated version for an API key, if the broker and kscope share one.
    pub fn negotiated_version(&self, key: ApiKey) -> Option<i16> {
        self.negotiate(key, supported_versions(key)).ok()
    }

    fn negotiate(&self, key: ApiKey, ours: VersionRange) -> Result<i16> {
        let theirs = self
            .inner
            .broker_versions
            .get()
            .and_then(|ranges| ranges.get(&(key as i16)));
        highest_common(key, ours, theirs.copied()).map_err(|(ours, theirs)| {
            Error::UnsupportedVersion {
                broker: self.inner.peer.to_string(),
                api: key,
                ours,
                theirs,
            }
        })
    }

    /// Give up on this connection: every request in flight fails at once
    /// with [`Error::Broken`] carrying `reason`, and the pool replaces it.
    /// For a broker that stopped answering (a liveness check timed out), whose
    /// callers would otherwise each wait out the request timeout.
    pub fn abandon(&self, reason: &str) {
        self.inner.table.poison(&self.broken(reason.to_owned()));
    }

    /// Whether the broker answered a request on this connection at or after
    /// `since`: proof that it is alive, so a liveness check need not ask it.
    pub fn answered_since(&self, since: Instant) -> bool {
        !self.is_broken() && self.inner.heard.since(since)
    }

    /// Whether the connection has failed and must be replaced.
    pub fn is_broken(&self) -> bool {
        self.inner.table.broken().is_some()
    }

    /// The address dialled, `host:port`.
    pub fn address(&self) -> &str {
        &self.inner.peer.address
    }

    /// The broker's node id, when the caller gave one.
    pub fn node_id(&self) -> Option<i32> {
        self.inner.peer.node_id
    }

    /// `broker 1 (host:port)`, as errors name it.
    pub fn describe(&self) -> String {
        self.inner.peer.to_string()
    }
}
