//! Frame time over `TestBackend` as the cluster grows (it must stay flat:
//! only visible rows are built), a filter keystroke at 10k topics, the groups
//! list at 1k and 10k groups, and a 10k-group answer landing (history,
//! re-sort by lag, frame). Group data is fabricated here (no cluster): a
//! benchmark harness, labelled as such.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::sync::Arc;
use std::time::Duration;

use kscope::app::screens::groups::{Msg as GroupMsg, Query as GroupQuery};
use kscope::app::screens::{Msg, Query};
use kscope::app::{Action, AppState, Code, Effect, Key, update};
use kscope::groups::{
    GroupLag, GroupListing, GroupState, GroupSummary, GroupType, Overview, PartitionLag,
    RequestCounts,
};
use kscope::meta::{MetadataSnapshot, MovementEvent, MovementKind};
use kscope::paint::theme::Theme;

#[path = "support/frame.rs"]
mod frame;

use frame::{cluster, ready};

fn frames(c: &mut Criterion) {
    let theme = Theme::mono();
    let mut group = c.benchmark_group("tui_frame_topics");
    for topics in [1_000, 10_000, 100_000] {
        let snap = cluster(topics, 3);
        let state = ready(&snap);
        let mut terminal = frame::terminal();
        group.bench_with_input(BenchmarkId::from_parameter(topics), &topics, |b, _| {
            b.iter(|| {
                frame::draw(&mut terminal, &state, &snap, &theme);
            });
        });
    }
    group.finish();

    let snap = cluster(1, 10_000);
    let mut state = ready(&snap);
    update(&mut state, Action::Key(Key::plain(Code::Enter)), &snap);
    let mut terminal = frame::terminal();
    c.bench_function("tui_frame_partitions_10k", |b| {
        b.iter(|| {
            frame::draw(&mut terminal, &state, &snap, &theme);
        });
    });

    let snap = cluster(10_000, 3);
    let mut state = ready(&snap);
    update(&mut state, Action::Key(Key::char('/')), &snap);
    let mut terminal = frame::terminal();
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
            frame::draw(&mut terminal, &state, &snap, &theme);
        });
    });
}

/// `groups` fabricated groups, 3 partitions each, lag growing with `round`.
fn overview(groups: usize, round: i64) -> Arc<Overview> {
    let groups = (0..groups)
        .map(|i| {
            let topic: Arc<str> = format!("topic-{:04}", i % 1000).into();
            let lag = GroupLag::new(
                (0..3)
                    .map(|p| PartitionLag {
                        topic: topic.clone(),
                        partition: p,
                        committed: Some(1_000),
                        end: Some(1_000 + i64::try_from(i % 97).unwrap_or(0) * round),
                        start: None,
                        reported: None,
                    })
                    .collect(),
            );
            GroupSummary {
                listing: GroupListing {
                    group: format!("group-{i:06}"),
                    group_type: if i % 2 == 0 {
                        GroupType::Consumer
                    } else {
                        GroupType::Classic
                    },
                    state: GroupState::Stable,
                    protocol_type: "consumer".into(),
                    coordinator: i32::try_from(i % 3).unwrap_or(0) + 1,
                },
                members: Some(2),
                state: GroupState::Stable,
                topics: vec![topic],
                lag: Some(lag),
                reconciling: None,
                error: None,
            }
        })
        .collect();
    Arc::new(Overview {
        groups,
        failed_brokers: Vec::new(),
        requests: RequestCounts::default(),
    })
}

fn fetch_request(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|e| match e {
        Effect::Query(Query::Groups(GroupQuery::List { request })) => Some(*request),
        _ => None,
    })
}

/// Answer the list request due after `by`, returning the effects of the answer.
fn answer(state: &mut AppState, snap: &MetadataSnapshot, list: Arc<Overview>) {
    let now = state.now + Duration::from_secs(5);
    let wall = state.wall + Duration::from_secs(5);
    let effects = update(state, Action::Tick { now, wall }, snap);
    if let Some(request) = fetch_request(&effects) {
        update(
            state,
            Action::Screen(Msg::Groups(GroupMsg::List {
                request,
                result: Ok(list),
            })),
            snap,
        );
    }
}

