//! [`Browser`]: reading one topic (one partition, or all merged by
//! timestamp) from a starting point, to the end or following.
//!
//! Fetches go one per leader (partitions whose buffered records ran out, or
//! run low), concurrently, routed through the metadata snapshot with each
//! partition's leader epoch, and are decoded on their own tasks
//! ([`super::in_flight`]). A call waits only for the records it needs: the
//! partitions running low are asked before it returns, so the next records
//! arrive while the caller prints or draws these. A stale leader
//! (`NOT_LEADER_OR_FOLLOWER`, `FENCED_LEADER_EPOCH`, …) refreshes the topic
//! and the partition is asked again from the same offset.
//!
//! Memory is bounded per answer, not only per batch: an answer is decoded
//! batch by batch as records are needed ([`BUDGET`]), its other batches kept
//! compressed with the partition's cursor; a partition with an undecoded
//! rest is asked again only once that rest is nearly decoded, from where it
//! ends (one answer read ahead, kept compressed: `ahead.rs`). A follow
//! fetch that comes back empty at once (a broker or proxy ignoring
//! `max_wait`) is not sent again before `follow_wait` has passed since it
//! was sent (`pace.rs`).

use std::collections::{BTreeMap, BTreeSet};

use tokio::time::Instant;

use crate::conn::ErrorCode;
use crate::conn::protocol::messages::FetchRequest;
use crate::meta::{Cluster, Disposition};

use super::Event;
use super::cursor::{Cursor, Limits, Outcome, State};
use super::error::{Error, Result, code_disposition, stronger};
use super::fetch::{self, Ask, FETCH_BY_ID, TopicRef};
use super::in_flight::{InFlight, Landed, Sent};
use super::notice::Notice;
use super::options::{Options, ask_bytes};
use super::start::Start;

mod ahead;
mod failures;
mod merge;
mod pace;
mod place;
mod queue;

use queue::Queue;

/// Rounds in a row a partition may fail (with backoff) before it stops.
const MAX_FAILURES: u32 = 30;
/// A partition with fewer records buffered than this is asked for more
/// before a call returns (at most one fetch per partition is out).
const LOW_WATER: usize = 1000;
/// What one partition's decoded records may weigh ([`crate::browse::Record::weight`])
/// before no more of its answer is decoded and it is not asked for more;
/// also what one call hands out at most before it stops decoding. A batch
/// is always decoded whole, so a partition holds at most this plus one
/// batch inflated (`inflate_cap`): an answer of 16 batches of one 32 MiB
/// record each holds one of them at a time, not 512 MiB.
const BUDGET: usize = 8 * 1024 * 1024;
/// How much of a kept answer is decoded at a time (at least one batch):
/// a partition's queue is refilled in steps of this, so what was printed is
/// freed, and its memory reused, before the next step is decoded. A whole
/// [`BUDGET`] decoded at once would touch fresh pages for all of it: page
/// faults were half of `consume`'s CPU on well-compressed topics. 256 KiB
/// rather than 1 MiB: a third fewer page faults and 10-15 % less CPU for
/// `consume` on 4 partitions (every partition holds a step while the merge
/// waits for the earliest record); a step is still at least one batch.
const DECODE_STEP: usize = 256 * 1024;

/// Reads one topic.
#[derive(Debug)]
pub struct Browser {
    cluster: Cluster,
    topic: String,
    options: Options,
    cursors: BTreeMap<i32, Cursor>,
    queues: BTreeMap<i32, Queue>,
    notices: Vec<Notice>,
    /// Partitions fetched one per request (a response was over the frame cap).
    single: BTreeSet<i32>,
    /// The fetches out.
    in_flight: InFlight,
    /// Answers read ahead, waiting for the partition's kept answer to be
    /// decoded (`ahead.rs`).
    ahead: ahead::ReadAhead,
    /// A failure met after records were already handed to the caller's
    /// batch: those go out first, the failure with the next call.
    deferred: Option<Error>,
    /// Bytes of record batches fetched so far (every answer counted once).
    fetched: u64,
}

impl Browser {
    /// Open `topic` (only `partition`, if given) at `start`. A group start
    /// must be resolved into [`Start::Offsets`] by the caller.
    pub async fn open(
        cluster: Cluster,
        topic: &str,
        partition: Option<i32>,
        start: &Start,
        options: Options,
    ) -> Result<Browser> {
        let snapshot = match cluster.refresh_topics(&[topic]).await {
            Ok(snapshot) => snapshot,
            Err(error) if error.code() == Some(ErrorCode::UnknownTopicOrPartition) => {
                return Err(Error::TopicNotFound(topic.to_owned()));
            }
            Err(error) => return Err(error.into()),
        };
        let info = snapshot
            .topic(topic)
            .ok_or_else(|| Error::TopicNotFound(topic.to_owned()))?;
        let all: Vec<i32> = info.partitions.iter().map(|p| p.partition).collect();
        let partitions = match partition {
            Some(p) if all.contains(&p) => vec![p],
            Some(p) => {
                return Err(Error::NoSuchPartition {
                    topic: topic.to_owned(),
                    partition: p,
                });
            }
            None => all,
        };
        let mut browser = Browser {
            cluster,
            topic: topic.to_owned(),
            options,
            cursors: BTreeMap::new(),
            queues: BTreeMap::new(),
            notices: Vec::new(),
            single: BTreeSet::new(),
            in_flight: InFlight::default(),
            ahead: ahead::ReadAhead::default(),
            deferred: None,
            fetched: 0,
        };
        browser.place(&partitions, start).await?;
        Ok(browser)
    }

