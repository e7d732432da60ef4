//! `kscope watch leaders [TOPIC]` and `kscope watch events [--kinds …]
//! [TOPIC]`: events as they are observed. `leaders` prints the leader
//! movement kinds in the format it always had; `events` prints every kind
//! (or those of `--kinds`) with severity, source, subject and before/after.
//!
//! Every event of every refresh is printed, however many one refresh brings
//! (a storm over a kind's rate limit arrives folded into counted
//! `events_suppressed` records, printed like any event).
//! If stdout is so slow that the feed had to skip events, the stream says so
//! in-band (a `events_missed` record with the exact count) and on stderr.
//!
//! `events` also prints what two readers beside the metadata feed derive:
//! the group events ([`super::watch_groups`]), and the config-change and
//! min-ISR events of the config sweep ([`super::watch_configs`], not run
//! when `--kinds` wants none of its kinds). They come over a small bounded
//! channel the readers wait on (nothing is dropped), not through the
//! movement log; each reader applies the log's per-kind rate limit itself
//! ([`crate::meta::EventGate`]), so a storm of `group_stuck`,
//! `under_min_isr` or `topic_config_changed` arrives folded into counted
//! `events_suppressed` records as a storm of leader moves does.

use std::io::Write;

use serde_json::json;

use crate::meta::movement_log::MovementFeed;
use crate::meta::{Cluster, KIND_NAMES, MovementEvent, MovementKind};

use tokio::sync::mpsc;

use super::args::{OutputFormat, WatchWhat};
use super::error::Error;
use super::event;
use super::watch_groups::{GroupWatch, News};

/// The kinds the config sweep ([`super::watch_configs`]) derives.
const CONFIG_KINDS: &[&str] = &[
    "under_min_isr",
    "min_isr_restored",
    "topic_config_changed",
    "broker_config_changed",
];

/// Which events a watch prints, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// `watch events` (every field) rather than `watch leaders`.
    events: bool,
    /// Only these kinds (`events_suppressed` records count as the kind they
    /// fold); every kind when `None`.
    kinds: Option<Vec<&'static str>>,
}

impl Filter {
    /// `watch leaders`: the leader movement kinds, as they always printed.
    pub fn leaders() -> Self {
        Self {
            events: false,
            kinds: None,
        }
    }

    /// The filter for `watch WHAT --kinds KINDS`; an unknown kind, or
    /// `--kinds` with `leaders`, is a usage error naming the valid kinds.
    pub fn new(what: WatchWhat, kinds: &[String]) -> Result<Self, Error> {
        if what == WatchWhat::Leaders {
            if !kinds.is_empty() {
                return Err(Error::Usage("--kinds is for `watch events`".to_owned()));
            }
            return Ok(Self::leaders());
        }
        if kinds.is_empty() {
            return Ok(Self {
                events: true,
                kinds: None,
            });
        }
        let mut known = Vec::with_capacity(kinds.len());
        for kind in kinds.iter().map(|k| k.trim()).filter(|k| !k.is_empty()) {
            match KIND_NAMES.iter().find(|name| **name == kind) {
                Some(name) => known.push(*name),
                None => {
                    return Err(Error::Usage(format!(
                        "unknown event kind '{kind}'; valid kinds: {}",
                        KIND_NAMES.join(", ")
                    )));
                }
            }
        }
        Ok(Self {
            events: true,
            kinds: Some(known),
        })
    }

    /// Whether `watch events` prints any of `kinds` (so whoever derives
    /// them has to run).
    fn wants_any(&self, kinds: &[&str]) -> bool {
        self.events
            && self
                .kinds
                .as_ref()
                .is_none_or(|wanted| wanted.iter().any(|k| kinds.contains(k)))
    }

    /// Whether `event` is printed (the topic filter aside).
    fn wants(&self, event: &MovementEvent) -> bool {
        if !self.events {
            return event.kind.is_leader_movement();
        }
        let Some(kinds) = &self.kinds else {
            return true;
        };
        kinds.contains(&event.kind.name())
            || matches!(&event.kind, MovementKind::EventsSuppressed { suppressed, .. } if kinds.contains(suppressed))
    }
}

