//! Records out of the Messages screen, through `update` (no terminal, no
//! cluster): `:save` / `:save-all` hand the worker the selected or every
//! shown record, and the copy key hands it the value; the status line says
//! when there is nothing to hand. Also the isolation switch, which reads
//! the view again and keeps the selected record selected.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::Bytes;
use kscope::app::screens::messages::effect::Effect as MessagesEffect;
use kscope::app::{AppState, Code, Effect};
use kscope::browse::{Isolation, Record, Start};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, feed, keys, press, render, state};

/// A record of partition 1 with key `key`.
fn record(offset: i64, key: &str, value: Option<&[u8]>) -> Record {
    screens_fixture::record(1, offset, Some(key.as_bytes()), value)
}

/// The browse session `effects` start: id, start and isolation.
fn browse(effects: &[Effect]) -> Option<(u64, Start, Isolation)> {
    effects.iter().find_map(|e| match e {
        Effect::Messages(MessagesEffect::Browse {
            session,
            start,
            isolation,
            ..
        }) => Some((*session, start.clone(), *isolation)),
        _ => None,
    })
}

/// `:messages payments 1` fed with three records; the tail is selected.
fn opened(snap: &MetadataSnapshot) -> AppState {
    let mut s = state(snap, 100, 20);
    keys(&mut s, snap, ":messages payments 1");
    let effects = press(&mut s, snap, Code::Enter);
    let (session, _, isolation) = browse(&effects).expect(":messages starts a browse session");
    assert_eq!(isolation, Isolation::ReadCommitted, "committed by default");
    let records = vec![
        record(1, "a-1", Some(b"{\"n\":1}")),
        record(2, "b-1", Some(b"two")),
        record(3, "a-2", None),
    ];
    feed(&mut s, snap, session, records);
    s
}

fn saved(effects: &[Effect]) -> Option<(&str, Vec<i64>, bool)> {
    effects.iter().find_map(|e| match e {
        Effect::Messages(MessagesEffect::Save {
            path,
            topic,
            records,
            force,
        }) => {
            assert_eq!(topic, "payments");
            Some((
                path.as_str(),
                records.iter().map(|r| r.offset).collect(),
                *force,
            ))
        }
        _ => None,
    })
}

#[test]
fn save_hands_over_the_selected_record_and_save_all_what_the_filter_shows() {
    let snap = cluster();
    let mut s = opened(&snap);
    press(&mut s, &snap, Code::Home);
    keys(&mut s, &snap, ":save /tmp/one record.jsonl");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(
        saved(&effects),
        Some(("/tmp/one record.jsonl", vec![1], false))
    );

    keys(&mut s, &snap, "/a-");
    press(&mut s, &snap, Code::Enter);
    keys(&mut s, &snap, ":save-all! all.jsonl");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(saved(&effects), Some(("all.jsonl", vec![1, 3], true)));

    // On the record detail, :save writes the record open.
    press(&mut s, &snap, Code::Home);
    press(&mut s, &snap, Code::Down);
    press(&mut s, &snap, Code::Enter);
    keys(&mut s, &snap, ":w x.jsonl");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(saved(&effects), Some(("x.jsonl", vec![3], false)));
}

#[test]
fn save_elsewhere_or_with_nothing_shown_is_a_notice() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    keys(&mut s, &snap, ":save x.jsonl");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(saved(&effects), None);
    assert!(
        s.notice.as_deref().is_some_and(|n| n.contains("Messages")),
        "{:?}",
        s.notice
    );

    let mut s = opened(&snap);
    keys(&mut s, &snap, "/nothing-matches");
    press(&mut s, &snap, Code::Enter);
    keys(&mut s, &snap, ":save-all x.jsonl");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(saved(&effects), None);
    assert!(
        s.notice
            .as_deref()
            .is_some_and(|n| n.contains("nothing to save")),
        "{:?}",
        s.notice
    );
}

#[test]
fn y_copies_the_value_and_says_when_there_is_none() {
    let snap = cluster();
    let mut s = opened(&snap);
    press(&mut s, &snap, Code::Home);
    let effects = keys(&mut s, &snap, "y");
    assert_eq!(
        effects,
        vec![Effect::Messages(MessagesEffect::Copy(Bytes::from_static(
            b"{\"n\":1}"
        )))],
        "y on a record copies its value"
    );
    press(&mut s, &snap, Code::End);
    let effects = keys(&mut s, &snap, "y");
    assert!(effects.is_empty(), "{effects:?}");
    assert!(
        s.notice
            .as_deref()
            .is_some_and(|n| n.contains("value is null")),
        "{:?}",
        s.notice
    );
}

#[test]
fn isolation_reads_again_from_the_same_start_and_keeps_the_selection() {
    let snap = cluster();
    let mut s = opened(&snap);
    press(&mut s, &snap, Code::Home);
    press(&mut s, &snap, Code::Down);
    let effects = keys(&mut s, &snap, "u");
    let (session, start, isolation) = browse(&effects).expect("u starts a new session");
    assert_eq!(isolation, Isolation::ReadUncommitted);
    assert_eq!(start, Start::FromEnd(500), "the same start as before");
    assert!(s.view().rows.is_empty(), "the old records are gone");
    let title = render(&s, &snap);
    assert!(title.contains("read_uncommitted"), "{title}");
    // The records again, with an aborted one now shown: offset 2 stays selected.
    let again = vec![
        record(1, "a-1", Some(b"x")),
        record(2, "b-1", Some(b"two")),
        record(3, "a-2", None),
        record(4, "aborted", Some(b"y")),
    ];
    feed(&mut s, &snap, session, again);
    let view = s.view();
    assert_eq!(view.rows.len(), 4);
    let selected = kscope::app::screens::messages::selected(&s).map(|r| r.offset);
    assert_eq!(selected, Some(2), "the selection survived the restart");

    keys(&mut s, &snap, ":isolation committed");
    let effects = press(&mut s, &snap, Code::Enter);
    let (_, _, isolation) = browse(&effects).expect(":isolation starts a new session");
    assert_eq!(isolation, Isolation::ReadCommitted);
    let title = render(&s, &snap);
    assert!(!title.contains("read_uncommitted"), "{title}");

    keys(&mut s, &snap, ":topics");
    press(&mut s, &snap, Code::Enter);
    keys(&mut s, &snap, ":iso uncommitted");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(
        browse(&effects),
        None,
        "isolation is for the Messages screen"
    );
}
