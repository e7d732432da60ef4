//! What `consume` does with each record it reads: decode it (schemas, topic
//! mappings), mask it, filter it (`--filter`, `--grep` after masking) and
//! print it or what `--project` yields ([`Output`]), as [`ConsumeArgs`]
//! say. A file of its own, below the run (`consume`) and the newest-first
//! key search (`consume_newest`) that both hand records here, so that no
//! two of them import each other.

use std::io::Write;

use regex::bytes::Regex;

use crate::browse::jq::{self, JqFilter};
use crate::browse::json::{Field, RecordJson};
use crate::browse::mask::Masker;
use crate::browse::{self, Isolation, Record};
use crate::schema::{Decoder, Decoding};

use super::args::OutputFormat;
use super::consume_key::KeyArg;
use super::consume_output::{Printer, RecordDecoding, field};
pub use super::consume_owner::Owner;
use super::error::Error;
use crate::schema::record_decoding::decode;

/// What `consume` was asked for.
#[derive(Debug, Clone)]
pub struct ConsumeArgs {
    pub topic: String,
    /// The topic's name as printed: its pseudonym under `--anonymize`.
    pub shown_topic: String,
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
    /// `--group` (`__consumer_offsets`, `__share_group_state`) or
    /// `--transactional-id` (`__transaction_state`): only its records, from
    /// its partition.
    pub owner: Option<Owner>,
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

    pub(super) fn active(&self) -> bool {
        self.filter.is_some() || self.project.is_some()
    }
}

/// What `--filter` and `--project` made of one record.
enum Jq {
    /// The filter passed it and there is nothing to project: print it.
    Passed,
    /// The filter did not pass it.
    Dropped,
    /// The filter failed on it.
    Failed(String),
    /// The projection's lines, and the error that ended it early.
    Projected(Vec<u8>, Option<String>),
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

impl<'a> Output<'a> {
    /// An output in `format`, decoding with `decoder`; `grep_masked` is
    /// `--grep` when it must match after masking.
    pub fn new(
        decoder: Option<&'a Decoder>,
        format: OutputFormat,
        grep_masked: Option<Regex>,
    ) -> Output<'a> {
        Output {
            decoder,
            format,
            printer: Printer::default(),
            failures: JqFailures::default(),
            grep_masked,
        }
    }

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
                let (key, value) = decoding
                    .as_mut()
                    .map_or((None, None), RecordDecoding::json_mut);
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
                ..RecordJson::plain(&args.shown_topic, record)
            };
            let ran = jq::with_record_val(&json, |input| {
                if let Some(filter) = &args.jq.filter {
                    match filter.passes(input.clone()) {
                        Ok(true) => {}
                        Ok(false) => return Jq::Dropped,
                        Err(error) => return Jq::Failed(error),
                    }
                }
                match &args.jq.project {
                    Some(project) => {
                        let mut line = Vec::new();
                        let ran = project.each(input, |value| {
                            jq::write(value, &mut line);
                            line.push(b'\n');
                        });
                        Jq::Projected(line, ran.err())
                    }
                    None => Jq::Passed,
                }
            });
            match ran {
                Jq::Passed => {}
                Jq::Dropped => return Ok(false),
                Jq::Failed(error) => {
                    self.failed(record, &error);
                    return Ok(false);
                }
                Jq::Projected(line, error) => {
                    out.write_all(&line)?;
                    if let Some(error) = error {
                        self.failed(record, &error);
                    }
                    return Ok(true);
                }
            }
        }
        self.printer.write(
            &args.shown_topic,
            record,
            decoding.as_ref(),
            self.format,
            out,
        )?;
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

/// Whether `--grep`'s `re` matches the record's key or value.
pub(super) fn matches(re: &Regex, record: &Record) -> bool {
    record.key.as_ref().is_some_and(|k| re.is_match(k))
        || record.value.as_ref().is_some_and(|v| re.is_match(v))
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
