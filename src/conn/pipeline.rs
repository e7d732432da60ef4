//! The in-flight table and the two tasks that own a connection's stream.
//!
//! The writer task takes whole encoded frames from a channel and writes each
//! one completely, so a caller cancelled mid-request can never leave half a
//! frame on the wire. The reader task reads response frames and hands each to
//! the caller waiting on its correlation id. Any framing failure poisons the
//! connection: every waiting caller gets the error, and later callers get
//! [`Error::Broken`].

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bytes::Bytes;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

use super::error::{Error, Result};
use super::frame::{FrameError, correlation_id, read_frame};
use super::peer::Peer;

/// How many encoded requests may wait for the writer before `send` waits too.
pub const OUTGOING_QUEUE: usize = 256;

/// What a waiting caller receives: its raw response frame, or why there is none.
pub type Reply = Result<Bytes>;

/// Requests in flight on one connection.
#[derive(Debug, Default)]
pub struct InFlight {
    /// The next correlation id to hand out (kept non-negative).
    next_id: i32,
    /// Callers waiting for a response, by correlation id.
    waiting: HashMap<i32, oneshot::Sender<Reply>>,
    /// Ids whose caller gave up (cancelled); their response is read and dropped.
    abandoned: HashSet<i32>,
    /// Why the connection is unusable, once it is.
    broken: Option<String>,
}

/// The in-flight table shared by callers and the reader task.
#[derive(Debug, Clone, Default)]
pub struct Table(Arc<Mutex<InFlight>>);

impl Table {
    fn lock(&self) -> MutexGuard<'_, InFlight> {
        // Nothing panics while holding the lock; recover rather than propagate.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Why the connection is broken, if it is.
    pub fn broken(&self) -> Option<String> {
        self.lock().broken.clone()
    }

    /// Take the next correlation id, unless the connection is broken.
    pub fn next_id(&self) -> std::result::Result<i32, String> {
        let mut table = self.lock();
        if let Some(reason) = &table.broken {
            return Err(reason.clone());
        }
        let id = table.next_id;
        table.next_id = id.wrapping_add(1) & i32::MAX;
        Ok(id)
    }

    /// Register a caller for `id`, unless the connection is broken.
    pub fn wait_for(&self, id: i32) -> std::result::Result<oneshot::Receiver<Reply>, String> {
        let mut table = self.lock();
        if let Some(reason) = &table.broken {
            return Err(reason.clone());
        }
        let (sender, receiver) = oneshot::channel();
        table.waiting.insert(id, sender);
        Ok(receiver)
    }

    /// The caller for `id` stopped waiting; drop its response when it comes.
    pub fn abandon(&self, id: i32) {
        let mut table = self.lock();
        if table.waiting.remove(&id).is_some() && table.broken.is_none() {
            table.abandoned.insert(id);
        }
    }

    /// The caller for `id` is done waiting (answered or timed out).
    pub fn forget(&self, id: i32) {
        self.lock().waiting.remove(&id);
    }

    /// Mark the connection broken and fail every waiting caller with `error`.
    pub fn poison(&self, error: &Error) {
        let waiting = {
            let mut table = self.lock();
            if table.broken.is_none() {
                table.broken = Some(error.cause());
            }
            table.abandoned.clear();
            std::mem::take(&mut table.waiting)
        };
        for sender in waiting.into_values() {
            // A caller that has gone away does not need telling.
            let _ = sender.send(Err(error.clone()));
        }
    }

    /// Hand a response frame to its caller. `Err` when nobody asked for it,
    /// which means the two sides disagree about the stream.
    fn deliver(&self, id: i32, frame: Bytes) -> std::result::Result<(), ()> {
        let mut table = self.lock();
        if let Some(sender) = table.waiting.remove(&id) {
            let _ = sender.send(Ok(frame));
            Ok(())
        } else if table.abandoned.remove(&id) {
            tracing::debug!(
                correlation_id = id,
                "dropping the response of a cancelled request"
            );
            Ok(())
        } else {
            Err(())
        }
    }
}

