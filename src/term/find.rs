//! The `:find` scan: reads a topic from a start to its end (not following),
//! keeping no records, until one whose key or value matches, within a
//! budget of records, bytes and time. Progress goes to the run loop about
//! four times a second (dropped, never waited for, when the loop is busy).

use std::time::{Duration, Instant};

use regex::bytes::Regex;
use tokio::sync::mpsc::Sender;
use tokio::task::JoinHandle;

use crate::app::Action;
use crate::app::screens::messages::find::Matcher;
use crate::app::screens::messages::finding::FindEnd;
use crate::browse::jq::JqFilter;
use crate::browse::{Browser, Event, Options};
use crate::meta::Cluster;

use super::browse::{Ask, masked};
use super::msg::Msg;
use crate::schema::record_decoding::decode;

/// Records a scan reads at most.
pub const MAX_RECORDS: u64 = 5_000_000;
/// Bytes a scan reads at most (2 GiB).
pub const MAX_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// How long a scan runs at most.
pub const MAX_TIME: Duration = Duration::from_mins(2);
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Start scan `ask.session` for `pattern` (a valid regex: `update` checked
/// it), or for the jq expression `update` compiled.
pub fn start(
    cluster: Cluster,
    ask: Ask,
    (pattern, jq): (String, Option<JqFilter>),
    tx: Sender<Msg>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let began = Instant::now();
        let id = ask.session;
        let (mut records, mut bytes) = (0u64, 0u64);
        let end = scan(
            cluster,
            ask,
            (&pattern, jq),
            (&mut records, &mut bytes),
            &tx,
            began,
        )
        .await;
        let action = Action::Finding {
            id,
            read: (records, bytes, began.elapsed()),
            end: Some(end),
        };
        let _ = tx.send(Msg::Action(action)).await;
    })
}

async fn scan(
    cluster: Cluster,
    ask: Ask,
    (pattern, jq): (&str, Option<JqFilter>),
    (records, bytes): (&mut u64, &mut u64),
    tx: &Sender<Msg>,
    began: Instant,
) -> FindEnd {
    let matcher = match jq {
        Some(filter) => Matcher::Jq(filter),
        None => match Regex::new(pattern) {
            Ok(re) => Matcher::Regex(re),
            Err(error) => return FindEnd::NotFound(error.to_string()),
        },
    };
    let options = Options {
        isolation: ask.isolation,
        follow: false,
        ..Options::default()
    };
    let mut browser =
        match Browser::open(cluster, &ask.topic, ask.partition, &ask.start, options).await {
            Ok(browser) => browser,
            Err(error) => return FindEnd::NotFound(error.to_string()),
        };
    let rules = ask.mask.for_topic(&ask.topic);
    let mut reported = Instant::now();
    while !browser.finished() {
        let events = match browser.next_events().await {
            Ok(events) => events,
            Err(error) => return FindEnd::NotFound(error.to_string()),
        };
        for event in events {
            let Event::Record(mut record) = event else {
                continue;
            };
            *records += 1;
            *bytes += record.size as u64;
            // What is masked on screen cannot be found either; a jq
            // expression looks at registry-framed values decoded.
            let decoding = match (&rules, &ask.registry) {
                (Some(rules), registry) => masked(rules, registry.as_ref(), &mut record).await,
                (None, Some(registry)) if matcher.is_jq() => Some(decode(registry, &record).await),
                (None, _) => None,
            };
            if matcher.matches_decoded(&ask.topic, &record, decoding.as_ref()) {
                return FindEnd::Found(record.detached());
            }
        }
        if *records >= MAX_RECORDS || *bytes >= MAX_BYTES || began.elapsed() >= MAX_TIME {
            return FindEnd::NotFound(format!(
                "the budget ({MAX_RECORDS} records, 2 GiB, {} s) is spent",
                MAX_TIME.as_secs()
            ));
        }
        if reported.elapsed() >= PROGRESS_EVERY {
            reported = Instant::now();
            let action = Action::Finding {
                id: ask.session,
                read: (*records, *bytes, began.elapsed()),
                end: None,
            };
            let _ = tx.try_send(Msg::Action(action));
        }
    }
    FindEnd::NotFound("the end of the topic was reached".to_owned())
}
