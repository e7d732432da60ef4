//! `kscope consume TOPIC`: a topic's records, headless, in `table`, `json`
//! (one object per line) or `raw` (value bytes verbatim, only to a pipe).
//!
//! Never joins a group or commits: `group:NAME` only reads the group's
//! committed offsets.

use std::io::{IsTerminal, Write};

use regex::bytes::Regex;

use crate::browse::internal::{self, consumer_offsets};
use crate::browse::jq::{self, JqFilter};
use crate::browse::json::{Field, RecordJson};
use crate::browse::mask::Masker;
use crate::browse::{self, Browser, Event, Isolation, Options, Record, Start};
use crate::groups::GroupsClient;
use crate::meta::Cluster;
use crate::schema::{Decoder, Decoding};

use super::consume_key::{self, KeyArg};
use super::consume_output::{Printer, field};

use super::args::OutputFormat;
use super::error::Error;

/// What `consume` was asked for.
#[derive(Debug, Clone)]
pub struct ConsumeArgs {
    pub topic: String,
    /// Only this partition.
    pub partition: Option<i32>,
    /// Where to start (`None`: the beginning; with a key, newest first).
    pub from: Option<String>,
    /// Stop after this many records.
    pub count: Option<u64>,
    /// Keep reading past the end.
    pub follow: bool,
    /// Only records whose key or value matches.
    pub grep: Option<String>,
    /// `--filter` and `--project`, compiled.
    pub jq: JqArgs,
    /// Only records with this key, from its partition.
    pub key: Option<KeyArg>,
    /// `__consumer_offsets` only: this group's records, from its partition.
    pub group: Option<String>,
    /// `read_committed` or `read_uncommitted`.
    pub isolation: Isolation,
    /// Schemas for values without the wire prefix, by topic (config).
    pub mappings: crate::schema::mapping::Mappings,
    /// What is masked before printing, `--grep` and `--filter`.
    pub mask: Masker,
}

/// `--filter EXPR` and `--project EXPR`, each compiled once.
#[derive(Debug, Clone, Default)]
pub struct JqArgs {
    /// Only records for which this yields a truthy value.
    pub filter: Option<JqFilter>,
    /// Print what this yields instead of the record.
    pub project: Option<JqFilter>,
}

impl JqArgs {
    /// Compile both; an error is a usage error naming the option, the
    /// column, and the expression with a caret under it.
    pub fn compile(filter: Option<&str>, project: Option<&str>) -> Result<JqArgs, Error> {
        let compile = |option: &str, text: Option<&str>| {
            text.map(JqFilter::compile)
                .transpose()
                .map_err(|e| Error::Expression(format!("{option}: {}", e.with_caret())))
        };
        Ok(JqArgs {
            filter: compile("--filter", filter)?,
            project: compile("--project", project)?,
        })
    }

    fn active(&self) -> bool {
        self.filter.is_some() || self.project.is_some()
    }
}

/// Records a jq expression failed on (they do not pass), and the first error.
#[derive(Debug, Default)]
struct JqFailures {
    count: u64,
    first: Option<String>,
}

/// How records are printed: the format, the registry, the printer's buffers.
pub struct Output<'a> {
    /// The registry decoding framed keys and values, if any.
    pub decoder: Option<&'a Decoder>,
    format: OutputFormat,
    printer: Printer,
    failures: JqFailures,
    /// `--grep`, when the topic has mask rules: matched after masking, so
    /// it cannot find what is masked.
    grep_masked: Option<Regex>,
}

