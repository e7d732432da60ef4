//! BENCHMARK HARNESS, not part of kscope: what the frame benchmarks share —
//! a fabricated cluster snapshot, a model sized 160×45 that has seen it,
//! and one frame drawn over `TestBackend`.
#![allow(dead_code)]

use std::hint::black_box;

use kscope::app::{Action, AppState, Keymap, update};
use kscope::meta::{BrokerInfo, MetadataSnapshot, PartitionInfo, TopicId, TopicInfo};
use kscope::paint::theme::Theme;
use kscope::ui;
use ratatui::{Terminal, backend::TestBackend};

/// The terminal size every frame benchmark draws at.
pub const SIZE: (u16, u16) = (160, 45);

/// Partition `p`, led by broker `p % 3 + 1`, RF 3, all in sync.
pub fn partition(p: i32) -> PartitionInfo {
    let leader = p % 3 + 1;
    PartitionInfo {
        partition: p,
        leader: Some(leader),
        leader_epoch: 1,
        replicas: vec![leader, leader % 3 + 1, (leader + 1) % 3 + 1].into(),
        isr: vec![leader, leader % 3 + 1, (leader + 1) % 3 + 1].into(),
        offline_replicas: Vec::new().into(),
        error: None,
    }
}

/// Three brokers and `topics` topics `topic-NNNNNN` of `partitions` each.
pub fn cluster(topics: usize, partitions: i32) -> MetadataSnapshot {
    let brokers = (1..=3)
        .map(|id| BrokerInfo {
            node_id: id,
            host: "127.0.0.1".into(),
            port: 19091 + id,
            rack: None,
        })
        .collect();
    let topics = (0..topics)
        .map(|i| TopicInfo {
            name: format!("topic-{i:06}"),
            topic_id: TopicId::default(),
            internal: false,
            partitions: (0..partitions).map(partition).collect(),
            error: None,
        })
        .collect();
    MetadataSnapshot::new(brokers, topics, Some(1), Some("bench".into()))
}

/// A model at [`SIZE`] that has seen `snap` (the Topics screen).
pub fn ready(snap: &MetadataSnapshot) -> AppState {
    let mut state = AppState::new("bench", Vec::new(), Keymap::default());
    update(
        &mut state,
        Action::Resize {
            width: SIZE.0,
            height: SIZE.1,
        },
        snap,
    );
    update(&mut state, Action::Snapshot { generation: 1 }, snap);
    state
}

/// A `TestBackend` terminal at [`SIZE`].
pub fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(SIZE.0, SIZE.1)).expect("backend")
}

/// Draw one frame of `state`.
pub fn draw(
    terminal: &mut Terminal<TestBackend>,
    state: &AppState,
    snap: &MetadataSnapshot,
    theme: &Theme,
) {
    terminal
        .draw(|f| ui::view(f, black_box(state), snap, theme))
        .map(|_| ())
        .expect("draws");
}