    /// Whether every partition reached its end or stopped, and everything
    /// read was handed out.
    pub fn finished(&self) -> bool {
        self.notices.is_empty()
            && self.queues.values().all(Queue::is_empty)
            && self.cursors.values().all(|c| c.state != State::Active)
            && self.in_flight.is_empty()
            && self.ahead.is_empty()
            && self.deferred.is_none()
    }

    /// The next records (merged by timestamp across partitions) and notices,
    /// waiting for at most one fetch to land. May be empty (nothing new yet,
    /// or a leader moved). Partitions running low are asked for more before
    /// it returns. A failure never takes records already merged with it:
    /// they are returned, and the failure comes with the next call.
    pub async fn next_events(&mut self) -> Result<Vec<Event>> {
        if let Some(error) = self.deferred.take() {
            return Err(error);
        }
        let mut events: Vec<Event> = self.notices.drain(..).map(Event::Notice).collect();
        let mut handed = 0;
        let ready = self.merge(&mut events, &mut handed);
        if !ready || events.is_empty() {
            let round = self.round().await;
            events.extend(self.notices.drain(..).map(Event::Notice));
            self.merge(&mut events, &mut handed);
            if let Err(error) = round {
                if events.is_empty() {
                    return Err(error);
                }
                self.deferred = Some(error);
                return Ok(events);
            }
        }
        // Prefetch. What fails here (a partition without a leader, no
        // broker to ask) the next round meets and says.
        if let Err(error) = self.send(LOW_WATER).await {
            tracing::debug!(%error, topic = %self.topic, "prefetch not sent");
        }
        Ok(events)
    }

    fn limits(&self) -> Limits {
        Limits {
            isolation: self.options.isolation,
            max_batch: self.options.max_batch,
            inflate_cap: self.options.inflate_cap,
        }
    }

    /// Ask for the partitions that ran out, then take what lands: the first
    /// fetch to come back and any others already back. A partition held
    /// back by [`Cursor::not_before`] is asked once its time comes, while
    /// waiting for the others (or alone, when none is out).
    async fn round(&mut self) -> Result<()> {
        let mut retry = None;
        let landed = loop {
            retry = stronger(retry, self.send(1).await?);
            let Some(wake) = self.next_wake() else {
                break self.in_flight.landed().await;
            };
            if self.in_flight.is_empty() {
                tokio::time::sleep_until(wake).await;
                continue;
            }
            tokio::select! {
                landed = self.in_flight.landed() => break landed,
                () = tokio::time::sleep_until(wake) => {}
            }
        };
        let mut out_of_range = Vec::new();
        if let Some(landed) = landed {
            for landed in landed.map_err(|e| Error::Task(e.to_string()))? {
                retry = stronger(retry, self.take(landed, &mut out_of_range)?);
            }
        }
        if !out_of_range.is_empty() {
            self.out_of_range(&out_of_range).await;
        }
        if let Some(disposition) = retry {
            self.backoff(disposition).await;
        }
        Ok(())
    }