impl Output<'_> {
    /// Say a notice on stderr (one that loses records marks the run partial).
    pub fn notice(topic: &str, notice: &browse::Notice) {
        if notice.loses_records() {
            super::partial::missing(format_args!("topic '{topic}' {notice}"));
        } else {
            eprintln!("kscope: topic '{topic}' {notice}");
        }
    }

    /// Decode (schemas, topic mappings) and print one record, unless
    /// `--filter` drops it; `--project` prints what it yields instead.
    /// Returns whether the record passed.
    pub async fn print(
        &mut self,
        args: &ConsumeArgs,
        record: &Record,
        out: &mut impl Write,
    ) -> Result<bool, Error> {
        let raw = self.format == OutputFormat::Raw && !args.jq.active();
        let mut decoding = match (self.decoder, raw) {
            (Some(registry), true) => Some(decode(registry, record).await),
            (Some(registry), false) => {
                let decoding = Some(decode(registry, record).await);
                mapped(args, self.decoder, record, decoding).await
            }
            (None, true) => None,
            (None, false) => mapped(args, None, record, None).await,
        };
        let masked;
        let record = match args.mask.for_topic(&args.topic) {
            Some(mask) => {
                let mut copy = record.clone();
                let (key, value) = decoded_json(&mut decoding);
                mask.record(&mut copy, key, value);
                masked = copy;
                if self
                    .grep_masked
                    .as_ref()
                    .is_some_and(|re| !matches(re, &masked))
                {
                    return Ok(false);
                }
                &masked
            }
            None => record,
        };
        if args.jq.active() {
            let json = RecordJson {
                key: decoding.as_ref().map_or(Field::Bytes, |d| field(&d.key)),
                value: decoding.as_ref().map_or(Field::Bytes, |d| field(&d.value)),
                ..RecordJson::plain(&args.topic, record)
            };
            let input = jq::record_val(&json);
            if let Some(filter) = &args.jq.filter {
                match filter.passes(input.clone()) {
                    Ok(true) => {}
                    Ok(false) => return Ok(false),
                    Err(error) => {
                        self.failed(record, &error);
                        return Ok(false);
                    }
                }
            }
            if let Some(project) = &args.jq.project {
                let mut line = Vec::new();
                let ran = project.each(input, |value| {
                    jq::write(value, &mut line);
                    line.push(b'\n');
                });
                out.write_all(&line)?;
                if let Err(error) = ran {
                    self.failed(record, &error);
                }
                return Ok(true);
            }
        }
        self.printer
            .write(&args.topic, record, decoding.as_ref(), self.format, out)?;
        Ok(true)
    }

    fn failed(&mut self, record: &Record, error: &str) {
        self.failures.count += 1;
        self.failures.first.get_or_insert_with(|| {
            format!(
                "partition {} offset {}: {}",
                record.partition,
                record.offset,
                crate::untrusted::escape(error)
            )
        });
    }

    /// Say on stderr how many records the jq expressions failed on.
    pub fn say_failures(&self) {
        if let Some(first) = &self.failures.first {
            let n = self.failures.count;
            let noun = if n == 1 { "record" } else { "records" };
            eprintln!("kscope: the jq expression failed on {n} {noun} (skipped); first: {first}");
        }
    }
}

