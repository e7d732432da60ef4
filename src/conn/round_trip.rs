//! One request over a connection's pipeline: a correlation id taken, the
//! frame queued for the writer, the reply awaited within the request
//! timeout. A broker that sits on one request gets its connection poisoned
//! (as Java's client does); a caller that drops the future mid-request
//! abandons its id, so a late reply is read and discarded.

use bytes::Bytes;

use super::connection::Connection;
use super::error::{Error, Result};
use super::frame::encode_request;
use super::pipeline::Table;
use super::rpc::Rpc;

impl Connection {
    /// Write one request and wait for its raw response frame.
    pub(crate) async fn round_trip<R: Rpc>(&self, request: &R, version: i16) -> Result<Bytes> {
        let inner = &*self.inner;
        let id = inner
            .table
            .next_id()
            .map_err(|reason| self.broken(reason))?;
        let frame = encode_request(request, version, id, &inner.client_id).map_err(|message| {
            Error::Codec {
                broker: inner.peer.to_string(),
                message,
            }
        })?;
        let reply = inner
            .table
            .wait_for(id)
            .map_err(|reason| self.broken(reason))?;
        // From here until the reply arrives, a dropped future abandons the id.
        let mut pending = Pending {
            table: &inner.table,
            id: Some(id),
            sent: false,
        };
        // Cancel-safe: dropped while waiting for queue space, nothing was queued.
        if inner.outgoing.send(frame).await.is_err() {
            return Err(self.broken(inner.table.broken().unwrap_or_default()));
        }
        pending.sent = true;
        let outcome = tokio::time::timeout(inner.request_timeout, reply).await;
        pending.settle();
        match outcome {
            Ok(Ok(reply)) => {
                if reply.is_ok() {
                    inner.heard.now();
                }
                reply
            }
            Ok(Err(_)) => Err(self.broken(
                inner
                    .table
                    .broken()
                    .unwrap_or_else(|| "reader stopped".to_owned()),
            )),
            Err(_) => {
                let what = format!("{} v{version}", R::API_KEY);
                tracing::debug!(broker = %inner.peer, request = %what, "request timed out");
                // Java's client does the same: a broker that sat on one request
                // gets a fresh connection rather than more requests.
                inner.table.poison(&self.broken(format!(
                    "{what} timed out after {:?}",
                    inner.request_timeout
                )));
                Err(Error::Timeout {
                    broker: inner.peer.to_string(),
                    what,
                    after: inner.request_timeout,
                })
            }
        }
    }
}

/// Abandons a correlation id if the caller's future is dropped mid-request.
struct Pending<'a> {
    table: &'a Table,
    id: Option<i32>,
    /// Whether the request reached the writer (so a response will come).
    sent: bool,
}

impl Pending<'_> {
    /// The wait is over (answered, failed or timed out): nothing to abandon
    /// beyond the id itself, which `abandon` forgets if it was answered.
    fn settle(mut self) {
        if let Some(id) = self.id.take() {
            self.table.forget(id);
        }
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            if self.sent {
                self.table.abandon(id);
            } else {
                self.table.forget(id);
            }
        }
    }
}
