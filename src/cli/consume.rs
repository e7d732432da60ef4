//! `kscope consume TOPIC`: a topic's records, headless, in `table`, `json`
//! (one object per line) or `raw` (value bytes verbatim, only to a pipe).
//!
//! Never joins a group or commits: `group:NAME` only reads the group's
//! committed offsets.

use std::io::{IsTerminal, Write};

use regex::bytes::Regex;

use crate::browse::{self, Browser, Event, Options, Record, Start};
use crate::groups::GroupsClient;
use crate::meta::Cluster;
use crate::schema::Decoder;

use super::consume_key::{self, KeyArg};
use super::consume_newest;
use super::consume_output::Printer;
use super::consume_owner::owner_partition;
use super::consume_raw;
pub use super::consume_sink::{ConsumeArgs, JqArgs, Owner};
use super::consume_sink::{Output, matches};

use super::args::OutputFormat;
use super::error::Error;

/// Run `consume` until COUNT records, the end (unless following), or a closed pipe.
pub async fn run(
    cluster: &Cluster,
    mut args: ConsumeArgs,
    decoder: Option<&Decoder>,
    output: OutputFormat,
    out: &mut impl Write,
) -> Result<(), Error> {
    if output == OutputFormat::Raw && std::io::stdout().is_terminal() {
        return Err(Error::Usage(
            "-o raw writes record bytes verbatim and only to a pipe or file, not a terminal"
                .to_owned(),
        ));
    }
    let grep = args
        .grep
        .as_deref()
        .map(Regex::new)
        .transpose()
        .map_err(|e| Error::Usage(format!("--grep: {e}")))?;
    // With mask rules on the topic, --grep looks only at masked records.
    let (grep, grep_masked) = match args.mask.for_topic(&args.topic) {
        Some(_) => (None, grep),
        None => (grep, None),
    };
    let mut sink = Output::new(decoder, output, grep_masked);
    if args.jq.project.is_none() {
        Printer::header(output, out)?;
    }
    let mut partition = args.partition;
    if let Some(key) = args.key.as_ref().filter(|k| !k.scan) {
        let at = consume_key::partition(cluster, &args.topic, key).await?;
        if args.from.is_none() && !args.follow {
            let (found, fetched) =
                consume_newest::newest_first(cluster, &args, key, at, &mut sink, out).await?;
            say_found(&args.topic, key, Some(at), found, fetched);
            sink.say_failures();
            return Ok(());
        }
        partition = Some(at);
    }
    if let Some(owner) = &mut args.owner {
        partition = owner_partition(cluster, &args.topic, owner).await?;
    }
    let from = args.from.as_deref().unwrap_or("beginning");
    let now_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis(),
    )
    .unwrap_or(i64::MAX);
    let mut start = Start::parse(from, now_ms)?;
    if let Start::Group(group) = &start {
        start = Start::Offsets(group_offsets(cluster, group, &args.topic).await?);
    }
    let options = Options {
        isolation: args.isolation,
        follow: args.follow,
        ..Options::default()
    };
    let mut browser =
        Browser::open(cluster.clone(), &args.topic, partition, &start, options).await?;
    let mut printed: u64 = 0;
    let plain_raw = consume_raw::applies(&args, output, decoder, grep.as_ref());
    while args.count.is_none_or(|n| printed < n) && (args.follow || !browser.finished()) {
        let events = browser.next_events().await?;
        if plain_raw {
            let limit = args.count.map(|n| n - printed);
            printed += consume_raw::write_values(&args.shown_topic, &events, limit, out)?;
            out.flush()?;
            continue;
        }
        for event in events {
            match event {
                Event::Notice(notice) => Output::notice(&args.shown_topic, &notice),
                Event::Record(record) => {
                    if args.count.is_some_and(|n| printed >= n) {
                        break;
                    }
                    if !wanted(&args, grep.as_ref(), decoder, &record).await {
                        continue;
                    }
                    if sink.print(&args, &record, out).await? {
                        printed += 1;
                    }
                }
            }
        }
        out.flush()?;
    }
    sink.say_failures();
    if let Some(key) = &args.key {
        say_found(
            &args.topic,
            key,
            partition,
            printed,
            browser.bytes_fetched(),
        );
    }
    Ok(())
}

/// Whether `record` passes `--grep`, `--key` and (on Kafka's own topics)
/// `--group` or `--transactional-id`; `--filter` is the sink's.
async fn wanted(
    args: &ConsumeArgs,
    grep: Option<&Regex>,
    decoder: Option<&Decoder>,
    record: &Record,
) -> bool {
    if grep.is_some_and(|re| !matches(re, record)) {
        return false;
    }
    if let Some(key) = &args.key
        && !key.matches(record, decoder).await
    {
        return false;
    }
    args.owner.as_ref().is_none_or(|owner| {
        record
            .key
            .as_deref()
            .is_some_and(|key| owner.owns(&args.topic, key))
    })
}

/// The stderr line that ends a key search: matches, where, bytes fetched.
fn say_found(topic: &str, key: &KeyArg, partition: Option<i32>, found: u64, fetched: u64) {
    let place = partition.map_or_else(
        || "every partition".to_owned(),
        |p| format!("partition {p}"),
    );
    let noun = if found == 1 { "record" } else { "records" };
    eprintln!(
        "kscope: key '{}': {found} {noun} found in topic '{topic}' {place}; {fetched} bytes fetched",
        crate::untrusted::escape(&key.text)
    );
}

/// The group's committed offsets on `topic`, per partition.
async fn group_offsets(
    cluster: &Cluster,
    group: &str,
    topic: &str,
) -> Result<std::collections::BTreeMap<i32, i64>, Error> {
    let coordinator = cluster.coordinator_for(group).await?;
    let client = GroupsClient::new(cluster.clone());
    let mut answers = client
        .committed(vec![(group.to_owned(), coordinator)])
        .await;
    let committed = answers
        .remove(group)
        .ok_or_else(|| Error::Usage(format!("group '{group}' not found")))?
        .map_err(|e| Error::Usage(e.to_string()))?;
    Ok(committed
        .into_iter()
        .filter(|((t, _), _)| t == topic)
        .map(|((_, p), offset)| (p, offset))
        .collect())
}

impl From<browse::Error> for Error {
    fn from(error: browse::Error) -> Self {
        Error::Browse(error)
    }
}
