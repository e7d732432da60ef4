//! `get … --from-file FILE [--at TIME]` and `watch events --from-file
//! FILE`: the same rows and events as live, answered from a recording at a
//! time cursor (`crate::recording::cursor`) instead of the cluster.
//!
//! A damaged recording answers from what came before the damage and says
//! so on stderr (exit status [`super::partial::PARTIAL_EXIT`]).

use std::io::Write;
use std::path::Path;

use crate::columns::Column;
use crate::meta::{Limits, MovementEvent, MovementLog};
use crate::recording::{self, Body, Stream, View};

use super::args::{Command, GetCommand, GetWhat, OutputFormat};
use super::error::Error;
use super::groups::GroupRowJson;
use super::output::emit;
use super::{partial, rows, watch};

/// What the recording at `path` knew at the cursor `at` (`None`: its
/// end), read one chunk at a time (`crate::recording::stream`); damage
/// before the cursor is said on stderr (the answer is then partial).
fn view_at(path: &Path, at: Option<&str>) -> Result<(Stream, View), Error> {
    let stream = Stream::open(path)?;
    let cursor = stream.parse_at(at).map_err(Error::Usage)?;
    let mut view = View {
        at: cursor,
        ..View::default()
    };
    let damage = stream.until(cursor, |frame| view.apply(&frame.body))?;
    said(damage);
    Ok((stream, view))
}

/// Damage met before the cursor, on stderr.
fn said(damage: Option<recording::Error>) {
    if let Some(damage) = damage {
        partial::missing(format!(
            "{damage}; answering from what was recorded before it"
        ));
    }
}

/// `get WHAT --from-file PATH [--at AT]`.
pub fn get(
    what: &GetCommand,
    path: &Path,
    at: Option<&str>,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let Some((listing, topic)) = what.listing() else {
        return Err(Error::Usage(
            "--from-file answers get brokers, topics, partitions and groups".to_owned(),
        ));
    };
    let (stream, view) = view_at(path, at)?;
    if !view.has_metadata {
        return Err(Error::Usage(format!(
            "recording '{}' holds nothing at or before that time (it starts at {})",
            path.display(),
            super::event::rfc3339(recording::frame::time(stream.header.start_ms))
        )));
    }
    let snapshot = view.metadata.to_snapshot();
    match listing {
        GetWhat::Brokers => {
            emit(
                out,
                format,
                &rows::brokers(&snapshot),
                &rows::BrokerRow::table(),
            )?;
            warn_health(&view);
            Ok(())
        }
        GetWhat::Topics => {
            known(&snapshot, topic)?;
            let chosen = snapshot
                .topics()
                .iter()
                .map(AsRef::as_ref)
                .filter(|t| topic.is_none_or(|name| t.name == name));
            let rows = rows::topics(&snapshot, chosen);
            emit(out, format, &rows, &rows::TopicRow::table())
        }
        GetWhat::Partitions => {
            known(&snapshot, topic)?;
            let rows: Vec<rows::PartitionRow> = snapshot
                .topics()
                .iter()
                .filter(|t| topic.is_none_or(|name| t.name == name))
                .flat_map(|t| {
                    t.partitions
                        .iter()
                        .map(|p| rows::partition(&t.name, p, None))
                })
                .collect();
            emit(out, format, &rows, &rows::PartitionRow::table())
        }
        GetWhat::Groups => groups(&view, format, out),
    }
}

fn known(snapshot: &crate::meta::MetadataSnapshot, topic: Option<&str>) -> Result<(), Error> {
    match topic {
        Some(name) if snapshot.topic(name).is_none() => Err(Error::UnknownTopic(name.to_owned())),
        _ => Ok(()),
    }
}

/// What the liveness view said at the cursor, as the live command says it.
fn warn_health(view: &View) {
    let health = crate::meta::Health {
        not_answering: view
            .health
            .not_answering
            .iter()
            .map(|(id, since)| (*id, recording::frame::time(*since)))
            .collect(),
        frozen: view
            .health
            .frozen
            .as_ref()
            .map(|reason| crate::meta::Frozen {
                since: recording::frame::time(view.at),
                reason: reason.clone(),
            }),
    };
    for warning in health.warnings() {
        eprintln!("kscope: warning: {warning}");
    }
}

fn groups(view: &View, format: OutputFormat, out: &mut impl Write) -> Result<(), Error> {
    let Some((groups, failed)) = &view.groups else {
        return Err(Error::Usage(
            "the recording holds no group list at or before that time".to_owned(),
        ));
    };
    for (node, why) in failed {
        partial::missing(crate::untrusted::escape(&format!(
            "broker {node} could not list its groups: {why}"
        )));
    }
    if format == OutputFormat::Json {
        crate::cli::output::json(&mut *out, groups, true)?;
        writeln!(out)?;
        return Ok(());
    }
    emit(out, format, groups, &group_table())
}

/// `get groups` from a recording: the rows as recorded (`-o json` prints
/// every field).
fn group_table() -> [Column<GroupRowJson>; 7] {
    [
        rows::text("GROUP", |r| r.group.clone()),
        rows::text("TYPE", |r| r.group_type.clone()),
        rows::text("STATE", |r| r.state.clone()),
        rows::number("MEMBERS", |r| rows::opt(r.members)),
        rows::number("COORDINATOR", |r| r.coordinator.to_string()),
        rows::number("LAG", |r| rows::opt(r.lag)),
        rows::text("TOPICS", |r| r.topics.join(",")),
    ]
}

/// `watch events|leaders --from-file PATH [--at AT] [TOPIC]`: the events
/// recorded up to the cursor, printed as `watch` prints them live.
pub fn watch(
    path: &Path,
    at: Option<&str>,
    topic: Option<&str>,
    filter: &watch::Filter,
    format: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    let stream = Stream::open(path)?;
    let cursor = stream.parse_at(at).map_err(Error::Usage)?;
    let mut events = Vec::new();
    let damage = stream.until(cursor, |frame| {
        if let Body::Events { events: more } = frame.body {
            events.extend(more.into_iter().map(MovementEvent::from));
        }
    })?;
    said(damage);
    let log = MovementLog::with_limits(Limits::with_capacity(events.len().max(1)).unlimited_rate());
    let mut feed = log.subscribe();
    log.extend(events);
    drop(log);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(Error::Runtime)?;
    let mut err = std::io::stderr();
    runtime.block_on(watch::print(
        &mut feed, None, topic, filter, format, out, &mut err,
    ))
}

/// A `get` or `watch` with `--from-file`, answered from the recording
/// (`None` for everything else).
pub(super) fn from_file(command: &Command, output: OutputFormat) -> Option<Result<(), Error>> {
    let mut out = std::io::stdout().lock();
    match command {
        Command::Get {
            what,
            from_file: Some(path),
            at,
        } => Some(get(what, path, at.as_deref(), output, &mut out)),
        Command::Watch {
            what,
            topic,
            kinds,
            from_file: Some(path),
            at,
            ..
        } => Some(watch::Filter::new(*what, kinds).and_then(|filter| {
            watch(
                path,
                at.as_deref(),
                topic.as_deref(),
                &filter,
                output,
                &mut out,
            )
        })),
        _ => None,
    }
}
