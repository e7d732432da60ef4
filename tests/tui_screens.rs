//! Whole-screen snapshots (`TestBackend` + insta), narrow and wide, per screen,
//! and `update` tests per screen — no terminal, no cluster.

use std::time::{Duration, SystemTime};

use kscope::app::failure::{Failure, Kind};
use kscope::app::{Action, AppState, Code, Effect, Keymap, Link, Mode, Screen, update};
use kscope::meta::{MetadataSnapshot, MovementKind, TopicPartition, Watermarks};

mod screens_fixture;

use screens_fixture::{cluster, event, keys, press, render, state};

fn both_widths(name: &str, setup: impl Fn(&mut AppState, &MetadataSnapshot)) {
    let snap = cluster();
    for (label, width, height) in [("narrow", 80, 16), ("wide", 150, 16)] {
        let mut s = state(&snap, width, height);
        setup(&mut s, &snap);
        insta::assert_snapshot!(format!("{name}_{label}"), render(&s, &snap));
    }
}

#[test]
fn topics_screen() {
    both_widths("topics", |s, snap| {
        let request = s
            .cluster
            .watermarks
            .in_flight
            .expect("watermarks asked for the visible topics");
        let answer = (0..3)
            .map(|p| {
                (
                    TopicPartition::new("orders", p),
                    Watermarks { low: 10, high: 110 },
                )
            })
            .collect();
        update(
            s,
            Action::Watermarks {
                request,
                result: Ok(answer),
            },
            snap,
        );
    });
}

#[test]
fn partitions_screen() {
    both_widths("partitions", |s, snap| {
        update(
            s,
            Action::Movements(vec![event(
                "payments",
                0,
                MovementKind::LeaderChanged {
                    from: 1,
                    to: 2,
                    epoch: 3,
                },
                5,
            )]),
            snap,
        );
        keys(s, snap, "/pay");
        press(s, snap, Code::Enter);
        press(s, snap, Code::Enter);
    });
}

#[test]
fn brokers_screen() {
    both_widths("brokers", |s, snap| {
        keys(s, snap, ":brokers");
        press(s, snap, Code::Enter);
    });
}

#[test]
fn leaders_screen() {
    both_widths("leaders", |s, snap| {
        let events = vec![
            event(
                "payments",
                0,
                MovementKind::LeaderChanged {
                    from: 1,
                    to: 2,
                    epoch: 3,
                },
                5,
            ),
            event(
                "payments",
                1,
                MovementKind::IsrShrank {
                    isr: vec![2, 3],
                    removed: vec![1],
                },
                6,
            ),
            event(
                "lost",
                0,
                MovementKind::PartitionOffline { from: 1, epoch: 4 },
                7,
            ),
        ];
        update(s, Action::Movements(events), snap);
        keys(s, snap, ":leaders");
        press(s, snap, Code::Enter);
    });
}

#[test]
fn help_overlay() {
    both_widths("help", |s, snap| {
        keys(s, snap, "?");
    });
}

#[test]
fn connecting_screen_says_what_was_tried() {
    let snap = MetadataSnapshot::empty();
    let mut s = AppState::new(
        "prod",
        vec!["10.0.0.1:9092".to_owned(), "10.0.0.2:9092".to_owned()],
        Keymap::default(),
    );
    update(
        &mut s,
        Action::Resize {
            width: 80,
            height: 12,
        },
        &snap,
    );
    update(
        &mut s,
        Action::ConnectFailed {
            attempt: 2,
            error: Failure::new(Kind::Transient, "connection refused"),
        },
        &snap,
    );
    let screen = render(&s, &snap);
    assert!(
        screen.contains("tried: 10.0.0.1:9092, 10.0.0.2:9092"),
        "{screen}"
    );
    assert!(
        screen.contains("failed (attempt 2): connection refused"),
        "{screen}"
    );
    assert!(screen.contains("retrying in the background"), "{screen}");
    assert!(
        screen.contains("not connected") && !screen.contains("brokers: 0/0"),
        "no made-up cluster numbers before there is a cluster:\n{screen}"
    );

    // Wrong credentials: the worker gives up; the whole error is shown
    // (wrapped, not cut at the border) with what to do; `r` tries again.
    let denied = "sasl SCRAM-SHA-512 authentication with broker 10.0.0.1:9092 failed: \
                  Authentication failed during authentication due to invalid credentials";
    update(
        &mut s,
        Action::Resize {
            width: 80,
            height: 16,
        },
        &snap,
    );
    update(
        &mut s,
        Action::ConnectFailed {
            attempt: 1,
            error: Failure::new(Kind::Final, denied),
        },
        &snap,
    );
    let screen = render(&s, &snap);
    assert!(
        screen.contains("│invalid credentials "),
        "wrapped:\n{screen}"
    );
    assert!(screen.contains("│not retrying"), "{screen}");
    assert!(screen.contains("r tries again"), "{screen}");
    assert_eq!(keys(&mut s, &snap, "r"), vec![Effect::Refresh]);
    assert!(
        matches!(s.link, Link::Connecting { retrying: true, .. }),
        "{:?}",
        s.link
    );
    assert_eq!(keys(&mut s, &snap, "q"), vec![Effect::Quit]);
}