/// Print events until interrupted (Ctrl-C) or stdout closes; with
/// `groups`, the group events too (see [`super::watch_groups`]).
pub async fn run(
    cluster: &Cluster,
    topic: Option<&str>,
    filter: &Filter,
    groups: Option<GroupWatch>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let mut feed = cluster.subscribe_movements();
    let (tx, mut news) = mpsc::channel(8);
    if let Some(watch) = groups {
        super::watch_groups::spawn(cluster, watch, tx.clone());
    }
    if filter.wants_any(CONFIG_KINDS) {
        super::watch_configs::spawn(cluster, None, tx.clone());
    }
    drop(tx);
    if let Some(name) = topic {
        if cluster.refresh_topics(&[name]).await?.topic(name).is_none() {
            return Err(Error::UnknownTopic(name.to_owned()));
        }
        cluster.watch_topics(vec![name.to_owned()]);
    }
    let interrupted = tokio::signal::ctrl_c();
    tokio::pin!(interrupted);
    let mut err = std::io::stderr();
    tokio::select! {
        _ = &mut interrupted => Ok(()),
        printed = print(&mut feed, Some(&mut news), topic, filter, format, out, &mut err) => printed,
    }
}

/// Print what `feed` and `groups` bring (only `topic`'s events when given)
/// until the feed ends. Skipped events are reported on `out` and on `err`.
pub async fn print(
    feed: &mut MovementFeed,
    mut groups: Option<&mut mpsc::Receiver<News>>,
    topic: Option<&str>,
    filter: &Filter,
    format: OutputFormat,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), Error> {
    loop {
        let group_events = async {
            match groups.as_mut() {
                Some(rx) => rx.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            received = feed.recv() => {
                let Some(received) = received else { return Ok(()) };
                if received.missed > 0 {
                    missed(received.missed, format, out, err)?;
                }
                write(received.events.iter(), topic, filter, format, out)?;
            }
            Some(news) = group_events => match news {
                News::Events(events) => write(events.iter(), topic, filter, format, out)?,
                News::Note(note) => writeln!(err, "kscope: {note}")?,
            },
        }
    }
}

/// Print `events` as `filter` and `topic` keep them.
fn write<'a>(
    events: impl Iterator<Item = &'a MovementEvent>,
    topic: Option<&str>,
    filter: &Filter,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    for event in events {
        if topic.is_some_and(|name| event.topic.as_deref().is_some_and(|t| t != name))
            || !filter.wants(event)
        {
            continue;
        }
        match (format, filter.events) {
            (OutputFormat::Json, false) => {
                crate::cli::output::json(&mut *out, &event::json(event), false)?;
                writeln!(out)?;
            }
            (OutputFormat::Json, true) => {
                crate::cli::output::json(&mut *out, &event::record(event), false)?;
                writeln!(out)?;
            }
            (OutputFormat::Table | OutputFormat::Raw | OutputFormat::Csv, false) => {
                writeln!(out, "{}", crate::untrusted::escape(&event::line(event)))?;
            }
            (OutputFormat::Table | OutputFormat::Raw | OutputFormat::Csv, true) => {
                writeln!(
                    out,
                    "{}",
                    crate::untrusted::escape(&event::table_line(event))
                )?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// Say that `count` events were skipped: one record in the stream, one line
/// on stderr.
fn missed(
    count: u64,
    format: OutputFormat,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), Error> {
    tracing::warn!(count, "watch fell behind; events were skipped");
    let now = event::rfc3339(std::time::SystemTime::now());
    match format {
        OutputFormat::Json => {
            let record = json!({"time": now, "kind": "events_missed", "missed": count});
            crate::cli::output::json(&mut *out, &record, false)?;
            writeln!(out)?;
        }
        OutputFormat::Table | OutputFormat::Raw | OutputFormat::Csv => {
            writeln!(out, "{now}  {:<18}  -  missed={count}", "events_missed")?;
        }
    }
    writeln!(
        err,
        "kscope: watch fell behind: {count} movement events were skipped (output too slow)"
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::meta::{Limits, MovementLog};

    fn moves(range: std::ops::Range<i32>) -> Vec<MovementEvent> {
        range
            .map(|p| MovementEvent {
                time: SystemTime::now(),
                topic: Some("t".to_owned()),
                partition: Some(p),
                kind: MovementKind::LeaderChanged {
                    from: 1,
                    to: 2,
                    epoch: 5,
                },
            })
            .collect()
    }

    #[tokio::test]
    async fn every_one_of_ten_thousand_moves_in_one_refresh_is_printed() {
        let log = MovementLog::with_limits(Limits::with_capacity(100).unlimited_rate());
        let mut feed = log.subscribe();
        log.extend(moves(0..10_000));
        log.extend(moves(10_000..12_000));
        drop(log);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let filter = Filter::leaders();
        print(
            &mut feed,
            None,
            None,
            &filter,
            OutputFormat::Json,
            &mut out,
            &mut err,
        )
        .await
        .expect("printed");
        let text = String::from_utf8(out).expect("utf-8");
        let partitions: Vec<i64> = text
            .lines()
            .map(|line| {
                let value: serde_json::Value = serde_json::from_str(line).expect("json");
                value["partition"].as_i64().expect("a partition")
            })
            .collect();
        assert_eq!(partitions, (0..12_000).collect::<Vec<i64>>());
        assert!(err.is_empty(), "nothing was skipped");
    }

    #[tokio::test]
    async fn skipped_events_are_reported_in_band_and_on_stderr() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        missed(4242, OutputFormat::Json, &mut out, &mut err).expect("written");
        let value: serde_json::Value = serde_json::from_slice(&out).expect("json");
        assert_eq!(value["kind"], "events_missed");
        assert_eq!(value["missed"], 4242);
        assert!(String::from_utf8_lossy(&err).contains("4242 movement events were skipped"));
    }

    #[test]
    fn an_unknown_kind_is_a_usage_error_listing_the_valid_ones() {
        let kinds = ["isr_shrank".to_owned(), "leader_moved".to_owned()];
        let error = Filter::new(WatchWhat::Events, &kinds).expect_err("unknown kind");
        assert_eq!(error.exit_code(), 2);
        let text = error.to_string();
        assert!(text.contains("'leader_moved'"), "{text}");
        assert!(text.contains("partitions_added, topic_created"), "{text}");
        let kinds = ["leader_changed".to_owned()];
        assert!(Filter::new(WatchWhat::Leaders, &kinds).is_err());
    }

    #[test]
    fn leaders_keeps_its_subset_and_events_filters_by_kind_folds_included() {
        let event = |kind| MovementEvent {
            time: SystemTime::now(),
            topic: Some("t".to_owned()),
            partition: None,
            kind,
        };
        let added = event(MovementKind::PartitionsAdded { from: 1, to: 3 });
        let moved = moves(0..1).remove(0);
        let folded = event(MovementKind::EventsSuppressed {
            suppressed: "isr_shrank",
            count: 5,
            severity: crate::meta::Severity::Warn,
        });
        let leaders = Filter::leaders();
        assert!(leaders.wants(&moved) && !leaders.wants(&added) && leaders.wants(&folded));
        let kinds = ["isr_shrank".to_owned(), " partitions_added".to_owned()];
        let some = Filter::new(WatchWhat::Events, &kinds).expect("valid kinds");
        assert!(!some.wants(&moved) && some.wants(&added) && some.wants(&folded));
        let all = Filter::new(WatchWhat::Events, &[]).expect("every kind");
        assert!(all.wants(&moved) && all.wants(&added));
        // The config sweep runs only when one of its kinds is wanted.
        assert!(all.wants_any(CONFIG_KINDS) && !some.wants_any(CONFIG_KINDS));
        assert!(!leaders.wants_any(CONFIG_KINDS));
        let configs = Filter::new(WatchWhat::Events, &["topic_config_changed".to_owned()]);
        assert!(configs.expect("a valid kind").wants_any(CONFIG_KINDS));
    }
}