    /// One `Fetch` per leader (or per partition asked alone) for the active
    /// partitions weighing less than [`BUDGET`], with no fetch out or answer
    /// read ahead, not held back, and either fewer than `below` records
    /// buffered and nothing kept undecoded, or a kept answer nearly decoded
    /// (read ahead of it, `ahead.rs`);
    /// `RefreshMetadata` when one has no leader in the snapshot (refresh and
    /// ask again).
    async fn send(&mut self, below: usize) -> Result<Option<Disposition>> {
        let snapshot = self.cluster.snapshot();
        let by_id = self.cluster.negotiated_for::<FetchRequest>().await? >= FETCH_BY_ID;
        let topic_ref = match snapshot.topic(&self.topic) {
            Some(info) if by_id => TopicRef::Id(uuid::Uuid::from_bytes(*info.topic_id.as_bytes())),
            _ => TopicRef::Name(self.topic.clone()),
        };
        // Per (leader, partition asked alone): the asks, their cursors and
        // the room each has for records decoded.
        let mut groups: BTreeMap<_, (Vec<Ask>, Vec<Sent>)> = BTreeMap::new();
        let mut retry = None;
        let now = Instant::now();
        for (p, cursor) in &self.cursors {
            let (buffered, weight) = self.queues.get(p).map_or((0, 0), |q| (q.len(), q.weight()));
            if cursor.state != State::Active
                || weight >= BUDGET
                || self.in_flight.asks(*p)
                || self.ahead.holds(*p)
                || cursor.not_before.is_some_and(|at| at > now)
            {
                continue;
            }
            let (offset, ahead) = if cursor.rest.is_some() {
                match cursor.read_ahead_from(ahead::READ_AHEAD_WITHIN) {
                    Some(from) => (from, true),
                    None => continue,
                }
            } else if buffered < below {
                (cursor.next, false)
            } else {
                continue;
            };
            let Some((leader, info)) = snapshot
                .partition(&self.topic, *p)
                .and_then(|i| Some((i.leader?, i)))
            else {
                retry = Some(Disposition::RefreshMetadata);
                continue;
            };
            let wide = cursor.wide.map(|w| i32::try_from(w).unwrap_or(i32::MAX));
            let alone = (wide.is_some() || self.single.contains(p)).then_some(*p);
            let (asks, cursors): &mut (Vec<Ask>, Vec<Sent>) =
                groups.entry((leader, alone)).or_default();
            asks.push(Ask {
                partition: *p,
                offset,
                leader_epoch: info.leader_epoch,
                max_bytes: wide.unwrap_or_else(|| ask_bytes(&self.options, offset, cursor.stop)),
            });
            cursors.push(if ahead {
                Sent {
                    cursor: ahead::cursor_at(cursor, offset),
                    room: 0,
                    ahead,
                }
            } else {
                Sent {
                    cursor: cursor.clone(),
                    room: DECODE_STEP.min(BUDGET - weight),
                    ahead,
                }
            });
        }
        let wait = if self.options.follow {
            i32::try_from(self.options.follow_wait.as_millis()).unwrap_or(500)
        } else {
            0
        };
        for ((leader, _), (asks, cursors)) in groups {
            let max_bytes = asks
                .iter()
                .map(|a| a.max_bytes)
                .max()
                .unwrap_or(0)
                .max(self.options.max_bytes);
            let request = fetch::request(
                &topic_ref,
                &asks,
                max_bytes,
                wait,
                self.options.isolation.level(),
            );
            let limits = self.limits();
            self.in_flight
                .send(&self.cluster, leader, request, asks, cursors, limits);
        }
        Ok(retry)
    }

    /// Take a fetch that landed: each partition's cursor comes back moved,
    /// its records are queued; what asking again calls for when a
    /// partition's answer (or the whole request) failed, not for good.
    fn take(&mut self, landed: Landed, out_of_range: &mut Vec<i32>) -> Result<Option<Disposition>> {
        let decoded = match landed.decoded {
            Ok(decoded) => decoded,
            Err(error) => return self.request_failed(&landed.asks, error),
        };
        let idle = decoded
            .iter()
            .all(|d| d.empty && d.outcome == Outcome::Read);
        let mut retry = None;
        for mut answer in decoded {
            self.fetched += u64::try_from(answer.fetched).unwrap_or(u64::MAX);
            if answer.ahead {
                self.ahead.stash(answer);
                continue;
            }
            let partition = answer.cursor.partition;
            match answer.outcome {
                Outcome::Read => {}
                Outcome::Stale(code) => {
                    retry = stronger(retry, Some(code_disposition(code)));
                    if answer.cursor.failures > MAX_FAILURES {
                        answer.cursor.state = State::Stopped;
                        self.notices.push(Notice::PartitionFailed {
                            partition,
                            error: format!("{code} (gave up after {MAX_FAILURES} tries)"),
                        });
                    }
                }
                Outcome::OutOfRange => out_of_range.push(partition),
            }
            self.notices.append(&mut answer.notices);
            if let Some(queue) = self.queues.get_mut(&partition) {
                queue.extend(answer.records);
            }
            self.cursors.insert(partition, answer.cursor);
        }
        if idle {
            self.pace(&landed.asks, landed.sent);
        }
        Ok(retry)
    }

    /// Bytes of record batches fetched so far, over every partition (what
    /// the brokers sent, compressed, before decoding).
    pub fn bytes_fetched(&self) -> u64 {
        self.fetched
    }

    /// Bytes of the record batches read whole, over every partition: what
    /// [`Browser::bytes_fetched`] counts less what was fetched for nothing
    /// (answers cut inside a batch and fetched again, bytes past the stop).
    pub fn bytes_read(&self) -> u64 {
        self.cursors.values().map(|c| c.read_bytes).sum()
    }

    /// Each partition's first offset handed out or passed over: where it
    /// started, or lower when records before the start were kept
    /// ([`Options::keep_before`]). Reading the offsets before it again
    /// fetches nothing already read.
    pub fn read_from(&self) -> BTreeMap<i32, i64> {
        self.cursors.iter().map(|(p, c)| (*p, c.from)).collect()
    }

    /// Each partition's next offset (for tests and for a view's position).
    pub fn positions(&self) -> BTreeMap<i32, i64> {
        self.cursors.iter().map(|(p, c)| (*p, c.next)).collect()
    }
}