fn group_frames(c: &mut Criterion) {
    let theme = Theme::mono();
    let snap = cluster(100, 3);
    let mut group = c.benchmark_group("tui_frame_groups");
    for groups in [1_000, 10_000] {
        let mut state = ready(&snap);
        for c in ":groups".chars() {
            update(&mut state, Action::Key(Key::char(c)), &snap);
        }
        update(&mut state, Action::Key(Key::plain(Code::Enter)), &snap);
        for round in 1..=20 {
            answer(&mut state, &snap, overview(groups, round));
        }
        let mut terminal = frame::terminal();
        group.bench_with_input(BenchmarkId::from_parameter(groups), &groups, |b, _| {
            b.iter(|| {
                frame::draw(&mut terminal, &state, &snap, &theme);
            });
        });
    }
    group.finish();

    // An answer for 10k groups landing: a history sample per group, the list
    // re-sorted by lag (largest first), one frame.
    let mut state = ready(&snap);
    for c in ":groups".chars() {
        update(&mut state, Action::Key(Key::char(c)), &snap);
    }
    update(&mut state, Action::Key(Key::plain(Code::Enter)), &snap);
    for c in "sssssS".chars() {
        update(&mut state, Action::Key(Key::char(c)), &snap);
    }
    let answers: Vec<Arc<Overview>> = (1..=4).map(|r| overview(10_000, r)).collect();
    let mut terminal = frame::terminal();
    let mut round = 0_usize;
    c.bench_function("tui_groups_answer_10k_sorted_by_lag", |b| {
        b.iter(|| {
            round += 1;
            answer(
                &mut state,
                &snap,
                Arc::clone(&answers[round % answers.len()]),
            );
            frame::draw(&mut terminal, &state, &snap, &theme);
        });
    });
}

criterion_group!(benches, frames, group_frames, events_frames);

/// `count` fabricated events (a benchmark harness): leader moves, ISR
/// shrinks and expansions over 1,000 topics of 100 partitions, a second
/// apart.
#[allow(clippy::duration_suboptimal_units)] // epoch seconds read as such
fn timeline(count: usize) -> Vec<MovementEvent> {
    let start = std::time::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    (0..count)
        .map(|i| {
            let (topic, partition) = (i % 1000, i32::try_from(i % 100).unwrap_or(0));
            let kind = match i % 3 {
                0 => MovementKind::LeaderChanged {
                    from: 1,
                    to: 2,
                    epoch: i32::try_from(i).unwrap_or(0),
                },
                1 => MovementKind::IsrShrank {
                    isr: vec![1, 3],
                    removed: vec![2],
                },
                _ => MovementKind::IsrExpanded {
                    isr: vec![1, 2, 3],
                    added: vec![2],
                },
            };
            MovementEvent {
                time: start + Duration::from_secs(i as u64),
                topic: Some(format!("topic-{topic:04}")),
                partition: Some(partition),
                kind,
            }
        })
        .collect()
}

/// `:events` with a full timeline (100k events, what the TUI keeps): a
/// frame, a key down and its frame, and a `/` filter keystroke and its
/// frame (issue 28: keys within a frame).
#[allow(clippy::duration_suboptimal_units)] // epoch seconds read as such
fn events_frames(c: &mut Criterion) {
    let theme = Theme::mono();
    let snap = cluster(1000, 100);
    let mut state = ready(&snap);
    let wall = std::time::UNIX_EPOCH + Duration::from_secs(1_800_200_000);
    let now = state.now;
    update(&mut state, Action::Tick { now, wall }, &snap);
    for chunk in timeline(100_000).chunks(10_000) {
        update(&mut state, Action::Movements(chunk.to_vec()), &snap);
    }
    update(&mut state, Action::Key(Key::char(':')), &snap);
    for ch in "events".chars() {
        update(&mut state, Action::Key(Key::char(ch)), &snap);
    }
    update(&mut state, Action::Key(Key::plain(Code::Enter)), &snap);
    assert_eq!(state.view().screen, kscope::app::Screen::events());
    assert_eq!(state.screens.events.ring.len(), 100_000, "a full timeline");
    let mut terminal = frame::terminal();
    c.bench_function("tui_events_frame_100k", |b| {
        b.iter(|| frame::draw(&mut terminal, &state, &snap, &theme));
    });
    c.bench_function("tui_events_key_down_100k", |b| {
        b.iter(|| {
            update(&mut state, Action::Key(Key::char('j')), &snap);
            frame::draw(&mut terminal, &state, &snap, &theme);
        });
    });
    update(&mut state, Action::Key(Key::char('/')), &snap);
    update(&mut state, Action::Key(Key::char('i')), &snap);
    update(&mut state, Action::Key(Key::char('s')), &snap);
    let mut typed = 0_u32;
    c.bench_function("tui_events_filter_keystroke_100k", |b| {
        b.iter(|| {
            typed += 1;
            let key = if typed % 2 == 1 {
                Key::char('r')
            } else {
                Key::plain(Code::Backspace)
            };
            update(&mut state, Action::Key(key), &snap);
            frame::draw(&mut terminal, &state, &snap, &theme);
        });
    });
}

criterion_main!(benches);