/// Run `consume` until COUNT records, the end (unless following), or a closed pipe.
pub async fn run(
    cluster: &Cluster,
    args: ConsumeArgs,
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
    let mut sink = Output {
        decoder,
        format: output,
        printer: Printer::default(),
        failures: JqFailures::default(),
        grep_masked,
    };
    if args.jq.project.is_none() {
        Printer::header(output, out)?;
    }
    let mut partition = args.partition;
    if let Some(key) = args.key.as_ref().filter(|k| !k.scan) {
        let at = consume_key::partition(cluster, &args.topic, key).await?;
        if args.from.is_none() && !args.follow {
            let (found, fetched) =
                consume_key::newest_first(cluster, &args, key, at, &mut sink, out).await?;
            say_found(&args.topic, key, Some(at), found, fetched);
            sink.say_failures();
            return Ok(());
        }
        partition = Some(at);
    }
    if let Some(group) = &args.group {
        partition = Some(group_partition(cluster, &args.topic, group).await?);
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
    while args.count.is_none_or(|n| printed < n) && (args.follow || !browser.finished()) {
        for event in browser.next_events().await? {
            match event {
                Event::Notice(notice) => Output::notice(&args.topic, &notice),
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

/// Whether `record` passes `--grep`, `--key` and (on `__consumer_offsets`)
/// `--group`; `--filter` is the sink's.
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
    args.group.as_ref().is_none_or(|group| {
        record
            .key
            .as_deref()
            .and_then(consumer_offsets::key_group)
            .as_deref()
            == Some(group.as_str())
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

/// The JSON a schema decoded the key and value into, for masking in place.
fn decoded_json(
    decoding: &mut Option<RecordDecoding>,
) -> (
    Option<&mut serde_json::Value>,
    Option<&mut serde_json::Value>,
) {
    fn json(field: &mut Decoding) -> Option<&mut serde_json::Value> {
        match field {
            Decoding::Decoded(decoded) => Some(&mut decoded.value),
            _ => None,
        }
    }
    match decoding {
        Some(RecordDecoding { key, value }) => (json(key), json(value)),
        None => (None, None),
    }
}

fn matches(re: &Regex, record: &Record) -> bool {
    record.key.as_ref().is_some_and(|k| re.is_match(k))
        || record.value.as_ref().is_some_and(|v| re.is_match(v))
}

/// The partition of `__consumer_offsets` that holds `group`'s records.
async fn group_partition(cluster: &Cluster, topic: &str, group: &str) -> Result<i32, Error> {
    if !internal::decodes(topic) {
        return Err(Error::Usage(format!(
            "--group reads the commit history of a group from {}, not from '{}'",
            internal::CONSUMER_OFFSETS,
            crate::untrusted::escape(topic)
        )));
    }
    let count = consume_key::partition_count(cluster, topic).await?;
    let partition = internal::partition_for_group(group, count)
        .ok_or_else(|| Error::Usage(format!("topic '{topic}' has no partitions")))?;
    eprintln!(
        "kscope: group '{}' is in partition {partition} of {count} of {topic} (abs(Java hashCode) mod partitions, as the coordinator places it)",
        crate::untrusted::escape(group)
    );
    Ok(partition)
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

/// A record's key and value as the schema registry decodes them.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordDecoding {
    /// The key's decoding.
    pub key: Decoding,
    /// The value's decoding.
    pub value: Decoding,
}

/// Decode a record's key and value (each schema id fetched once per session).
pub async fn decode(decoder: &Decoder, record: &Record) -> RecordDecoding {
    RecordDecoding {
        key: decode_field(decoder, record.key.as_deref()).await,
        value: decode_field(decoder, record.value.as_deref()).await,
    }
}

/// A value without the wire prefix decoded by its topic's mapping, if the
/// config has one (compiled once, on the blocking pool).
async fn mapped(
    args: &ConsumeArgs,
    decoder: Option<&Decoder>,
    record: &Record,
    decoding: Option<RecordDecoding>,
) -> Option<RecordDecoding> {
    let framed = decoding
        .as_ref()
        .is_some_and(|d| !matches!(d.value, Decoding::NotFramed));
    let (Some(value), false) = (record.value.clone(), framed) else {
        return decoding;
    };
    args.mappings.find(&args.topic)?;
    let (mappings, topic) = (args.mappings.clone(), args.topic.clone());
    let client = decoder.map(|d| d.client().clone());
    let value =
        tokio::task::spawn_blocking(move || mappings.decode(&topic, &value, client.as_ref()))
            .await
            .ok()
            .flatten()?;
    Some(RecordDecoding {
        key: decoding.map_or(Decoding::NotFramed, |d| d.key),
        value,
    })
}

async fn decode_field(decoder: &Decoder, bytes: Option<&[u8]>) -> Decoding {
    match bytes {
        Some(bytes) => decoder.decode(bytes).await,
        None => Decoding::NotFramed,
    }
}

impl From<browse::Error> for Error {
    fn from(error: browse::Error) -> Self {
        Error::Browse(error)
    }
}
