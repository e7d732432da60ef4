//! The events the TUI derives itself, beside the movement feed (which the
//! cluster's log already rate limits), from what its screens already read:
//!
//! - the group kinds ([`GroupEvents`]): the changes between two reads of
//!   the group list (`:groups`, or `L` on Topics), and a partition STUCK or
//!   moving again over the reads of the groups the TUI already polls — the
//!   whole list, the visible rows of a list, the group on screen. No group
//!   is read for the events' sake;
//! - `under_min_isr` / `min_isr_restored` ([`MinIsrWatch`]): each new
//!   snapshot's ISRs against the `min.insync.replicas` of the topics whose
//!   configs the Topics and Partitions screens already read. A topic whose
//!   value is not known is not judged (no value is guessed); a topic's
//!   first look, once its value arrives, is its baseline.
//!
//! Both are rate limited per kind as the movement log is: past a kind's
//! limit the rest of a storm is one counted `events_suppressed` record.

use crate::columns::group_offsets::STUCK_READS;
use crate::groups::stuck_events::GroupEvents;
use crate::meta::min_isr::MinIsrWatch;
use crate::meta::{MetadataSnapshot, MovementEvent};

use super::state::AppState;

/// The TUI's own event sources (reset with the cluster).
#[derive(Debug)]
pub struct EventSources {
    /// The group kinds, from the group reads.
    pub groups: GroupEvents,
    /// The min-ISR kinds, from snapshots and topic configs.
    min_isr: MinIsrWatch,
    /// The snapshot generation and configs answer count last looked at.
    looked: Option<(u64, u64)>,
}

impl Default for EventSources {
    fn default() -> Self {
        EventSources {
            groups: GroupEvents::new(STUCK_READS),
            min_isr: MinIsrWatch::new(),
            looked: None,
        }
    }
}

impl EventSources {
    /// Sources with other rate limits (tests).
    pub fn with_limits(limits: crate::meta::Limits) -> Self {
        EventSources {
            groups: GroupEvents::with_limits(STUCK_READS, limits),
            min_isr: MinIsrWatch::with_limits(limits),
            looked: None,
        }
    }
}

/// Put derived `events` on the timeline.
/// Not while replaying: the recording's events, derived when it was
/// recorded, are the timeline.
pub fn publish(state: &mut AppState, events: &[MovementEvent]) {
    if events.is_empty() || state.replay.is_some() {
        return;
    }
    let arrived = super::screens::events::Msg::Arrived(events.to_vec());
    super::update::forward(state, super::screens::Msg::Events(arrived));
}