#[test]
fn topics_filter_sort_and_internal() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    let names = |s: &AppState| -> Vec<String> {
        s.view()
            .rows
            .iter()
            .map(|&i| snap.topics()[i].name.clone())
            .collect()
    };
    assert_eq!(names(&s), ["lost", "orders", "payments"]);
    keys(&mut s, &snap, "i");
    assert_eq!(names(&s).len(), 4);
    keys(&mut s, &snap, "i/ordr");
    assert_eq!(names(&s), ["orders"]);
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, "/!~^p");
    assert_eq!(names(&s), ["lost", "orders"]);
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.mode, Mode::Normal);
    press(&mut s, &snap, Code::Esc);
    assert!(s.view().filter.is_none());
    keys(&mut s, &snap, "sS");
    assert_eq!(
        names(&s),
        ["orders", "payments", "lost"],
        "partitions, descending"
    );
}

#[test]
fn navigation_keeps_the_selection_and_watches_the_topic() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    keys(&mut s, &snap, "j");
    assert_eq!(s.view().selected, 1);
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().screen, Screen::partitions("orders"));
    assert!(effects.contains(&Effect::WatchTopics(vec!["orders".to_owned()])));
    assert!(
        effects.iter().any(
            |e| matches!(e, Effect::FetchWatermarks { partitions, .. } if partitions.len() == 3)
        )
    );
    keys(&mut s, &snap, "G");
    assert_eq!(s.view().selected, 2);
    let effects = press(&mut s, &snap, Code::Esc);
    assert!(effects.contains(&Effect::WatchTopics(Vec::new())));
    assert_eq!(s.view().screen, Screen::topics());
    assert_eq!(s.view().selected, 1, "selection kept");
    press(&mut s, &snap, Code::Esc);
    assert_eq!(s.stack.len(), 1, "the last view stays");
}

#[test]
fn command_line_completes_and_switches_context() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    s.contexts = vec!["local".to_owned(), "prod".to_owned()];
    keys(&mut s, &snap, ":ct");
    press(&mut s, &snap, Code::Tab);
    keys(&mut s, &snap, "p");
    press(&mut s, &snap, Code::Tab);
    assert_eq!(s.mode, Mode::Command("ctx prod".to_owned()));
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(effects, vec![Effect::SwitchContext("prod".to_owned())]);
    keys(&mut s, &snap, ":nope");
    press(&mut s, &snap, Code::Enter);
    assert!(
        s.notice
            .as_deref()
            .is_some_and(|n| n.contains("unknown command 'nope'"))
    );
    keys(&mut s, &snap, ":q");
    assert_eq!(press(&mut s, &snap, Code::Enter), vec![Effect::Quit]);
}

#[test]
fn leaders_filter_by_broker_from_the_brokers_screen_and_counts_kinds() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    let events = vec![
        event(
            "payments",
            0,
            MovementKind::LeaderChanged {
                from: 1,
                to: 2,
                epoch: 3,
            },
            5,
        ),
        event(
            "orders",
            1,
            MovementKind::LeaderChanged {
                from: 3,
                to: 2,
                epoch: 3,
            },
            6,
        ),
    ];
    update(&mut s, Action::Movements(events), &snap);
    keys(&mut s, &snap, ":leaders");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().kinds.get("leader_changed"), Some(&2));
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, ":b");
    press(&mut s, &snap, Code::Enter);
    press(&mut s, &snap, Code::Enter); // broker 1
    assert_eq!(s.view().screen, Screen::leaders());
    assert_eq!(s.view().rows.len(), 1, "only broker 1's event");
    assert_eq!(
        s.view().kinds.get("leader_changed"),
        Some(&1),
        "the title counts what the filter lets through"
    );
    assert!(s.recently_moved("payments", 0));
    let later = s.now + Duration::from_mins(1);
    update(
        &mut s,
        Action::Tick {
            now: later,
            wall: SystemTime::now(),
        },
        &snap,
    );
    assert!(!s.recently_moved("payments", 0));
}

#[test]
fn stale_watermark_answers_are_dropped() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    let request = s.cluster.watermarks.in_flight.expect("asked");
    let answer = vec![(
        TopicPartition::new("lost", 0),
        Watermarks { low: 0, high: 5 },
    )];
    update(
        &mut s,
        Action::Watermarks {
            request: request + 7,
            result: Ok(answer.clone()),
        },
        &snap,
    );
    assert!(s.cluster.watermarks.topic_totals.is_empty());
    update(
        &mut s,
        Action::Watermarks {
            request,
            result: Ok(answer),
        },
        &snap,
    );
    assert_eq!(s.cluster.watermarks.topic_totals.get("lost"), Some(&5));
}

