//! `:find REGEX` on the Messages screen through `update` (no terminal, no
//! cluster; the worker's answers are made here): a match among the loaded
//! records after the selection is selected; otherwise a scan starts after
//! each partition's last loaded record, its progress shows in the title,
//! Esc cancels it, and a record it finds opens on the detail screen.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::time::Duration;

use kscope::app::screens::messages::effect::Effect as MessagesEffect;
use kscope::app::screens::messages::finding::FindEnd;
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
        Effect::Messages(MessagesEffect::Find {
            id, start, pattern, ..
        }) => {
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
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Messages(MessagesEffect::Find { .. }))),
        "{effects:?}"
    );
    let selected = kscope::app::screens::messages::selected(&s).map(|r| r.offset);
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
    assert!(
        effects.contains(&Effect::Messages(MessagesEffect::StopFind)),
        "{effects:?}"
    );
    assert!(
        s.view().screen.is_records(),
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
    assert!(s.view().screen.is_records());
    let found = Action::Finding {
        id: second,
        read: (99, 9_000, Duration::from_secs(1)),
        end: Some(FindEnd::Found(record(99, "a needle"))),
    };
    update(&mut s, found, &snap);
    assert_eq!(s.view().screen, Screen::record("payments", 1, 99));
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

/// `:messages payments 1` fed with JSON values.
fn opened_json(snap: &MetadataSnapshot) -> AppState {
    let mut s = state(snap, 120, 20);
    let records = vec![
        record(1, r#"{"id":1,"status":"OK"}"#),
        record(2, r#"{"id":2,"status":"FAILED"}"#),
        record(3, "not json"),
        record(4, r#"{"id":4,"status":"FAILED"}"#),
    ];
    open_messages(&mut s, snap, ":messages payments 1", records);
    s
}

fn shown_offsets(s: &AppState) -> Vec<i64> {
    s.view()
        .rows
        .iter()
        .filter_map(|&seq| s.screens.messages.record(seq).map(|r| r.offset))
        .collect()
}

#[test]
fn the_slash_filter_takes_a_jq_expression_and_shows_its_errors_with_the_column() {
    let snap = cluster();
    let mut s = opened_json(&snap);
    keys(&mut s, &snap, r#"/.value.status? == "FAILED""#);
    press(&mut s, &snap, Code::Enter);
    assert_eq!(shown_offsets(&s), [2, 4]);
    press(&mut s, &snap, Code::Esc);

    let mut s = opened_json(&snap);
    keys(&mut s, &snap, "/jq:.value.id > 1 and .value.id < 4");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(shown_offsets(&s), [2]);

    // Half typed: the error names the column; the last good filter stays.
    let mut s = opened_json(&snap);
    keys(&mut s, &snap, "/.value.id ==");
    let notice = s.notice.clone().unwrap_or_default();
    assert!(notice.contains("at column"), "{notice}");
    assert!(notice.starts_with("jq: "), "{notice}");

    // A regex starting with `.` is still a regex (`~`), and a plain
    // substring still a substring.
    let mut s = opened_json(&snap);
    keys(&mut s, &snap, "/~.*FAILED");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(shown_offsets(&s), [2, 4]);
    let mut s = opened_json(&snap);
    keys(&mut s, &snap, "/not json");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(shown_offsets(&s), [3]);
}

#[test]
fn find_takes_a_jq_expression_compiled_once_and_hands_it_to_the_scan() {
    let snap = cluster();
    let mut s = opened_json(&snap);
    press(&mut s, &snap, Code::Home);
    let effects = find(&mut s, &snap, r#".value.status? == "FAILED""#);
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Messages(MessagesEffect::Find { .. }))),
        "{effects:?}"
    );
    let selected = kscope::app::screens::messages::selected(&s).map(|r| r.offset);
    assert_eq!(selected, Some(2));

    // Not among the loaded records: the scan gets the compiled expression.
    let effects = find(&mut s, &snap, "jq:.value.id == 99");
    let jq = effects.iter().find_map(|e| match e {
        Effect::Messages(MessagesEffect::Find { jq, pattern, .. }) => {
            assert_eq!(pattern, "jq:.value.id == 99");
            jq.clone()
        }
        _ => None,
    });
    assert_eq!(jq.expect("compiled").text(), ".value.id == 99");
    press(&mut s, &snap, Code::Esc);

    // `.*` is a regex, not jq.
    let effects = find(&mut s, &snap, ".*zzz");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Messages(MessagesEffect::Find { jq: None, .. }))),
        "{effects:?}"
    );
    press(&mut s, &snap, Code::Esc);

    find(&mut s, &snap, ".value.id ==");
    let notice = s.notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with(":find: jq: expected term") && notice.contains("at column 13"),
        "{notice}"
    );
}

#[test]
fn the_scan_matches_jq_on_the_records_it_reads() {
    use kscope::app::screens::messages::find::Matcher;
    use kscope::browse::jq::JqFilter;
    let matcher = Matcher::Jq(JqFilter::compile(r#".value.status == "FAILED""#).unwrap());
    assert!(matcher.matches("payments", &record(1, r#"{"status":"FAILED"}"#)));
    assert!(!matcher.matches("payments", &record(1, r#"{"status":"OK"}"#)));
    assert!(!matcher.matches("payments", &record(1, "text: an error is no match")));
}
