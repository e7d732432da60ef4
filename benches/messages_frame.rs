//! The Messages screen with a full ring (10,000 records of 1 KiB JSON
//! values): one whole frame, a filter keystroke (a substring that narrows,
//! then one that must re-scan the whole ring), and the record detail's
//! frame. Records are fabricated here and handed to `update` as a browse
//! session would (no cluster): a benchmark harness, labelled as such.

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};

use kscope::app::{Action, AppState, Code, Effect, Key, update};
use kscope::browse::{Codec, Header, Record, TimestampType};
use kscope::meta::MetadataSnapshot;
use kscope::ui::theme::Theme;

#[path = "support/frame.rs"]
mod frame;

use frame::{cluster, ready};

const RECORDS: i64 = 10_000;

/// A 1 KiB JSON value.
fn record(offset: i64) -> Record {
    let mut value = format!(
        r#"{{"order_id":"ord-{offset:08}","customer":"cust-{}","status":"PAID","items":["#,
        offset % 997
    );
    while value.len() < 1000 {
        value.push_str(r#"{"sku":"SKU-12345","qty":2,"price":19.99},"#);
    }
    value.push_str(r#"{"sku":"last","qty":1,"price":1.0}]}"#);
    Record {
        partition: 0,
        offset,
        leader_epoch: 1,
        timestamp: 1_800_000_000_000 + offset,
        timestamp_type: TimestampType::Create,
        key: Some(Bytes::from(format!("ord-{offset:08}"))),
        value: Some(Bytes::from(value)),
        headers: vec![Header {
            key: Bytes::from_static(b"trace-id"),
            value: Some(Bytes::from(format!("t-{offset}"))),
        }],
        codec: Codec::Lz4,
        size: 1100,
    }
}

/// The Messages screen of `orders` partition 0 with a full ring.
fn full(snap: &MetadataSnapshot) -> AppState {
    let mut state = ready(snap);
    update(&mut state, Action::Key(Key::plain(Code::Enter)), snap);
    let effects = update(&mut state, Action::Key(Key::plain(Code::Enter)), snap);
    let session = effects
        .iter()
        .find_map(|e| match e {
            Effect::Browse { session, .. } => Some(*session),
            _ => None,
        })
        .expect("Enter on a partition opens Messages");
    let records = (0..RECORDS).map(record).collect();
    update(
        &mut state,
        Action::Browsed {
            session,
            records,
            dropped: 0,
            notices: Vec::new(),
            failed: None,
        },
        snap,
    );
    assert_eq!(state.view().rows.len(), 10_000, "a full ring");
    state
}

/// A keystroke and a frame per iteration on a full ring with `filter` typed:
/// alternately `extra` and Backspace.
fn keystroke(c: &mut Criterion, name: &str, snap: &MetadataSnapshot, filter: &str, extra: char) {
    let theme = Theme::mono();
    let mut state = full(snap);
    for ch in filter.chars() {
        update(&mut state, Action::Key(Key::char(ch)), snap);
    }
    let mut terminal = frame::terminal();
    let mut typed = 0_u32;
    c.bench_function(name, |b| {
        b.iter(|| {
            typed += 1;
            let key = if typed % 2 == 1 {
                Key::char(extra)
            } else {
                Key::plain(Code::Backspace)
            };
            update(&mut state, Action::Key(key), snap);
            frame::draw(&mut terminal, &state, snap, &theme);
        });
    });
}

fn benches(c: &mut Criterion) {
    let theme = Theme::mono();
    let snap = cluster(1, 1);
    let state = full(&snap);
    let mut terminal = frame::terminal();
    c.bench_function("messages_frame_full_ring_10k_1KiB", |b| {
        b.iter(|| frame::draw(&mut terminal, &state, &snap, &theme));
    });

    // Typing one more character of a substring that narrows: only the
    // rows that matched before are checked. Then deleting it: the whole
    // ring is scanned again.
    keystroke(
        c,
        "messages_filter_keystroke_full_ring",
        &snap,
        "/ord-0000",
        '9',
    );
    // A regex: each keystroke re-scans the ring.
    keystroke(
        c,
        "messages_filter_keystroke_regex_rescan",
        &snap,
        "/~status.:.PAID",
        'x',
    );

    let mut state = full(&snap);
    update(&mut state, Action::Key(Key::plain(Code::Enter)), &snap);
    c.bench_function("messages_record_detail_frame", |b| {
        b.iter(|| frame::draw(&mut terminal, &state, &snap, &theme));
    });
}

criterion_group!(messages, benches);
criterion_main!(messages);
