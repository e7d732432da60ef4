//! `kscope record --to FILE`: what the TUI would read — metadata as a
//! snapshot then deltas, the events `watch events` prints, kscope's
//! liveness view, the group list with lag and the group events derived
//! from it (state, members, records lost, STUCK and moving again) — written
//! to a recording (`crate::recording`) until `--duration` passes or
//! Ctrl-C. The config-change and min-ISR events come from the config sweep
//! `watch events` uses ([`super::watch_configs`]: the configs of the topics
//! `--topics` matches and of the brokers, read every 30 s or more; secrets
//! masked before they are kept). Every derived kind is rate limited per kind as the
//! movement log is, so a recording holds the same folds a live watch
//! prints. Only reads: nothing is written to the cluster, no group is
//! joined, no offset committed.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use regex::Regex;
use tokio::time::{Instant, MissedTickBehavior};

use crate::app::screens::groups::columns::offsets::STUCK_READS;
use crate::groups::stuck_events::GroupEvents;
use crate::groups::{GroupsClient, Overview};
use crate::meta::{Cluster, MetadataSnapshot, MovementEvent};
use crate::recording::frame::{self, Event, Health, Metadata};
use crate::recording::{Body, Frame, Header, Stats, Writer};

use super::args::Command;
use super::error::Error;
use super::watch_groups::News;

/// A chunk is written at least this often, so a killed recorder loses
/// little.
const FLUSH_EVERY: Duration = Duration::from_secs(2);
/// How often the snapshot and liveness view are compared with what was
/// recorded last.
const LOOK_EVERY: Duration = Duration::from_millis(250);

/// What `record` was asked.
#[derive(Debug)]
pub struct RecordArgs {
    /// The file.
    pub to: PathBuf,
    /// How long; until Ctrl-C when `None`.
    pub duration: Option<Duration>,
    /// `--topics`.
    pub topics: Option<String>,
    /// `--groups`.
    pub groups: Option<String>,
    /// Between group list reads; `None`: groups are not recorded.
    pub group_interval: Option<Duration>,
    /// The context's name, for the header.
    pub context: Option<String>,
}

/// Compile a `--topics`/`--groups` regex.
fn regex(option: &str, text: Option<&str>) -> Result<Option<Regex>, Error> {
    text.map(|t| Regex::new(t).map_err(|e| Error::Usage(format!("{option} '{t}': {e}"))))
        .transpose()
}

/// The state of one recording run: what was last written of each stream.
struct Recorder {
    writer: Writer,
    topics: Option<Regex>,
    groups: Option<Regex>,
    seen: Arc<MetadataSnapshot>,
    metadata: Metadata,
    health: Health,
    overview: Option<Overview>,
    /// The group events of the group reads, rate limited.
    derived: GroupEvents,
    events: u64,
}

fn now_ms() -> i64 {
    frame::millis(SystemTime::now())
}

impl Recorder {
    fn push(&mut self, body: Body) -> Result<(), Error> {
        Ok(self.writer.push(&Frame { t: now_ms(), body })?)
    }

    /// Record the events `topics`/`groups` let through.
    fn events(&mut self, events: &[MovementEvent]) -> Result<(), Error> {
        let kept: Vec<Event> = events
            .iter()
            .filter(|e| {
                let topic_ok = e
                    .topic
                    .as_deref()
                    .is_none_or(|t| self.topics.as_ref().is_none_or(|re| re.is_match(t)));
                let group_ok = e
                    .group()
                    .is_none_or(|g| self.groups.as_ref().is_none_or(|re| re.is_match(g)));
                topic_ok && group_ok
            })
            .map(Event::from)
            .collect();
        if kept.is_empty() {
            return Ok(());
        }
        self.events += kept.len() as u64;
        self.push(Body::Events { events: kept })
    }

    /// Record what changed in the snapshot and the liveness view.
    fn look(&mut self, cluster: &Cluster) -> Result<(), Error> {
        let snapshot = cluster.snapshot();
        if !Arc::ptr_eq(&snapshot, &self.seen) {
            let now = Metadata::from_snapshot(&snapshot, self.topics.as_ref());
            let delta = self.metadata.delta(&now);
            self.seen = snapshot;
            if !delta.is_empty() {
                self.metadata = now;
                self.push(Body::Delta(delta))?;
            }
        }
        if let Some(health) = cluster.health() {
            let now = Health {
                not_answering: health
                    .not_answering
                    .iter()
                    .map(|(id, since)| (*id, frame::millis(*since)))
                    .collect(),
                frozen: health.frozen.as_ref().map(|f| f.reason.clone()),
            };
            if now != self.health {
                self.health = now.clone();
                self.push(Body::Health(now))?;
            }
        }
        Ok(())
    }

    /// Record a fresh group list (when it changed) and the events from
    /// the one before.
    fn groups(&mut self, mut overview: Overview) -> Result<(), Error> {
        if let Some(re) = &self.groups {
            overview.groups.retain(|g| re.is_match(&g.listing.group));
        }
        let events = self.derived.list(
            self.overview.as_ref(),
            &overview,
            std::time::Instant::now(),
            SystemTime::now(),
        );
        self.events(&events)?;
        let rows: Vec<_> = overview
            .groups
            .iter()
            .map(super::groups::GroupRowJson::from)
            .collect();
        let changed = self.overview.as_ref().is_none_or(|before| {
            before
                .groups
                .iter()
                .map(super::groups::GroupRowJson::from)
                .ne(rows.iter().cloned())
                || before.failed_brokers != overview.failed_brokers
        });
        if changed {
            let failed = overview.failed_brokers.clone();
            self.push(Body::Groups {
                groups: rows,
                failed,
            })?;
        }
        self.overview = Some(overview);
        Ok(())
    }
}

