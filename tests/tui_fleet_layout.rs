//! The fleet screen's table at 160 and 120 columns (`TestBackend` +
//! insta), no cluster: a refused context that never answered says why
//! across its metric columns, a failed one with numbers kept from before
//! keeps them and its ERROR column is given the reason's words before
//! WORST LAG's group name, and a context whose `password_command` needs a
//! terminal says how to log in.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use kscope::app::{Action, AppState, Code, update};
use kscope::fleet::{FleetRow, Health};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

const REFUSED: &str =
    "connection refused: connecting to 127.0.0.1:1: Connection refused (os error 111)";

/// A healthy context whose worst group lags by a long name.
fn healthy(name: &str, now: std::time::Instant) -> FleetRow {
    let mut row = FleetRow::pending(name);
    row.brokers_answering = Some(3);
    row.brokers_registered = Some(3);
    row.controller_id = Some(1);
    row.metadata_mode = Some("kraft");
    row.kafka_version = Some("4.1".to_owned());
    row.metadata_version = Some("4.1-IV1".to_owned());
    row.topics = Some(12);
    row.partitions = Some(480);
    row.under_replicated = Some(0);
    row.offline = Some(0);
    row.under_min_isr = Some(0);
    row.min_isr_topics_checked = 12;
    row.groups = Some(7);
    row.worst_lag = Some(500);
    row.worst_lag_group = Some("payments-settlement-reconciliation-consumer".to_owned());
    row.worst_lag_time_ms = Some(754_000);
    row.worst_lag_time_group = row.worst_lag_group.clone();
    row.lag_groups_checked = 7;
    row.events_5m = Some(2);
    row.judge();
    row.polled_at = now.checked_sub(Duration::from_secs(4));
    row
}

/// A context that failed: without numbers when it never answered.
fn failed(name: &str, health: Health, error: &str, numbers: Option<FleetRow>) -> FleetRow {
    let mut row = numbers.unwrap_or_else(|| FleetRow::pending(name));
    name.clone_into(&mut row.context);
    row.health = health;
    row.error = Some(error.to_owned());
    row.failures = 2;
    row.retry_in_ms = (health == Health::Unreachable).then_some(8_000);
    row
}

fn fleet(width: u16, stale: bool) -> (AppState, MetadataSnapshot) {
    let snap = cluster();
    let mut s = state(&snap, width, 14);
    let now = s.now;
    let mut rows = vec![
        failed("gone", Health::Unreachable, REFUSED, None),
        failed(
            "vault",
            Health::NeedsLogin,
            "needs login: its password_command needs a terminal; open the context once to log in",
            None,
        ),
        healthy("alpha", now),
        healthy("beta", now),
    ];
    if stale {
        rows.push(failed(
            "dropped",
            Health::Unreachable,
            REFUSED,
            Some(healthy("dropped", now)),
        ));
    }
    rows.sort_by(kscope::fleet::by_severity);
    keys(&mut s, &snap, ":fleet");
    press(&mut s, &snap, Code::Enter);
    let publication = kscope::app::screens::Msg::Fleet(Arc::from(rows));
    update(&mut s, Action::Screen(publication), &snap);
    (s, snap)
}

#[test]
fn an_unreachable_rows_reason_is_shown_whole_at_160_and_120_columns() {
    for width in [160, 120] {
        let (s, snap) = fleet(width, false);
        let screen = render(&s, &snap);
        let line = |name: &str| {
            screen
                .lines()
                .find(|l| l.starts_with(&format!("\"{name} ")))
                .unwrap_or_else(|| panic!("no row for {name}:\n{screen}"))
                .to_owned()
        };
        assert!(
            line("gone").contains("connection refused: connecting to 127.0.0.1:1"),
            "{width} columns:\n{screen}"
        );
        assert!(
            line("vault").contains("needs login — open it once (Enter)"),
            "{width} columns:\n{screen}"
        );
        insta::assert_snapshot!(format!("fleet_unreachable_{width}"), screen);
    }
}

#[test]
fn a_failed_row_with_old_numbers_keeps_them_and_its_reason_wins_over_the_lag_group() {
    let (s, snap) = fleet(160, true);
    let screen = render(&s, &snap);
    let dropped = screen
        .lines()
        .find(|l| l.starts_with("\"dropped "))
        .unwrap_or_else(|| panic!("no dropped row:\n{screen}"));
    assert!(dropped.contains("480"), "numbers kept:\n{screen}");
    assert!(dropped.contains("connection refused"), "{screen}");
    insta::assert_snapshot!("fleet_stale_unreachable_160", screen);
}
