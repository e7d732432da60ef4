//! `broker_fenced` and `broker_unfenced` in `kscope watch events -o json`, on
//! a throwaway 3-node `KRaft` cluster of its own (Kafka 4.x: `DescribeCluster`
//! v2 lists fenced brokers): a `SIGKILL`ed broker is fenced once its session
//! times out (`broker.session.timeout.ms` is 6 s in the cluster script), and
//! unfenced once restarted and caught up. Each said once.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::watch::Watch;

/// The throwaway cluster's first port (this branch's own range).
const PORT_BASE: u16 = 25992;
/// The session timeout (6 s), then the next liveness check (every 3 s),
/// with room for a loaded machine.
const FENCED_WITHIN: Duration = Duration::from_mins(1);
/// A restarted broker's JVM start, log recovery and catching up.
const UNFENCED_WITHIN: Duration = Duration::from_mins(2);

fn of<'a>(seen: &'a [Value], kind: &str, broker: i64) -> Vec<&'a Value> {
    seen.iter()
        .filter(|e| e["kind"] == kind && e["broker"] == broker)
        .collect()
}

#[test]
fn a_killed_broker_is_fenced_and_unfenced_once_restarted() {
    let Some(cluster) = support::ThrowawayCluster::start("i28-fence", 3, PORT_BASE, false) else {
        return;
    };
    let env = cluster.env();
    let kinds = "broker_fenced,broker_unfenced,broker_left,broker_joined";
    let mut watch = Watch::spawn(
        env.bootstrap(),
        &["--kinds", kinds, "--group-interval", "0", "--interval", "1"],
    );
    // The first liveness check (3 s after connecting) is the baseline.
    std::thread::sleep(Duration::from_secs(8));

    let killed = Instant::now();
    env.script(&["kill", "3"]);
    watch.until_within(FENCED_WITHIN, "broker_fenced for broker 3", |seen| {
        !of(seen, "broker_fenced", 3).is_empty()
    });
    let fenced_after = killed.elapsed();
    let event = of(&watch.seen, "broker_fenced", 3)[0].clone();
    assert_eq!(
        (&event["severity"], &event["source"], &event["topic"]),
        (&json!("warn"), &json!("reported"), &Value::Null)
    );
    assert_eq!(
        (&event["before"], &event["after"]),
        (&json!("unfenced"), &json!("fenced"))
    );
    assert!(
        fenced_after >= Duration::from_secs(5),
        "fenced after the session timeout, not guessed at once: {fenced_after:?}"
    );

    eprintln!("broker_fenced {fenced_after:?} after the kill");
    let restarted = Instant::now();
    env.script(&["restart", "3"]);
    watch.until_within(UNFENCED_WITHIN, "broker_unfenced for broker 3", |seen| {
        !of(seen, "broker_unfenced", 3).is_empty()
    });
    eprintln!(
        "broker_unfenced {:?} after the restart",
        restarted.elapsed()
    );
    watch.settle(Duration::from_secs(7));
    assert_eq!(
        of(&watch.seen, "broker_fenced", 3).len(),
        1,
        "{:#?}",
        watch.seen
    );
    assert_eq!(
        of(&watch.seen, "broker_unfenced", 3).len(),
        1,
        "{:#?}",
        watch.seen
    );
    for other in [1, 2] {
        assert!(
            of(&watch.seen, "broker_fenced", other).is_empty(),
            "broker {other} was never fenced: {:#?}",
            watch.seen
        );
    }
    let fenced_at = watch
        .seen
        .iter()
        .position(|e| e["kind"] == "broker_fenced")
        .unwrap();
    let unfenced_at = watch
        .seen
        .iter()
        .position(|e| e["kind"] == "broker_unfenced")
        .unwrap();
    assert!(fenced_at < unfenced_at, "{:#?}", watch.seen);
}
