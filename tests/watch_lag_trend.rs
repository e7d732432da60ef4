//! `group_lag_trend_changed` in `kscope watch events -o json` on the real
//! cluster: a consumer keeping up with a steady producer is said nothing;
//! frozen (`SIGSTOP`: it neither reads nor commits) while the producer
//! goes on, its lag grows at every read and the watch says `steady` (or
//! `shrinking`) → `growing`; let go again, it drains its lag and the watch
//! says `growing` → not growing.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::consumers::Reading;
use support::producers::Steady;
use support::watch::Watch;

/// The group's lag as `kscope get groups` has it.
fn lag(env: &support::ClusterEnv, group: &str) -> Option<i64> {
    let output = support::kscope(env, &["get", "groups", "-o", "json"]);
    let rows: Value = serde_json::from_slice(&output.stdout).ok()?;
    rows.as_array()?.iter().find(|r| r["group"] == group)?["lag"].as_i64()
}

fn trend<'a>(seen: &'a [Value], group: &str) -> Vec<&'a Value> {
    seen.iter()
        .filter(|e| e["kind"] == "group_lag_trend_changed" && e["group"] == group)
        .collect()
}

#[test]
fn a_consumer_that_stops_while_records_arrive_turns_its_lag_trend_to_growing_and_back() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("lag-trend");
    let group = support::unique("trending");
    support::create_topic(&env, &topic, "3", &[]);
    let _producer = Steady::start(&env, &topic, 200);
    let consumer = Reading::start_with(
        &env,
        &topic,
        &group,
        "trend",
        &["auto.commit.interval.ms=200"],
    );
    // Keeping up: a small lag, read twice.
    for _ in 0..2 {
        support::wait_until(Duration::from_mins(2), "the consumer keeping up", || {
            lag(&env, &group).filter(|l| *l < 100).map(|_| ())
        });
    }

    let mut watch = Watch::spawn(
        env.bootstrap(),
        &[
            "--kinds",
            "group_lag_trend_changed",
            "--groups",
            &format!("^{group}$"),
            "--group-interval",
            "1",
            &topic,
        ],
    );
    watch.baseline();
    // A baseline window of reads while it keeps up: nothing to say.
    watch.settle(Duration::from_secs(8));
    assert!(trend(&watch.seen, &group).is_empty(), "{:#?}", watch.seen);

    consumer.pause();
    watch.until("the lag growing", |seen| {
        trend(seen, &group).iter().any(|e| e["to"] == "growing")
    });
    let growing = trend(&watch.seen, &group)[0].clone();
    assert_eq!(growing["to"], "growing", "{growing}");
    assert_ne!(growing["from"], "growing", "{growing}");
    assert_eq!(
        (&growing["before"], &growing["after"]),
        (&growing["from"], &json!("growing"))
    );
    assert_eq!(
        (&growing["severity"], &growing["source"], &growing["topic"]),
        (&json!("warn"), &json!("observed"), &json!(topic.as_str()))
    );
    assert_eq!(growing["partition"], Value::Null);
    assert!(
        growing["rate_after"].as_i64().is_some_and(|r| r > 0),
        "{growing}"
    );
    assert!(
        growing["lag"].as_i64().is_some_and(|l| l >= 100),
        "{growing}"
    );

    consumer.resume();
    watch.until("the growth ending", |seen| {
        trend(seen, &group).iter().any(|e| e["from"] == "growing")
    });
    let ended = trend(&watch.seen, &group)
        .into_iter()
        .find(|e| e["from"] == "growing")
        .expect("an end")
        .clone();
    assert_ne!(ended["to"], "growing", "{ended}");
    assert_eq!(ended["severity"], "info", "{ended}");
    // The window's rate, first read to last: a consumer let go right after
    // growth was said drains within a read, so the window can span the
    // whole pause and end where it began (a small rate of either sign);
    // it is below the growth said either way.
    let (before, after) = (
        ended["rate_before"].as_i64().expect("rate_before"),
        ended["rate_after"].as_i64().expect("rate_after"),
    );
    assert!(after < before, "{ended}");
}
