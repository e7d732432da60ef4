//! `:find REGEX` on the Messages screen through `update` (no terminal, no
//! cluster; the worker's answers are made here): a match among the loaded
//! records after the selection is selected; otherwise a scan starts after
//! each partition's last loaded record, its progress shows in the title,
//! Esc cancels it, and a record it finds opens on the detail screen.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::time::Duration;

use kscope::app::messages_find::FindEnd;
use kscope::app::{Action, AppState, Code, Effect, Screen, update};
use kscope::browse::{Record, Start};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, open_messages, press, render, state};

/// A keyless record of partition 1.
fn record(offset: i64, value: &str) -> Record {
    screens_fixture::record(1, offset, None, Some(value.as_bytes()))
}

/// `:messages payments 1` fed with three records.
fn opened(snap: &MetadataSnapshot) -> AppState {
    let mut s = state(snap, 120, 20);
    let records = vec![record(1, "alpha"), record(2, "beta"), record(3, "alpha")];
    open_messages(&mut s, snap, ":messages payments 1", records);
    s
}

fn find(s: &mut AppState, snap: &MetadataSnapshot, pattern: &str) -> Vec<Effect> {
    keys(s, snap, &format!(":find {pattern}"));
    press(s, snap, Code::Enter)
}

fn scan(effects: &[Effect]) -> Option<(u64, Start)> {
    effects.iter().find_map(|e| match e {
        Effect::Find {
            id, start, pattern, ..
        } => {
            assert_eq!(pattern, "needle");
            Some((*id, start.clone()))
        }
        _ => None,
    })
}

#[test]
fn a_loaded_match_after_the_selection_is_selected() {
    let snap = cluster();
    let mut s = opened(&snap);
    press(&mut s, &snap, Code::Home);
    let effects = find(&mut s, &snap, "alp");
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Find { .. })),
        "{effects:?}"
    );
    let selected = kscope::app::messages::selected(&s).map(|r| r.offset);
    assert_eq!(selected, Some(3), "the next match after the selection");
    find(&mut s, &snap, "(");
    assert!(
        s.notice.as_deref().is_some_and(|n| n.starts_with(":find:")),
        "{:?}",
        s.notice
    );
}

#[test]
fn a_scan_beyond_reports_progress_cancels_and_opens_what_it_finds() {
    let snap = cluster();
    let mut s = opened(&snap);
    let effects = find(&mut s, &snap, "needle");
    let (id, start) = scan(&effects).expect("a scan beyond the loaded records");
    assert_eq!(start, Start::Offsets(BTreeMap::from([(1, 4)])));
    update(
        &mut s,
        Action::Finding {
            id,
            read: (20_000, 2 * 1024 * 1024, Duration::from_secs(2)),
            end: None,
        },
        &snap,
    );
    let screen = render(&s, &snap);
    assert!(
        screen.contains("finding /needle/: 20000 records, 2.0 MiB, 10000 records/s"),
        "{screen}"
    );
    let effects = press(&mut s, &snap, Code::Esc);
    assert!(effects.contains(&Effect::StopFind), "{effects:?}");
    assert!(
        matches!(s.view().screen, Screen::Messages { .. }),
        "Esc cancelled the scan and stayed"
    );

    let effects = find(&mut s, &snap, "needle");
    let (second, _) = scan(&effects).expect("a second scan");
    assert_ne!(second, id);
    // An answer of the cancelled scan is dropped.
    let late = Action::Finding {
        id,
        read: (1, 1, Duration::ZERO),
        end: Some(FindEnd::Found(record(7, "needle"))),
    };
    update(&mut s, late, &snap);
    assert!(matches!(s.view().screen, Screen::Messages { .. }));
    let found = Action::Finding {
        id: second,
        read: (99, 9_000, Duration::from_secs(1)),
        end: Some(FindEnd::Found(record(99, "a needle"))),
    };
    update(&mut s, found, &snap);
    assert_eq!(
        s.view().screen,
        Screen::Record {
            topic: "payments".to_owned(),
            partition: 1,
            offset: 99
        }
    );
    assert!(
        s.notice
            .as_deref()
            .is_some_and(|n| n.contains("offset 99 after 99 records")),
        "{:?}",
        s.notice
    );

    press(&mut s, &snap, Code::Esc);
    let effects = find(&mut s, &snap, "needle");
    let (third, _) = scan(&effects).expect("a third scan");
    let none = Action::Finding {
        id: third,
        read: (5, 500, Duration::from_secs(1)),
        end: Some(FindEnd::NotFound(
            "the end of the topic was reached".to_owned(),
        )),
    };
    update(&mut s, none, &snap);
    assert!(
        s.notice
            .as_deref()
            .is_some_and(|n| n.contains("not found in 5 records")),
        "{:?}",
        s.notice
    );
}
