//! `kscope watch leaders [TOPIC]`: movement events as they are observed.

use std::io::Write;

use tokio::sync::broadcast::error::RecvError;

use crate::meta::Cluster;

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
    loop {
        let received = tokio::select! {
            _ = &mut interrupted => return Ok(()),
            received = feed.recv() => received,
        };
        let event = match received {
            Ok(event) => event,
            Err(RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "watch fell behind; events were skipped");
                continue;
            }
            Err(RecvError::Closed) => return Ok(()),
        };
        if topic.is_some_and(|name| event.topic.as_deref().is_some_and(|t| t != name)) {
            continue;
        }
        match format {
            OutputFormat::Json => {
                serde_json::to_writer(&mut *out, &event::json(&event))?;
                writeln!(out)?;
            }
            OutputFormat::Table => writeln!(out, "{}", event::line(&event))?,
        }
        out.flush()?;
    }
}