/// Look for min-ISR changes when a new snapshot or a configs answer came
/// since the last look: one pass over the partitions of the topics whose
/// `min.insync.replicas` is known, nothing otherwise.
pub fn min_isr(state: &mut AppState, snap: &MetadataSnapshot) {
    let key = (state.generation, state.screens.configs.answers);
    if state.sources.looked == Some(key) {
        return;
    }
    state.sources.looked = Some(key);
    let configs = &state.screens.configs.topics;
    let events = state.sources.min_isr.observe(
        snap,
        |topic| configs.get(topic).and_then(|(summary, _)| summary.min_isr),
        state.wall,
    );
    publish(state, &events);
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant, SystemTime};

    use super::*;
    use crate::app::keymap::Keymap;
    use crate::groups::{
        GroupLag, GroupListing, GroupState, GroupSummary, GroupType, Overview, PartitionLag,
        RequestCounts,
    };
    use crate::inspect::TopicSummary;
    use crate::meta::fixtures::snapshot_with_isr;

    fn kinds(state: &AppState) -> Vec<&'static str> {
        state
            .screens
            .events
            .ring
            .iter()
            .map(|e| e.kind.name())
            .collect()
    }

    #[test]
    fn min_isr_events_come_from_snapshots_and_the_configs_read_never_a_guess() {
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        let healthy = snapshot_with_isr("orders", &[&[1, 2, 3], &[1, 2, 3]]);
        let under = snapshot_with_isr("orders", &[&[1], &[1, 2, 3]]);
        // No configs read: an ISR of one is not judged against a guess.
        min_isr(&mut state, &healthy);
        state.generation += 1;
        min_isr(&mut state, &under);
        assert!(kinds(&state).is_empty(), "{:?}", kinds(&state));
        // The Topics screen read `orders`' configs: its first look is the
        // baseline (partition 0 already under is state, not news).
        let summary = TopicSummary {
            min_isr: Some(2),
            ..TopicSummary::default()
        };
        state
            .screens
            .configs
            .topics
            .insert("orders".to_owned(), (summary, None));
        state.screens.configs.answers += 1;
        min_isr(&mut state, &under);
        assert!(kinds(&state).is_empty(), "{:?}", kinds(&state));
        state.generation += 1;
        min_isr(&mut state, &healthy);
        assert_eq!(kinds(&state), ["min_isr_restored"]);
        state.generation += 1;
        min_isr(&mut state, &under);
        assert_eq!(kinds(&state), ["min_isr_restored", "under_min_isr"]);
        let last = state.screens.events.ring.back().expect("an event");
        assert_eq!(
            (last.topic.as_deref(), last.partition),
            (Some("orders"), Some(0))
        );
        assert_eq!(
            state.screens.events.recent,
            [1, 0, 1],
            "critical and info counted"
        );
        // Nothing new (same generation, same configs): not looked at again.
        min_isr(&mut state, &healthy);
        assert_eq!(state.screens.events.ring.len(), 2);
    }

    fn list(committed: i64, end: i64) -> Overview {
        let lag = GroupLag::new(vec![PartitionLag {
            topic: "orders".into(),
            partition: 0,
            committed: Some(committed),
            end: Some(end),
            start: Some(0),
            reported: None,
        }]);
        Overview {
            groups: vec![GroupSummary {
                listing: GroupListing {
                    group: "billing".to_owned(),
                    group_type: GroupType::Classic,
                    state: GroupState::Stable,
                    protocol_type: "consumer".to_owned(),
                    coordinator: 1,
                },
                members: Some(1),
                state: GroupState::Stable,
                topics: lag.topics(),
                lag: Some(lag),
                error: None,
            }],
            failed_brokers: Vec::new(),
            requests: RequestCounts::default(),
        }
    }

    #[test]
    fn the_group_list_the_tui_reads_brings_stuck_and_moving_rate_limited() {
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        let start = Instant::now();
        let reads = [(10, 20), (10, 30), (10, 40), (45, 50)];
        for (i, (committed, end)) in reads.into_iter().enumerate() {
            let request = u64::try_from(i).unwrap_or(0) + 1;
            state.now = start + Duration::from_secs(5 * request);
            state.wall = SystemTime::now();
            state.groups.list.in_flight = Some(request);
            let overview = Arc::new(list(committed, end));
            crate::app::groups::receive_list(&mut state, request, Ok(overview));
        }
        assert_eq!(kinds(&state), ["group_stuck", "group_moving"]);
        assert_eq!(state.screens.events.ring[0].group(), Some("billing"));

        // The same gate as the movement log: over the limit, folded.
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        state.sources = EventSources::with_limits(crate::meta::Limits {
            per_kind: 0,
            ..crate::meta::Limits::default()
        });
        for (i, (committed, end)) in reads.into_iter().take(3).enumerate() {
            let request = u64::try_from(i).unwrap_or(0) + 1;
            state.now = start + Duration::from_secs(5 * request);
            state.groups.list.in_flight = Some(request);
            let overview = Arc::new(list(committed, end));
            crate::app::groups::receive_list(&mut state, request, Ok(overview));
        }
        assert_eq!(kinds(&state), ["events_suppressed"]);
        assert!(matches!(
            state.screens.events.ring[0].kind,
            crate::meta::MovementKind::EventsSuppressed {
                suppressed: "group_stuck",
                count: 1,
                ..
            }
        ));
    }
}