/// Turn a framing failure into the error callers see.
pub fn frame_error(peer: &Peer, error: FrameError) -> Error {
    let broker = peer.to_string();
    match error {
        FrameError::TooLarge { size, .. } if looks_like_tls(size) => Error::Tls {
            broker,
            message: "the broker answered with a tls record: this listener expects tls".to_owned(),
        },
        FrameError::TooLarge { size, max } => Error::FrameTooLarge { broker, size, max },
        FrameError::NegativeLength(_) => Error::Codec {
            broker,
            message: error.to_string(),
        },
        FrameError::Io(source) => Error::Io {
            broker,
            source: Arc::new(source),
        },
        FrameError::Closed | FrameError::Truncated { .. } => Error::Io {
            broker,
            source: Arc::new(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                error.to_string(),
            )),
        },
    }
}

/// Whether a "length prefix" is really the start of a TLS record (content
/// type 20-23, protocol version 3.x): a TLS listener spoken to in plaintext.
fn looks_like_tls(prefix: u64) -> bool {
    let bytes = prefix.to_be_bytes();
    let [.., content_type, major, minor, _] = bytes;
    (20..=23).contains(&content_type) && major == 3 && minor <= 4
}

/// Read response frames until the stream ends or fails, then poison the table.
pub async fn read_responses<R: AsyncRead + Unpin>(
    mut reader: R,
    table: Table,
    peer: Peer,
    max_frame_size: usize,
) {
    loop {
        let frame = match read_frame(&mut reader, max_frame_size).await {
            Ok(frame) => frame,
            Err(error) => {
                let error = frame_error(&peer, error);
                tracing::debug!(broker = %peer, %error, "connection reader stopped");
                table.poison(&error);
                return;
            }
        };
        let delivered = match correlation_id(&frame) {
            Some(id) => table
                .deliver(id, frame)
                .map_err(|()| format!("response with correlation id {id}, which no request used")),
            None => Err(format!(
                "{}-byte response frame is too short for a correlation id",
                frame.len()
            )),
        };
        if let Err(message) = delivered {
            let error = Error::Codec {
                broker: peer.to_string(),
                message,
            };
            tracing::debug!(broker = %peer, %error, "connection reader stopped");
            table.poison(&error);
            return;
        }
    }
}

/// Write whole frames as they come; flush when the queue runs dry.
pub async fn write_requests<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut outgoing: mpsc::Receiver<Bytes>,
    table: Table,
    peer: Peer,
) {
    while let Some(frame) = outgoing.recv().await {
        let mut result = writer.write_all(&frame).await;
        while result.is_ok() {
            match outgoing.try_recv() {
                Ok(frame) => result = writer.write_all(&frame).await,
                Err(_) => break,
            }
        }
        if let Err(source) = result.and(writer.flush().await) {
            let error = Error::Io {
                broker: peer.to_string(),
                source: Arc::new(source),
            };
            tracing::debug!(broker = %peer, %error, "connection writer stopped");
            table.poison(&error);
            return;
        }
    }
    // Every handle is gone: say goodbye politely.
    let _ = writer.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_records_are_recognised_in_a_length_prefix() {
        // A TLS alert (21), version 3.3, as a TLS listener answers plaintext.
        assert!(looks_like_tls(u64::from(u32::from_be_bytes([
            0x15, 0x03, 0x03, 0x00
        ]))));
        assert!(looks_like_tls(u64::from(u32::from_be_bytes([
            0x16, 0x03, 0x01, 0x02
        ]))));
        assert!(!looks_like_tls(u64::from(u32::from_be_bytes([
            0x7f, 0xff, 0xff, 0xff
        ]))));
        assert!(!looks_like_tls(200 * 1024 * 1024));
    }

    #[test]
    fn a_poisoned_table_refuses_new_ids_and_fails_waiters() {
        let table = Table::default();
        let id = table.next_id().expect("id");
        let mut waiter = table.wait_for(id).expect("registered");
        table.poison(&Error::InvalidRequest("boom".to_owned()));
        assert!(matches!(
            waiter.try_recv(),
            Ok(Err(Error::InvalidRequest(_)))
        ));
        assert!(table.next_id().is_err());
        assert_eq!(table.broken().as_deref(), Some("invalid request: boom"));
    }

    #[test]
    fn an_abandoned_id_swallows_its_late_response_once() {
        let table = Table::default();
        let id = table.next_id().expect("id");
        let _waiter = table.wait_for(id).expect("registered");
        table.abandon(id);
        assert!(table.deliver(id, Bytes::new()).is_ok());
        assert!(
            table.deliver(id, Bytes::new()).is_err(),
            "a second answer is a protocol error"
        );
    }
}
