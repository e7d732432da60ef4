//! LOSS IN by `retention.bytes` through `kscope describe group` on the
//! shared cluster: a topic limited to 10 MB a partition (and the default 7
//! days by time) that a producer keeps writing, a group that committed and
//! stopped reading. With `--stuck-over` (reads that give the records a
//! second) LOSS IN is the size estimate, far sooner than 7 days; without
//! it, the estimate by time alone.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::time::Duration;

use serde_json::Value;
use support::consumers::Reading;
use support::producers::Steady;

const PARTITIONS: usize = 2;
const WEEK_MS: i64 = 7 * 24 * 3_600_000;

/// `describe group -o json` (with `--stuck-over 4s` when `over`), when it
/// succeeded: its offsets.
fn offsets(env: &support::ClusterEnv, group: &str, over: bool) -> Option<Vec<Value>> {
    let mut args = vec!["describe", "group", group, "-o", "json"];
    if over {
        args.extend(["--stuck-over", "4s"]);
    }
    let output = support::kscope(env, &args);
    if !output.status.success() {
        return None;
    }
    let value: Value = serde_json::from_slice(&output.stdout).ok()?;
    value["offsets"].as_array().cloned()
}

#[test]
fn a_topic_limited_by_size_loses_unread_records_sooner_than_its_retention_ms() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = support::unique("loss-size");
    let group = support::unique("loss-size-group");
    support::create_topic(
        &env,
        &topic,
        &PARTITIONS.to_string(),
        &["--config", "retention.bytes=10000000"],
    );
    let producer = Steady::start(&env, &topic, 50);
    let reading = Reading::start(&env, &topic, &group, "loss-size", false);
    support::wait_until(Duration::from_mins(2), "the group committing", || {
        let rows = offsets(&env, &group, false)?;
        (rows.len() == PARTITIONS && rows.iter().all(|r| r["committed"].as_i64() > Some(0)))
            .then_some(())
    });
    drop(reading);
    // Lag on every partition: the producer goes on, nobody reads.
    let by_time = support::wait_until(Duration::from_mins(1), "lag and a LOSS IN", || {
        let rows = offsets(&env, &group, false)?;
        (rows.len() == PARTITIONS
            && rows
                .iter()
                .all(|r| r["lag"].as_i64() > Some(0) && r["data_loss_in_ms"].is_i64()))
        .then_some(rows)
    });
    for row in &by_time {
        let age = row["oldest_unconsumed_age_ms"].as_i64().expect("an age");
        let loss_in = row["data_loss_in_ms"].as_i64().unwrap();
        assert_eq!(age + loss_in, WEEK_MS, "by time alone: {row}");
    }
    let by_size = offsets(&env, &group, true).expect("describe --stuck-over");
    assert_eq!(by_size.len(), PARTITIONS);
    for row in &by_size {
        let loss_in = row["data_loss_in_ms"].as_i64().expect("a LOSS IN");
        // 10 MB at the producer's few KB a second: hours, not a week.
        assert!(
            loss_in > 0 && loss_in < WEEK_MS / 7,
            "the size estimate comes first: {row}"
        );
    }
    drop(producer);
}
