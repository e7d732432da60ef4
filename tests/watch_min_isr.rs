//! `under_min_isr` and `min_isr_restored` in `kscope watch events -o json`,
//! on a throwaway 3-node cluster of its own: a topic of replication 3 with
//! `min.insync.replicas=3` goes under when a broker is killed (every
//! partition, once) and is back when the broker is restarted.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Value, json};
use support::watch::Watch;

/// The throwaway cluster's first port (this branch's own range).
const PORT_BASE: u16 = 24792;
const PARTITIONS: usize = 3;

/// The records of `kind` on `topic`, by partition.
fn by_partition<'a>(seen: &'a [Value], kind: &str, topic: &str) -> BTreeMap<i64, Vec<&'a Value>> {
    let mut out: BTreeMap<i64, Vec<&Value>> = BTreeMap::new();
    for event in seen
        .iter()
        .filter(|e| e["kind"] == kind && e["topic"] == topic)
    {
        out.entry(event["partition"].as_i64().expect("a partition"))
            .or_default()
            .push(event);
    }
    out
}

#[test]
fn a_killed_broker_puts_a_min_isr_3_topic_under_and_its_restart_brings_it_back() {
    let Some(cluster) = support::ThrowawayCluster::start("h28-minisr", 3, PORT_BASE, false) else {
        return;
    };
    let env = cluster.env();
    let topic = "min-isr-3";
    support::create_topic(env, topic, "3", &["--config", "min.insync.replicas=3"]);
    // Group events off: only what the metadata and the configs say.
    let mut watch = Watch::start(env.bootstrap(), "^$", "0");
    // The first configs read is the baseline; stderr says when it is done.
    let note = watch.note("configs of");
    assert!(!note.contains(" 0 topic(s)"), "{note}");

    let victim = "3";
    env.script(&["kill", victim]);
    watch.until("under_min_isr on every partition", |seen| {
        by_partition(seen, "under_min_isr", topic).len() == PARTITIONS
    });
    for (partition, events) in by_partition(&watch.seen, "under_min_isr", topic) {
        assert_eq!(events.len(), 1, "partition {partition} said once");
        let event = events[0];
        assert_eq!(
            (&event["severity"], &event["source"]),
            (&json!("critical"), &json!("reported"))
        );
        assert_eq!(event["min_isr"], 3, "{event}");
        let isr = event["isr"].as_array().expect("the ISR");
        assert_eq!(isr.len(), 2, "{event}");
        assert!(!isr.contains(&json!(3)), "{event}");
        assert_eq!(&event["after"], &event["isr"]);
    }

    env.script(&["restart", victim]);
    watch.until("min_isr_restored on every partition", |seen| {
        by_partition(seen, "min_isr_restored", topic).len() == PARTITIONS
    });
    watch.settle(Duration::from_secs(5));
    for (partition, events) in by_partition(&watch.seen, "min_isr_restored", topic) {
        assert_eq!(events.len(), 1, "partition {partition} said once");
        assert_eq!(events[0]["severity"], "info");
        assert_eq!(events[0]["isr"].as_array().map(Vec::len), Some(3));
    }
    assert!(
        by_partition(&watch.seen, "under_min_isr", topic)
            .values()
            .all(|e| e.len() == 1),
        "under once each: {:#?}",
        watch.seen
    );
}
