//! What the screen tests share: a small cluster snapshot, a model on it at a
//! fixed time and size, keys, and rendering to text over `TestBackend`.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, UNIX_EPOCH};

use bytes::Bytes;
use kscope::app::screens::messages::effect::Effect as MessagesEffect;
use kscope::app::{Action, AppState, Code, Effect, Key, Keymap, update};
use kscope::browse::{Codec, Record, TimestampType};
use kscope::meta::{
    BrokerInfo, MetadataSnapshot, MovementEvent, MovementKind, PartitionInfo, TopicId, TopicInfo,
};
use kscope::paint::theme::Theme;
use kscope::ui;
use ratatui::{Terminal, backend::TestBackend};

pub fn partition(
    partition: i32,
    leader: Option<i32>,
    replicas: &[i32],
    isr: &[i32],
) -> PartitionInfo {
    PartitionInfo {
        partition,
        leader,
        leader_epoch: 3,
        replicas: replicas.into(),
        isr: isr.into(),
        offline_replicas: Vec::new().into(),
        error: None,
    }
}

pub fn topic(name: &str, internal: bool, partitions: Vec<PartitionInfo>) -> TopicInfo {
    TopicInfo {
        name: name.to_owned(),
        topic_id: TopicId::default(),
        internal,
        partitions,
        error: None,
    }
}

pub fn broker(node_id: i32) -> BrokerInfo {
    BrokerInfo {
        node_id,
        host: "127.0.0.1".to_owned(),
        port: 19091 + node_id,
        rack: (node_id == 1).then(|| "rack-a".to_owned()),
    }
}

pub fn cluster() -> MetadataSnapshot {
    let healthy = (0..3)
        .map(|p| partition(p, Some(p % 3 + 1), &[p % 3 + 1, 2, 3], &[p % 3 + 1, 2, 3]))
        .collect();
    let moved = vec![
        partition(0, Some(2), &[1, 2, 3], &[1, 2, 3]),
        partition(1, Some(2), &[2, 3, 1], &[2, 3]),
    ];
    let offline = vec![partition(0, None, &[1], &[])];
    MetadataSnapshot::new(
        vec![broker(2), broker(1)],
        vec![
            topic("orders", false, healthy),
            topic("payments", false, moved),
            topic("lost", false, offline),
            topic(
                "__consumer_offsets",
                true,
                vec![partition(0, Some(1), &[1, 2], &[1, 2])],
            ),
        ],
        Some(2),
        Some("test-cluster-id".to_owned()),
    )
    .with_quorum(Some(2), vec![1, 2])
}

pub fn event(topic: &str, partition: i32, kind: MovementKind, secs: u64) -> MovementEvent {
    MovementEvent {
        time: UNIX_EPOCH + Duration::from_secs(1_800_000_000 + secs),
        topic: Some(topic.to_owned()),
        partition: Some(partition),
        kind,
    }
}

pub fn state(snap: &MetadataSnapshot, width: u16, height: u16) -> AppState {
    let mut state = AppState::new(
        "local",
        vec!["127.0.0.1:19092".to_owned()],
        Keymap::default(),
    );
    let now = snap.fetched_at() + Duration::from_secs(3);
    let wall = UNIX_EPOCH + Duration::from_secs(1_800_000_100);
    update(&mut state, Action::Tick { now, wall }, snap);
    update(&mut state, Action::Resize { width, height }, snap);
    // A broker seen before and gone now: the header shows it down.
    update(
        &mut state,
        Action::Snapshot { generation: 1 },
        &MetadataSnapshot::new(vec![broker(3)], Vec::new(), None, None),
    );
    update(&mut state, Action::Snapshot { generation: 2 }, snap);
    state
}

pub fn keys(state: &mut AppState, snap: &MetadataSnapshot, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects.extend(update(state, Action::Key(Key::char(c)), snap));
    }
    effects
}

pub fn press(state: &mut AppState, snap: &MetadataSnapshot, code: Code) -> Vec<Effect> {
    update(state, Action::Key(Key::plain(code)), snap)
}

pub fn render(state: &AppState, snap: &MetadataSnapshot) -> String {
    let mut terminal =
        Terminal::new(TestBackend::new(state.width, state.height)).expect("test backend");
    terminal
        .draw(|frame| ui::view(frame, state, snap, &Theme::mono()))
        .expect("draws");
    terminal.backend().to_string()
}

/// A record as a browse session hands it over: leader epoch 3, one second
/// apart per offset from 2027-01-15, no headers, uncompressed, 20 bytes of
/// overhead beside the value (`None` is a tombstone).
pub fn record(partition: i32, offset: i64, key: Option<&[u8]>, value: Option<&[u8]>) -> Record {
    Record {
        partition,
        offset,
        leader_epoch: 3,
        timestamp: 1_800_000_000_000 + offset * 1_000,
        timestamp_type: TimestampType::Create,
        key: key.map(Bytes::copy_from_slice),
        value: value.map(Bytes::copy_from_slice),
        headers: vec![],
        codec: Codec::None,
        size: 20 + value.map_or(0, <[u8]>::len),
    }
}

/// The id of the browse session `effects` start, if they start one.
pub fn browse_session(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|e| match e {
        Effect::Messages(MessagesEffect::Browse { session, .. }) => Some(*session),
        _ => None,
    })
}

/// Hand `records` to browse session `session` as its worker would; what
/// `update` answers.
pub fn feed(
    state: &mut AppState,
    snap: &MetadataSnapshot,
    session: u64,
    records: Vec<Record>,
) -> Vec<Effect> {
    update(
        state,
        Action::Screen(kscope::app::screens::Msg::Messages(
            kscope::app::screens::messages::Msg::Browsed {
                session,
                records,
                dropped: 0,
                notices: vec![],
                failed: None,
            },
        )),
        snap,
    )
}

/// Open Messages with `command` (`:messages payments 1`) and feed
/// `records` to the session it starts; the session's id.
pub fn open_messages(
    state: &mut AppState,
    snap: &MetadataSnapshot,
    command: &str,
    records: Vec<Record>,
) -> u64 {
    keys(state, snap, command);
    let effects = press(state, snap, Code::Enter);
    let session = browse_session(&effects).expect("the command starts a browse session");
    feed(state, snap, session, records);
    session
}
