//! The fetches a [`super::session::Browser`] has in flight, each decoded on
//! its own task: while the caller prints or draws what it was handed, the
//! next records are already on their way and being decoded. Each partition's
//! answer is decoded there only up to the room its queue had when it was
//! asked; the rest comes back undecoded with the cursor
//! ([`super::cursor::Remainder`]).
//!
//! At most one fetch per partition is in flight, and it owns a copy of the
//! partition's cursor: nothing else moves a cursor while its fetch is out
//! (only that fetch's answer or failure does), so the copy that comes back
//! replaces the browser's and a record is never shown twice or skipped.

use std::collections::BTreeSet;

use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::conn::protocol::messages::FetchRequest;
use crate::meta::{self, Cluster};

use super::cursor::{Cursor, Limits, Outcome};
use super::fetch::{self, Ask};
use super::notice::Notice;
use super::record::Record;

/// One partition's answer, decoded.
#[derive(Debug)]
pub struct Decoded {
    /// The cursor moved past what was read.
    pub cursor: Cursor,
    /// What the answer means beyond its records.
    pub outcome: Outcome,
    /// The records, in offset order.
    pub records: Vec<Record>,
    /// What the answer said (open transactions, batches too large, …).
    pub notices: Vec<Notice>,
    /// The answer held no record batches at all.
    pub empty: bool,
    /// The bytes of record batches the answer carried for the partition.
    pub fetched: usize,
    /// Asked ahead of the answer the partition still holds undecoded
    /// ([`Sent::ahead`]): nothing of it is decoded yet.
    pub ahead: bool,
}

/// A fetch that came back: what it asked, and each partition decoded or
/// why the whole request failed. Partitions the broker left out of its
/// answer are simply not in `decoded` (asked again next time).
#[derive(Debug)]
pub struct Landed {
    /// What was asked.
    pub asks: Vec<Ask>,
    /// When it was sent.
    pub sent: Instant,
    /// The partitions' answers, or the request's failure.
    pub decoded: Result<Vec<Decoded>, meta::Error>,
}

/// A copy of a partition's cursor going out with its fetch, and the room
/// its queue had: the bytes of records to decode from the answer before
/// the rest is kept undecoded (see [`Cursor::apply`]).
#[derive(Debug)]
pub struct Sent {
    /// The cursor the answer moves.
    pub cursor: Cursor,
    /// Bytes of records to decode at most (a batch is decoded whole; 0:
    /// none, the whole answer is kept).
    pub room: usize,
    /// Asked from where the partition's kept answer ends, before it is
    /// decoded: the answer waits, whole, behind that one.
    pub ahead: bool,
}

/// Fetches in flight, and the partitions they ask for.
#[derive(Debug, Default)]
pub struct InFlight {
    tasks: JoinSet<Landed>,
    asked: BTreeSet<i32>,
}

impl InFlight {
    /// Whether a fetch for `partition` is out.
    pub fn asks(&self, partition: i32) -> bool {
        self.asked.contains(&partition)
    }

    /// Whether nothing is in flight.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Send `request` for `asks` to `leader` on its own task, decoding the
    /// answer there with copies of the partitions' cursors, each up to its
    /// room.
    pub fn send(
        &mut self,
        cluster: &Cluster,
        leader: i32,
        request: FetchRequest,
        asks: Vec<Ask>,
        cursors: Vec<Sent>,
        limits: Limits,
    ) {
        self.asked.extend(asks.iter().map(|a| a.partition));
        let cluster = cluster.clone();
        let sent = Instant::now();
        self.tasks.spawn(async move {
            let decoded = cluster
                .send_to_node(leader, request)
                .await
                .map(|response| decode(&response, cursors, limits));
            Landed {
                asks,
                sent,
                decoded,
            }
        });
    }

    /// Wait for the next fetch to land (`None` when none is out), then take
    /// every other one that already has.
    pub async fn landed(&mut self) -> Option<Result<Vec<Landed>, tokio::task::JoinError>> {
        let first = self.tasks.join_next().await?;
        let mut all = vec![first];
        while let Some(more) = self.tasks.try_join_next() {
            all.push(more);
        }
        let landed: Result<Vec<Landed>, _> = all.into_iter().collect();
        if let Ok(landed) = &landed {
            for ask in landed.iter().flat_map(|l| &l.asks) {
                self.asked.remove(&ask.partition);
            }
        }
        Some(landed)
    }
}

/// Decode each partition's answer with its cursor, up to its room.
fn decode(
    response: &crate::conn::protocol::messages::FetchResponse,
    mut cursors: Vec<Sent>,
    limits: Limits,
) -> Vec<Decoded> {
    let mut decoded = Vec::new();
    for answer in fetch::read(response) {
        let Some(at) = cursors
            .iter()
            .position(|s| s.cursor.partition == answer.partition)
        else {
            continue;
        };
        let Sent {
            mut cursor,
            room,
            ahead,
        } = cursors.swap_remove(at);
        let (mut records, mut notices) = (Vec::new(), Vec::new());
        let outcome = cursor.apply(&answer, limits, room, &mut records, &mut notices);
        decoded.push(Decoded {
            cursor,
            outcome,
            records,
            notices,
            empty: answer.records.is_empty(),
            fetched: answer.records.len(),
            ahead,
        });
    }
    decoded
}
