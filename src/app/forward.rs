//! What landed for the screen modules, handed to each that shows it: a
//! snapshot, a batch of leader movements, and what the session's shared
//! stores took (watermarks, disk sizes, config summaries, the group list)
//! go to every module's store that keeps a copy ([`shared`]); a module's
//! own message goes to its store ([`forward`]), its notice to the status
//! line.

use std::sync::Arc;

use crate::meta::{MetadataSnapshot, MovementEvent, MovementKind};

use super::screens;
use super::screens::brokers::{self, Observed};
use super::screens::{partitions, topics};
use super::state::{AppState, Link};

/// The topics a configs answer is about (their summaries are shown by the
/// Topics screen).
pub(super) fn answered_topics(msg: &screens::Msg) -> Vec<String> {
    let screens::Msg::Configs(screens::configs::Msg::Answer {
        result: Ok(answers),
        ..
    }) = msg
    else {
        return Vec::new();
    };
    answers
        .iter()
        .filter_map(|(resource, _)| match resource {
            crate::inspect::ConfigResource::Topic(name) => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// Shared data that landed, for the screens that show it.
pub(super) enum Shared<'a> {
    /// What a watermark answer changed.
    Marks(Arc<screens::feed::Marks>),
    /// What a disk-sizes answer changed.
    Sizes(Arc<screens::feed::Sizes>),
    /// The configs store took an answer about these topics.
    Summaries(&'a [String]),
    /// A group list answer was taken.
    Groups,
    /// A new snapshot.
    Snapshot(&'a MetadataSnapshot),
}

/// Hand what landed to the screens that show it (their stores keep a copy).
pub(super) fn shared(state: &mut AppState, landed: Shared) {
    match landed {
        Shared::Marks(marks) => {
            forward(
                state,
                screens::Msg::Topics(topics::Msg::Marks(marks.clone())),
            );
            forward(
                state,
                screens::Msg::Partitions(partitions::Msg::Marks(marks)),
            );
        }
        Shared::Sizes(seen) => {
            forward(
                state,
                screens::Msg::Topics(topics::Msg::Sizes(seen.clone())),
            );
            forward(
                state,
                screens::Msg::Partitions(partitions::Msg::Sizes(seen)),
            );
        }
        Shared::Summaries(names) => {
            let held = &state.screens.configs.topics;
            let summaries: screens::feed::Summaries = names
                .iter()
                .filter_map(|t| held.get(t).map(|(summary, _)| (t.clone(), summary.clone())))
                .collect();
            if summaries.is_empty() {
                return;
            }
            let summaries = Arc::new(summaries);
            let copy = summaries.clone();
            forward(state, screens::Msg::Topics(topics::Msg::Summaries(copy)));
            let copy = summaries.clone();
            forward(
                state,
                screens::Msg::Groups(screens::groups::Msg::Summaries(copy)),
            );
            forward(
                state,
                screens::Msg::Partitions(partitions::Msg::Summaries(summaries)),
            );
        }
        Shared::Groups => {
            // The Topics screen's LAG column, if a newer list landed.
            let overview = state.screens.groups.overview.clone();
            let at = state.screens.groups.overview_at;
            forward(
                state,
                screens::Msg::Topics(topics::Msg::Groups { overview, at }),
            );
        }
        Shared::Snapshot(snap) => {
            // One copy of the snapshot for the screens that list topics.
            let snap = Arc::new(snap.clone());
            forward(
                state,
                screens::Msg::Topics(topics::Msg::Snapshot(snap.clone())),
            );
            forward(
                state,
                screens::Msg::Partitions(partitions::Msg::Snapshot(snap)),
            );
        }
    }
}

/// A new snapshot: its generation taken, and the copy of it each screen
/// that shows it keeps.
pub(super) fn snapshot(state: &mut AppState, generation: u64, snap: &MetadataSnapshot) {
    state.generation = generation;
    state.partition_total = snap.partition_count();
    state.refreshing = false;
    state.link = Link::Connected;
    shared(state, Shared::Snapshot(snap));
    let observed = Observed::of(snap, state.wall);
    forward(
        state,
        screens::Msg::Brokers(brokers::Msg::Snapshot(observed.into())),
    );
}

/// A batch of leader movements: on the timeline and the Leaders log, the
/// moved partitions highlighted on Partitions.
pub(super) fn movements(state: &mut AppState, events: Vec<MovementEvent>) {
    let arrived = screens::events::Msg::Arrived(events.clone());
    forward(state, screens::Msg::Events(arrived));
    let mut moved = Vec::new();
    for event in events.iter().filter(|e| e.kind.is_leader_movement()) {
        if let (Some(topic), Some(partition)) = (&event.topic, event.partition)
            && matches!(
                event.kind,
                MovementKind::LeaderChanged { .. }
                    | MovementKind::PartitionOffline { .. }
                    | MovementKind::PartitionOnline { .. }
            )
        {
            state
                .cluster
                .moved_at
                .insert((topic.clone(), partition), state.now);
            state.cluster.last_moved = Some(state.now);
            moved.push((topic.clone(), partition));
        }
    }
    // The Partitions screen highlights them.
    if !moved.is_empty() {
        forward(
            state,
            screens::Msg::Partitions(partitions::Msg::Moved(moved)),
        );
    }
    // The Leaders screen keeps the leader movement of the batch.
    let msg = screens::Msg::Leaders(screens::leaders::Msg::Moved(events));
    forward(state, msg);
}

/// Hand `msg` to its screen module's store: an answer to its own query, or
/// shared data it shows (a snapshot's brokers, the movement feed); a
/// failure it reports goes to the status line.
pub(super) fn forward(state: &mut AppState, msg: screens::Msg) {
    let clock = state.clock();
    if let Some(notice) = state.screens.receive(msg, clock) {
        state.notice = Some(notice);
    }
}