/// The header keeps the cluster's claim (brokers registered) apart from
/// kscope's own view (brokers answering it): never "2/2 up" while kscope
/// cannot reach one of them, and the silent broker named before the counts
/// a narrow terminal may cut.
#[test]
fn header_tells_brokers_registered_from_brokers_answering() {
    let snap = cluster();
    let mut s = state(&snap, 80, 16);
    let header = |s: &AppState| {
        render(s, &snap)
            .lines()
            .find(|l| l.contains("brokers: "))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        header(&s).contains("brokers: 2 registered "),
        "no liveness check yet: only the claim\n{}",
        header(&s)
    );
    let mut health = kscope::meta::Health::default();
    health.not_answering.insert(1, SystemTime::UNIX_EPOCH);
    update(
        &mut s,
        Action::Health(Some(std::sync::Arc::new(health))),
        &snap,
    );
    let line = header(&s);
    assert!(
        line.starts_with("\"brokers: 2 registered, 1 answering   ")
            && line.contains("NOT ANSWERING: broker 1"),
        "{line}"
    );
    assert!(!line.contains(" up "), "{line}");
    update(
        &mut s,
        Action::Health(Some(std::sync::Arc::new(kscope::meta::Health::default()))),
        &snap,
    );
    assert!(
        header(&s).contains("brokers: 2 registered, 2 answering"),
        "{}",
        header(&s)
    );
}

/// The watermarks of the visible rows are re-read every 3 s while they
/// change; on an idle cluster each unchanged answer stretches the interval
/// by 3 s up to 15 s, and the first change brings it back to 3 s.
#[test]
fn idle_watermarks_are_read_less_often_and_a_change_restores_the_pace() {
    let snap = cluster();
    let mut s = state(&snap, 150, 16);
    let mut high = 110;
    let answer = |s: &mut AppState, high: i64| {
        let request = s.cluster.watermarks.in_flight.expect("a request in flight");
        let partitions: Vec<(TopicPartition, Watermarks)> = s
            .cluster
            .watermarks
            .last_asked
            .iter()
            .map(|tp| (tp.clone(), Watermarks { low: 0, high }))
            .collect();
        update(
            s,
            Action::Watermarks {
                request,
                result: Ok(partitions),
            },
            &snap,
        );
    };
    // Seconds from one answer to the next request, ticking once a second.
    let next_after = |s: &mut AppState| -> u64 {
        for second in 1..=30 {
            let now = s.now + Duration::from_secs(1);
            let wall = s.wall + Duration::from_secs(1);
            let effects = update(s, Action::Tick { now, wall }, &snap);
            if effects
                .iter()
                .any(|e| matches!(e, Effect::FetchWatermarks { .. }))
            {
                return second;
            }
        }
        panic!("no watermarks request within 30 s");
    };
    answer(&mut s, high);
    let mut gaps = Vec::new();
    for _ in 0..6 {
        gaps.push(next_after(&mut s));
        answer(&mut s, high);
    }
    assert_eq!(gaps, [3, 6, 9, 12, 15, 15], "the first answer was new");
    high += 5;
    gaps.clear();
    for _ in 0..2 {
        gaps.push(next_after(&mut s));
        answer(&mut s, high);
    }
    assert_eq!(gaps, [15, 3], "records written: back to every 3 s");
}

/// A failed watermark read is said in the status line whatever its kind;
/// a transient one (a broker timed out) is asked again at the usual pace,
/// a final one (an ACL) only at the slowest, as the same rows would get
/// the same answer; rows that move are asked for at once either way.
#[test]
fn a_final_watermark_failure_is_asked_again_only_at_the_slowest_pace() {
    let snap = cluster();
    let asks = |effects: &[Effect]| {
        effects
            .iter()
            .any(|e| matches!(e, Effect::FetchWatermarks { .. }))
    };
    for (kind, gap) in [(Kind::Transient, 3), (Kind::Final, 15)] {
        let mut s = state(&snap, 150, 16);
        let request = s
            .cluster
            .watermarks
            .in_flight
            .expect("asked for the visible rows");
        let result = Err(Failure::new(
            kind,
            "topic 'orders': topic authorization failed",
        ));
        update(&mut s, Action::Watermarks { request, result }, &snap);
        assert_eq!(
            s.notice.as_deref(),
            Some("watermarks: topic 'orders': topic authorization failed")
        );
        let mut asked = None;
        for second in 1..=30 {
            let now = s.now + Duration::from_secs(1);
            let wall = s.wall + Duration::from_secs(1);
            if asks(&update(&mut s, Action::Tick { now, wall }, &snap)) {
                asked = Some(second);
                break;
            }
        }
        assert_eq!(asked, Some(gap), "{kind:?}");
    }
    // After a final failure, other rows on screen are asked for at once.
    let mut s = state(&snap, 150, 3 + 6);
    let request = s.cluster.watermarks.in_flight.expect("asked");
    let result = Err(Failure::new(Kind::Final, "denied"));
    update(&mut s, Action::Watermarks { request, result }, &snap);
    let before = s.cluster.watermarks.last_asked.clone();
    let moved = keys(&mut s, &snap, "G");
    assert!(
        asks(&moved) && s.cluster.watermarks.last_asked != before,
        "{moved:?}"
    );
}