/// `record`'s arguments, checked.
pub fn args(command: Command, context: Option<String>) -> Result<RecordArgs, Error> {
    let Command::Record {
        to,
        duration,
        topics,
        groups,
        group_interval,
        ..
    } = command
    else {
        return Err(Error::Usage("not a record command".to_owned()));
    };
    let duration = duration
        .map(|text| {
            crate::recording::cursor::offset_ms(&text)
                .map(|ms| std::time::Duration::from_millis(ms.unsigned_abs()))
                .map_err(|e| Error::Usage(format!("--duration {e}")))
        })
        .transpose()?;
    let group_interval = (group_interval > 0.0).then(|| super::args::interval(group_interval));
    Ok(RecordArgs {
        to,
        duration,
        topics,
        groups,
        group_interval,
        context,
    })
}

/// Record until the duration passes or Ctrl-C; say on stderr what was
/// recorded.
pub async fn run(cluster: &Cluster, args: RecordArgs) -> Result<(), Error> {
    let topics = regex("--topics", args.topics.as_deref())?;
    let groups = regex("--groups", args.groups.as_deref())?;
    let mut feed = cluster.subscribe_movements();
    let header = Header {
        kscope: env!("CARGO_PKG_VERSION").to_owned(),
        context: args.context.clone(),
        start_ms: now_ms(),
        topics: args.topics.clone(),
        groups: args.groups.clone(),
    };
    let writer = Writer::create(&args.to, &header)?;
    let seen = cluster.snapshot();
    let metadata = Metadata::from_snapshot(&seen, topics.as_ref());
    let mut recorder = Recorder {
        writer,
        topics,
        groups,
        seen,
        metadata: metadata.clone(),
        health: Health::default(),
        overview: None,
        derived: GroupEvents::new(STUCK_READS),
        events: 0,
    };
    recorder.push(Body::Snapshot(metadata))?;
    recorder.writer.flush()?;
    let started = Instant::now();
    let deadline = args.duration.map(|d| started + d);
    let (overviews, mut arrived) = tokio::sync::mpsc::channel(1);
    if let Some(every) = args.group_interval {
        let client = GroupsClient::new(cluster.clone());
        tokio::spawn(async move {
            loop {
                match client.overview().await {
                    Ok(overview) => {
                        if overviews.send(overview).await.is_err() {
                            return;
                        }
                    }
                    Err(error) => tracing::warn!(%error, "record: the group list failed"),
                }
                tokio::time::sleep(every).await;
            }
        });
    }
    let (tx, mut news) = tokio::sync::mpsc::channel(8);
    super::watch_configs::spawn(cluster, recorder.topics.clone(), tx);
    let mut flush = tokio::time::interval(FLUSH_EVERY);
    let mut look = tokio::time::interval(LOOK_EVERY);
    flush.set_missed_tick_behavior(MissedTickBehavior::Delay);
    look.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let interrupted = tokio::signal::ctrl_c();
    tokio::pin!(interrupted);
    let until = async move {
        match deadline {
            Some(at) => tokio::time::sleep_until(at).await,
            None => std::future::pending().await,
        }
    };
    tokio::pin!(until);
    loop {
        tokio::select! {
            _ = &mut interrupted => break,
            () = &mut until => break,
            received = feed.recv() => match received {
                Some(received) => {
                    if received.missed > 0 {
                        eprintln!("kscope: record fell behind: {} events were skipped", received.missed);
                    }
                    // The snapshot these events were derived from first:
                    // at an event's time, the replayed state already shows
                    // the change it tells of (the look tick alone would
                    // write it up to `LOOK_EVERY` later).
                    recorder.look(cluster)?;
                    recorder.events(&received.events)?;
                }
                None => break,
            },
            Some(overview) = arrived.recv() => recorder.groups(overview)?,
            Some(news) = news.recv() => match news {
                News::Events(events) => recorder.events(&events)?,
                News::Note(note) => eprintln!("kscope: {note}"),
            },
            _ = look.tick() => recorder.look(cluster)?,
            _ = flush.tick() => recorder.writer.flush()?,
        }
    }
    recorder.look(cluster)?;
    while let Some(received) = feed.try_recv() {
        recorder.events(&received.events)?;
    }
    // What the config sweep said and is still waiting in the channel.
    while let Ok(news) = news.try_recv() {
        if let News::Events(events) = news {
            recorder.events(&events)?;
        }
    }
    let events = recorder.events;
    let stats = recorder.writer.finish()?;
    report(&args.to, stats, events, started.elapsed());
    Ok(())
}

fn report(to: &std::path::Path, stats: Stats, events: u64, took: Duration) {
    eprintln!(
        "kscope: recorded {} frames ({events} events) in {} chunks, {} bytes, over {:.1}s to '{}'",
        stats.frames,
        stats.chunks,
        stats.bytes,
        took.as_secs_f64(),
        to.display()
    );
}
