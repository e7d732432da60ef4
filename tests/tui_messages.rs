//! The Messages screen and the record detail: whole-screen snapshots
//! (`TestBackend` + insta, 80 and 150 columns) and `update` tests — no
//! terminal, no cluster. Records are made here and handed to `update` as a
//! browse session would.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::Bytes;
use kscope::app::screens::messages::effect::Effect as MessagesEffect;
use kscope::app::{AppState, Code, Effect, Screen};
use kscope::browse::{Codec, Header, Record, Start};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, feed, keys, press, render, state};

/// The fixture's record with a `trace-id` header, from an lz4 batch.
fn record(partition: i32, offset: i64, key: Option<&str>, value: Option<&[u8]>) -> Record {
    Record {
        headers: vec![Header {
            key: Bytes::from_static(b"trace-id"),
            value: Some(Bytes::copy_from_slice(format!("t-{offset}").as_bytes())),
        }],
        codec: Codec::Lz4,
        ..screens_fixture::record(partition, offset, key.map(str::as_bytes), value)
    }
}

/// Records of every kind: JSON, text, binary, Confluent-framed, a
/// tombstone, and text holding a terminal escape.
fn sample() -> Vec<Record> {
    vec![
        record(
            0,
            10,
            Some("order-1"),
            Some(br#"{"id":1,"status":"PAID","items":[{"sku":"A-1","qty":2}],"gift":false}"#),
        ),
        record(0, 11, Some("order-2"), Some(b"plain text value")),
        record(0, 12, None, Some(b"\x00\x01\x02\xff binary")),
        record(
            0,
            13,
            Some("order-3"),
            Some(b"\x00\x00\x00\x00\x2a\x02\x06abc"),
        ),
        record(0, 14, Some("order-1"), None),
        record(0, 15, Some("evil"), Some(b"clear\x1b[2J screen")),
    ]
}

/// Open Messages of `orders` partition 0 from the Partitions screen and
/// feed `records` as its session; returns the session id.
fn open(s: &mut AppState, snap: &MetadataSnapshot, records: Vec<Record>) -> u64 {
    keys(s, snap, "/orders");
    press(s, snap, Code::Enter);
    press(s, snap, Code::Enter);
    let effects = press(s, snap, Code::Enter);
    let session = effects
        .iter()
        .find_map(|e| match e {
            Effect::Messages(MessagesEffect::Browse {
                session,
                topic,
                partition,
                start,
                ..
            }) => {
                assert_eq!(topic, "orders");
                assert_eq!(*partition, Some(0));
                assert_eq!(*start, Start::FromEnd(500));
                Some(*session)
            }
            _ => None,
        })
        .expect("Enter on a partition starts a browse session");
    feed(s, snap, session, records);
    session
}

fn both_widths(name: &str, setup: impl Fn(&mut AppState, &MetadataSnapshot)) {
    let snap = cluster();
    for (label, width, height) in [("narrow", 80, 16), ("wide", 150, 16)] {
        let mut s = state(&snap, width, height);
        s.screens.messages.utc_offset = 3600;
        setup(&mut s, &snap);
        insta::assert_snapshot!(format!("{name}_{label}"), render(&s, &snap));
    }
}

#[test]
fn messages_screen() {
    both_widths("messages", |s, snap| {
        open(s, snap, sample());
    });
}

#[test]
fn record_detail() {
    both_widths("record_detail", |s, snap| {
        open(s, snap, sample());
        press(s, snap, Code::Home);
        press(s, snap, Code::Enter);
    });
}

#[test]
fn filtered_and_paused() {
    both_widths("messages_filtered_paused", |s, snap| {
        let session = open(s, snap, sample());
        keys(s, snap, "/order-1");
        press(s, snap, Code::Enter);
        keys(s, snap, "p");
        feed(
            s,
            snap,
            session,
            vec![record(0, 16, Some("order-1"), Some(b"late"))],
        );
    });
}

#[test]
fn follow_keeps_the_tail_selected_and_pause_keeps_the_view_still() {
    let snap = cluster();
    let mut s = state(&snap, 80, 16);
    let session = open(&mut s, &snap, sample());
    assert_eq!(s.view().rows.len(), 6);
    assert_eq!(s.view().selected, 5, "the newest record is selected");
    feed(
        &mut s,
        &snap,
        session,
        vec![record(0, 16, None, Some(b"x"))],
    );
    assert_eq!(s.view().selected, 6, "the selection follows the tail");

    keys(&mut s, &snap, "p");
    feed(
        &mut s,
        &snap,
        session,
        vec![record(0, 17, None, Some(b"y"))],
    );
    assert_eq!(s.view().rows.len(), 7, "paused: the view stays still");
    assert!(render(&s, &snap).contains("PAUSED, 1 new"));
    keys(&mut s, &snap, "p");
    assert_eq!(s.view().rows.len(), 8, "resumed: the arrivals show");

    // A stale session's records are dropped.
    feed(&mut s, &snap, session + 7, vec![record(0, 99, None, None)]);
    assert_eq!(s.view().rows.len(), 8);
}

#[test]
fn the_filter_is_incremental_and_esc_clears_it() {
    let snap = cluster();
    let mut s = state(&snap, 80, 16);
    let session = open(&mut s, &snap, sample());
    keys(&mut s, &snap, "/order");
    assert_eq!(s.view().rows.len(), 4, "keys order-…, the tombstone too");
    keys(&mut s, &snap, "-1");
    assert_eq!(s.view().rows.len(), 2);
    press(&mut s, &snap, Code::Enter);
    // New records are checked against the filter as they come.
    feed(
        &mut s,
        &snap,
        session,
        vec![
            record(0, 16, Some("order-1"), Some(b"a")),
            record(0, 17, Some("other"), Some(b"b")),
        ],
    );
    assert_eq!(s.view().rows.len(), 3);
    press(&mut s, &snap, Code::Esc);
    assert_eq!(s.view().rows.len(), 8, "Esc clears the filter first");
    assert!(s.view().screen.is_records());
    keys(&mut s, &snap, "/!header:trace-id=t-1");
    assert_eq!(s.view().rows.len(), 0, "every trace id starts t-1");
    press(&mut s, &snap, Code::Esc);
    assert_eq!(s.view().rows.len(), 8);
}

#[test]
fn command_line_opens_seeks_and_formats() {
    let snap = cluster();
    let mut s = state(&snap, 80, 16);
    keys(&mut s, &snap, ":messages payments 1");
    let effects = press(&mut s, &snap, Code::Enter);
    assert!(effects.iter().any(|e| matches!(e,
        Effect::Messages(MessagesEffect::Browse { topic, partition: Some(1), .. }) if topic == "payments")));
    keys(&mut s, &snap, ":seek -10");
    let effects = press(&mut s, &snap, Code::Enter);
    assert!(
        effects.iter().any(|e| matches!(
            e,
            Effect::Messages(MessagesEffect::Browse {
                start: Start::FromEnd(10),
                partition: Some(1),
                ..
            })
        )),
        "{effects:?}"
    );
    keys(&mut s, &snap, ":format hex");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.screens.messages.format, kscope::browse::Format::Hex);
    let effects = press(&mut s, &snap, Code::Esc);
    assert!(
        effects.contains(&Effect::Messages(MessagesEffect::StopBrowse)),
        "{effects:?}"
    );
}

