//! Frame time over `TestBackend` as the cluster grows (it must stay flat:
//! only visible rows are built), and a filter keystroke at 10k topics.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use kscope::app::{Action, AppState, Code, Key, Keymap, update};
use kscope::meta::{BrokerInfo, MetadataSnapshot, PartitionInfo, TopicId, TopicInfo};
use kscope::ui::{self, theme::Theme};
use ratatui::{Terminal, backend::TestBackend};

fn partition(p: i32) -> PartitionInfo {
    let leader = p % 3 + 1;
    PartitionInfo {
        partition: p,
        leader: Some(leader),
        leader_epoch: 1,
        replicas: vec![leader, leader % 3 + 1, (leader + 1) % 3 + 1],
        isr: vec![leader, leader % 3 + 1, (leader + 1) % 3 + 1],
        offline_replicas: Vec::new(),
        error: None,
    }
}

fn cluster(topics: usize, partitions: i32) -> MetadataSnapshot {
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

fn ready(snap: &MetadataSnapshot) -> AppState {
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
    state
}

fn frames(c: &mut Criterion) {
    let theme = Theme::mono();
    let mut group = c.benchmark_group("tui_frame_topics");
    for topics in [1_000, 10_000, 100_000] {
        let snap = cluster(topics, 3);
        let state = ready(&snap);
        let mut terminal = Terminal::new(TestBackend::new(160, 45)).expect("backend");
        group.bench_with_input(BenchmarkId::from_parameter(topics), &topics, |b, _| {
            b.iter(|| {
                terminal
                    .draw(|f| ui::view(f, black_box(&state), &snap, &theme))
                    .map(|_| ())
            });
        });
    }
    group.finish();

    let snap = cluster(1, 10_000);
    let mut state = ready(&snap);
    update(&mut state, Action::Key(Key::plain(Code::Enter)), &snap);
    let mut terminal = Terminal::new(TestBackend::new(160, 45)).expect("backend");
    c.bench_function("tui_frame_partitions_10k", |b| {
        b.iter(|| {
            terminal
                .draw(|f| ui::view(f, black_box(&state), &snap, &theme))
                .map(|_| ())
        });
    });

    let snap = cluster(10_000, 3);
    let mut state = ready(&snap);
    update(&mut state, Action::Key(Key::char('/')), &snap);
    let mut terminal = Terminal::new(TestBackend::new(160, 45)).expect("backend");
    let mut typed = 0_u32;
    c.bench_function("tui_filter_keystroke_10k_topics", |b| {
        b.iter(|| {
            // Alternate typing and deleting a character: each is a full re-filter.
            typed += 1;
            let key = if typed % 2 == 1 {
                Key::char('9')
            } else {
                Key::plain(Code::Backspace)
            };
            update(&mut state, Action::Key(key), &snap);
            terminal
                .draw(|f| ui::view(f, &state, &snap, &theme))
                .map(|_| ())
        });
    });
}

criterion_group!(benches, frames);
criterion_main!(benches);
