//! The Messages screen with a full ring (10,000 records of 1 KiB JSON
//! values): one whole frame, a filter keystroke (a substring that narrows,
//! then one that must re-scan the whole ring), and the record detail's
//! frame. Records are fabricated here and handed to `update` as a browse
//! session would (no cluster): a benchmark harness, labelled as such.

use std::hint::black_box;

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};

use kscope::app::{Action, AppState, Code, Effect, Key, Keymap, update};
use kscope::browse::{Codec, Header, Record, TimestampType};
use kscope::meta::{BrokerInfo, MetadataSnapshot, PartitionInfo, TopicId, TopicInfo};
use kscope::ui::{self, theme::Theme};
use ratatui::{Terminal, backend::TestBackend};

const RECORDS: i64 = 10_000;

fn cluster() -> MetadataSnapshot {
    let brokers = vec![BrokerInfo {
        node_id: 1,
        host: "127.0.0.1".into(),
        port: 19092,
        rack: None,
    }];
    let topics = vec![TopicInfo {
        name: "orders".into(),
        topic_id: TopicId::default(),
        internal: false,
        partitions: vec![PartitionInfo {
            partition: 0,
            leader: Some(1),
            leader_epoch: 1,
            replicas: vec![1].into(),
            isr: vec![1].into(),
            offline_replicas: Vec::new().into(),
            error: None,
        }],
        error: None,
    }];
    MetadataSnapshot::new(brokers, topics, Some(1), Some("bench".into()))
}

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
    let mut state = AppState::new("bench", Vec::new(), Keymap::default());
    update(
        &mut state,
        Action::Resize {
            width: 160,
            height: 45,
        },
        snap,
    );
    update(&mut state, Action::Snapshot { generation: 1 }, snap);
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

fn benches(c: &mut Criterion) {
    let theme = Theme::mono();
    let snap = cluster();
    let state = full(&snap);
    let mut terminal = Terminal::new(TestBackend::new(160, 45)).expect("backend");
    c.bench_function("messages_frame_full_ring_10k_1KiB", |b| {
        b.iter(|| {
            terminal
                .draw(|f| ui::view(f, black_box(&state), &snap, &theme))
                .map(|_| ())
        });
    });

    // Typing one more character of a substring that narrows: only the
    // rows that matched before are checked. Then deleting it: the whole
    // ring is scanned again. Each iteration is one keystroke + a frame.
    let mut state = full(&snap);
    for c in "/ord-0000".chars() {
        update(&mut state, Action::Key(Key::char(c)), &snap);
    }
    let mut typed = 0_u32;
    c.bench_function("messages_filter_keystroke_full_ring", |b| {
        b.iter(|| {
            typed += 1;
            let key = if typed % 2 == 1 {
                Key::char('9')
            } else {
                Key::plain(Code::Backspace)
            };
            update(&mut state, Action::Key(key), &snap);
            terminal
                .draw(|f| ui::view(f, black_box(&state), &snap, &theme))
                .map(|_| ())
        });
    });

    let mut state = full(&snap);
    for c in "/~status.:.PAID".chars() {
        update(&mut state, Action::Key(Key::char(c)), &snap);
    }
    c.bench_function("messages_filter_keystroke_regex_rescan", |b| {
        b.iter(|| {
            typed += 1;
            let key = if typed % 2 == 1 {
                Key::char('x')
            } else {
                Key::plain(Code::Backspace)
            };
            update(&mut state, Action::Key(key), &snap);
            terminal
                .draw(|f| ui::view(f, black_box(&state), &snap, &theme))
                .map(|_| ())
        });
    });

    let mut state = full(&snap);
    update(&mut state, Action::Key(Key::plain(Code::Enter)), &snap);
    c.bench_function("messages_record_detail_frame", |b| {
        b.iter(|| {
            terminal
                .draw(|f| ui::view(f, black_box(&state), &snap, &theme))
                .map(|_| ())
        });
    });
}

criterion_group!(messages, benches);
criterion_main!(messages);
