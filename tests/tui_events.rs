//! The events timeline (`:events`) and the header's recent-events count,
//! through `update` and a `TestBackend` render — no terminal, no cluster.
//! Every kind of the model shows (the Leaders screen shows only leader
//! movement), `/` narrows by kind, subject, severity or source, and Enter
//! opens the subject's screen on the subject's row.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::duration_suboptimal_units
)] // epoch seconds read as such

use std::time::{Duration, UNIX_EPOCH};

use kscope::app::{Action, AppState, Code, Screen, update};
use kscope::meta::{MetadataSnapshot, MovementEvent, MovementKind};

mod screens_fixture;

use screens_fixture::{cluster, event, keys, press, render, state};

fn timeline() -> Vec<MovementEvent> {
    vec![
        event(
            "payments",
            1,
            MovementKind::LeaderChanged {
                from: 1,
                to: 2,
                epoch: 3,
            },
            5,
        ),
        MovementEvent {
            time: UNIX_EPOCH + Duration::from_secs(1_800_000_006),
            topic: Some("orders".to_owned()),
            partition: None,
            kind: MovementKind::PartitionsAdded { from: 2, to: 3 },
        },
        MovementEvent {
            time: UNIX_EPOCH + Duration::from_secs(1_800_000_007),
            topic: None,
            partition: None,
            kind: MovementKind::BrokerNotAnswering { broker: 1 },
        },
        MovementEvent {
            time: UNIX_EPOCH + Duration::from_secs(1_800_000_008),
            topic: None,
            partition: None,
            kind: MovementKind::QuorumLeaderChanged {
                from: Some(1),
                to: 2,
                epoch: 9,
            },
        },
    ]
}

/// A state at `width` with the timeline delivered and the wall clock a
/// minute after it.
fn with_events(snap: &MetadataSnapshot, width: u16) -> AppState {
    let mut s = state(snap, width, 16);
    let wall = UNIX_EPOCH + Duration::from_secs(1_800_000_060);
    let now = s.now;
    update(&mut s, Action::Tick { now, wall }, snap);
    update(&mut s, Action::Movements(timeline()), snap);
    s
}

fn open_events(s: &mut AppState, snap: &MetadataSnapshot) {
    keys(s, snap, ":events");
    press(s, snap, Code::Enter);
    assert_eq!(s.view().screen, Screen::events());
}

#[test]
fn every_kind_is_on_the_timeline_newest_first_with_severity_and_source() {
    let snap = cluster();
    let mut s = with_events(&snap, 150);
    open_events(&mut s, &snap);
    let screen = render(&s, &snap);
    let rows: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("SEVERITY"))
        .skip(1)
        .take_while(|l| l.chars().any(char::is_alphanumeric))
        .collect();
    assert_eq!(rows.len(), 4, "{screen}");
    assert!(
        rows[0].contains("quorum_leader_changed") && rows[0].contains("cluster"),
        "{screen}"
    );
    assert!(
        rows[1].contains("critical")
            && rows[1].contains("broker_not_answering")
            && rows[1].contains("broker 1")
            && rows[1].contains("observed"),
        "{screen}"
    );
    assert!(
        rows[2].contains("partitions_added") && rows[2].contains("orders"),
        "{screen}"
    );
    assert!(
        rows[3].contains("payments-1") && rows[3].contains("reported"),
        "{screen}"
    );
    // The Leaders screen keeps to leader movement.
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, ":leaders");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(
        s.view().rows.len(),
        2,
        "leader_changed and broker_not_answering"
    );
}

#[test]
fn the_header_counts_the_last_five_minutes_by_severity() {
    let snap = cluster();
    let mut s = with_events(&snap, 150);
    let screen = render(&s, &snap);
    assert!(
        screen.contains("events 5m: 1 critical · 3 info (:events)"),
        "{screen}"
    );
    // Ten minutes on, they have aged out of the count.
    let now = s.now;
    let wall = UNIX_EPOCH + Duration::from_secs(1_800_000_700);
    update(&mut s, Action::Tick { now, wall }, &snap);
    assert!(!render(&s, &snap).contains("events 5m"));
}

#[test]
fn slash_narrows_by_severity_and_enter_opens_the_subject_on_its_row() {
    let snap = cluster();
    let mut s = with_events(&snap, 150);
    open_events(&mut s, &snap);
    keys(&mut s, &snap, "/critical");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().rows.len(), 1);
    // A broker's event: the Brokers screen, on that broker.
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().screen, Screen::brokers());
    let broker = s
        .screens
        .brokers
        .broker(s.view().rows[s.view().selected])
        .expect("a broker row");
    assert_eq!(broker.info().node_id, 1);
    // A partition's event: its topic's Partitions screen, on it.
    press(&mut s, &snap, Code::Esc);
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, "/payments");
    press(&mut s, &snap, Code::Enter);
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().screen, Screen::partitions("payments"));
    let index = s.view().rows[s.view().selected];
    assert_eq!(
        snap.topic("payments").unwrap().partitions[index].partition,
        1
    );
}

#[test]
fn a_subjects_screen_shows_its_newest_events_in_a_strip_under_the_table() {
    let snap = cluster();
    let mut s = with_events(&snap, 150);
    let full_page = {
        keys(&mut s, &snap, ":brokers");
        press(&mut s, &snap, Code::Enter);
        s.page()
    };
    let screen = render(&s, &snap);
    assert!(
        screen.contains("recent events (newest first"),
        "the Brokers screen's strip:\n{screen}"
    );
    // Its events: the broker's and the quorum's, not the partitions'.
    assert!(screen.contains("quorum_leader_changed"), "{screen}");
    assert!(screen.contains("broker_not_answering"), "{screen}");
    assert!(!screen.contains("partitions_added"), "{screen}");

    // The Partitions screen of a topic without events has no strip, and a
    // page two rows longer than the Brokers screen with its two events.
    keys(&mut s, &snap, ":topics");
    press(&mut s, &snap, Code::Enter);
    keys(&mut s, &snap, "/lost");
    press(&mut s, &snap, Code::Enter);
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().screen, Screen::partitions("lost"));
    assert!(!render(&s, &snap).contains("recent events"));
    assert_eq!(
        s.page(),
        full_page + 3,
        "the strip's rows are the table's again"
    );

    // A topic with an event shows it.
    press(&mut s, &snap, Code::Esc);
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, "/payments");
    press(&mut s, &snap, Code::Enter);
    press(&mut s, &snap, Code::Enter);
    let screen = render(&s, &snap);
    assert!(
        screen.contains("leader_changed") && screen.contains("payments-1"),
        "{screen}"
    );
}