#[test]
fn m_on_topics_opens_every_partition_and_detail_scrolls() {
    let snap = cluster();
    let mut s = state(&snap, 80, 16);
    keys(&mut s, &snap, "/orders");
    press(&mut s, &snap, Code::Enter);
    let effects = keys(&mut s, &snap, "m");
    assert!(effects.iter().any(|e| matches!(e,
        Effect::Messages(MessagesEffect::Browse { topic, partition: None, .. }) if topic == "orders")));
    let Some(session) = effects.iter().find_map(|e| match e {
        Effect::Messages(MessagesEffect::Browse { session, .. }) => Some(*session),
        _ => None,
    }) else {
        panic!("no session");
    };
    let long: Vec<u8> = format!(
        "[{}]",
        (0..40).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
    )
    .into_bytes();
    feed(
        &mut s,
        &snap,
        session,
        vec![record(2, 5, None, Some(&long))],
    );
    press(&mut s, &snap, Code::Enter);
    assert!(matches!(
        s.view().screen,
        Screen::Messages(kscope::app::screens::messages::Shown::Record {
            partition: 2,
            offset: 5,
            ..
        })
    ));
    press(&mut s, &snap, Code::End);
    let screen = render(&s, &snap);
    assert!(
        screen.contains("  39\n") || screen.contains("  39 "),
        "{screen}"
    );
    assert!(!screen.contains("partition 2   offset 5"), "{screen}");
    press(&mut s, &snap, Code::Esc);
    assert!(s.view().screen.is_records());
}

#[test]
fn g_and_shift_g_select_the_first_and_last_record() {
    let snap = cluster();
    let mut s = state(&snap, 80, 16);
    open(&mut s, &snap, sample());
    press(&mut s, &snap, Code::Home);
    assert_eq!(s.view().selected, 0);
    // `G` asks for the last row (usize::MAX until rows clamp it): the
    // follow check must not overflow on it.
    keys(&mut s, &snap, "G");
    assert_eq!(s.view().selected, sample().len() - 1);
    keys(&mut s, &snap, "g");
    assert_eq!(s.view().selected, 0);
}
