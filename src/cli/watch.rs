//! `kscope watch leaders [TOPIC]`: movement events as they are observed.
//!
//! Every event of every refresh is printed, however many one refresh brings.
//! If stdout is so slow that the feed had to skip events, the stream says so
//! in-band (a `events_missed` record with the exact count) and on stderr.

use std::io::Write;

use serde_json::json;

use crate::meta::Cluster;
use crate::meta::movement_log::MovementFeed;

use super::args::OutputFormat;
use super::error::Error;
use super::event;

/// Print events until interrupted (Ctrl-C) or stdout closes.
pub async fn run(
    cluster: &Cluster,
    topic: Option<&str>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let mut feed = cluster.subscribe_movements();
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
        printed = print(&mut feed, topic, format, out, &mut err) => printed,
    }
}

/// Print what `feed` brings (only `topic`'s events when given) until the feed
/// ends. Skipped events are reported on `out` and on `err`.
pub async fn print(
    feed: &mut MovementFeed,
    topic: Option<&str>,
    format: OutputFormat,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), Error> {
    while let Some(received) = feed.recv().await {
        if received.missed > 0 {
            missed(received.missed, format, out, err)?;
        }
        for event in received.events.iter() {
            if topic.is_some_and(|name| event.topic.as_deref().is_some_and(|t| t != name)) {
                continue;
            }
            match format {
                OutputFormat::Json => {
                    serde_json::to_writer(&mut *out, &event::json(event))?;
                    writeln!(out)?;
                }
                OutputFormat::Table | OutputFormat::Raw | OutputFormat::Csv => {
                    writeln!(out, "{}", crate::untrusted::escape(&event::line(event)))?;
                }
            }
        }
        out.flush()?;
    }
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
            serde_json::to_writer(&mut *out, &record)?;
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
    use crate::meta::{MovementEvent, MovementKind, MovementLog};

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
        let log = MovementLog::new(100);
        let mut feed = log.subscribe();
        log.extend(moves(0..10_000));
        log.extend(moves(10_000..12_000));
        drop(log);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        print(&mut feed, None, OutputFormat::Json, &mut out, &mut err)
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
}
