//! Records out of the Messages screen, through `update` (no terminal, no
//! cluster): `:save` / `:save-all` hand the worker the selected or every
//! shown record, and the copy key hands it the value; the status line says
//! when there is nothing to hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::Bytes;
use kscope::app::{Action, AppState, Code, Effect, update};
use kscope::browse::{Codec, Record, TimestampType};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, state};

fn record(offset: i64, key: &str, value: Option<&[u8]>) -> Record {
    Record {
        partition: 1,
        offset,
        leader_epoch: 3,
        timestamp: 1_800_000_000_000 + offset,
        timestamp_type: TimestampType::Create,
        key: Some(Bytes::copy_from_slice(key.as_bytes())),
        value: value.map(Bytes::copy_from_slice),
        headers: vec![],
        codec: Codec::None,
        size: 30,
    }
}

/// `:messages payments 1` fed with three records; the tail is selected.
fn opened(snap: &MetadataSnapshot) -> AppState {
    let mut s = state(snap, 100, 20);
    keys(&mut s, snap, ":messages payments 1");
    let effects = press(&mut s, snap, Code::Enter);
    let session = effects
        .iter()
        .find_map(|e| match e {
            Effect::Browse { session, .. } => Some(*session),
            _ => None,
        })
        .expect(":messages starts a browse session");
    let records = vec![
        record(1, "a-1", Some(b"{\"n\":1}")),
        record(2, "b-1", Some(b"two")),
        record(3, "a-2", None),
    ];
    update(
        &mut s,
        Action::Browsed {
            session,
            records,
            dropped: 0,
            notices: vec![],
            failed: None,
        },
        snap,
    );
    s
}

fn saved(effects: &[Effect]) -> Option<(&str, Vec<i64>, bool)> {
    effects.iter().find_map(|e| match e {
        Effect::Save {
            path,
            topic,
            records,
            force,
        } => {
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
        vec![Effect::Copy(Bytes::from_static(b"{\"n\":1}"))],
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
