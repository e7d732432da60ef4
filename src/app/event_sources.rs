//! The events the TUI derives itself, beside the movement feed (which the
//! cluster's log already rate limits), from what its screens already read:
//!
//! - the group kinds ([`GroupEvents`](crate::groups::stuck_events::GroupEvents),
//!   kept by the groups screens' store, `screens::groups`, where their reads
//!   land): the changes between two reads of the group list (`:groups`, or `L` on Topics), and a partition STUCK or
//!   moving again, a lag trend turning to growing or back, and a KIP-848
//!   group reconciling and converged, over the reads of the groups the TUI
//!   already polls — the whole list, the visible rows of a list, the group
//!   on screen. No group is read for the events' sake;
//! - `topic_config_changed` / `broker_config_changed` ([`ConfigWatch`]):
//!   the changes between two of the worker's config sweeps
//!   ([`crate::inspect::config_sweep`]: every topic's configs, 1000 a
//!   request, and the brokers' dynamic ones, every 30 s or four times as
//!   long as a sweep took), secrets masked before they are kept. The one
//!   source that reads for the events' sake: no screen reads every topic's
//!   configs;
//! - `under_min_isr` / `min_isr_restored` ([`MinIsrWatch`]): each new
//!   snapshot's ISRs against the `min.insync.replicas` of the topics whose
//!   configs the Topics and Partitions screens read, or else the last
//!   sweep's. A topic whose value is not known is not judged (no value is
//!   guessed); a topic's first look, once its value arrives, is its
//!   baseline.
//!
//! All are rate limited per kind as the movement log is: past a kind's
//! limit the rest of a storm is one counted `events_suppressed` record.

use std::sync::Arc;

use crate::inspect::Sweep;
use crate::meta::{MetadataSnapshot, MovementEvent};

use super::state::AppState;

/// Put derived `events` on the timeline.
/// Not while replaying: the recording's events, derived when it was
/// recorded, are the timeline.
pub fn publish(state: &mut AppState, events: &[MovementEvent]) {
    if events.is_empty() || state.replay.is_some() {
        return;
    }
    let arrived = super::screens::events::Msg::Arrived(events.to_vec());
    super::forward::forward(state, super::screens::Msg::Events(arrived));
}

/// Take in a config sweep: the config changes since the last one on the
/// timeline, its `min.insync.replicas` kept for the min-ISR kinds.
pub fn configs(state: &mut AppState, sweep: Arc<Sweep>) {
    let events = state.cluster.sources.configs.observe(&sweep, state.wall);
    state.cluster.sources.swept = (Some(sweep), state.cluster.sources.swept.1 + 1);
    publish(state, &events);
}

/// Look for min-ISR changes when a new snapshot, a configs answer or a
/// config sweep came since the last look: one pass over the partitions of
/// the topics whose `min.insync.replicas` is known, nothing otherwise.
pub fn min_isr(state: &mut AppState, snap: &MetadataSnapshot) {
    let sources = &mut state.cluster.sources;
    let key = (
        state.generation,
        state.screens.configs.answers,
        sources.swept.1,
    );
    if sources.looked == Some(key) {
        return;
    }
    sources.looked = Some(key);
    let configs = &state.screens.configs.topics;
    let swept = sources.swept.0.as_deref();
    let events = sources.min_isr.observe(
        snap,
        |topic| {
            configs
                .get(topic)
                .and_then(|(summary, _)| summary.min_isr)
                .or_else(|| swept.and_then(|s| s.min_isr(topic)))
        },
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
    use crate::app::screens::groups::Msg;
    use crate::app::screens::groups::columns::offsets::STUCK_READS;
    use crate::groups::stuck_events::GroupEvents;
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

    /// A sweep of `orders` with `retention.ms` set on it and its
    /// `min.insync.replicas`.
    fn swept(retention: &str, min_isr: usize) -> Arc<Sweep> {
        use crate::inspect::config_overrides::Overrides;
        use crate::inspect::config_sweep::TopicConfigs;
        use crate::inspect::{ConfigEntry, ConfigSource, ConfigType};
        let entry = ConfigEntry {
            name: "retention.ms".to_owned(),
            value: Some(retention.to_owned()),
            source: ConfigSource::DynamicTopic,
            sensitive: false,
            read_only: false,
            kind: ConfigType::Long,
            documentation: None,
            synonyms: Vec::new(),
        };
        let mut sweep = Sweep::default();
        let read = TopicConfigs {
            id: crate::meta::TopicId::NIL,
            min_isr: Some(min_isr),
            overrides: Overrides::topic(&[entry]),
        };
        sweep.topics.insert("orders".to_owned(), Some(read));
        Arc::new(sweep)
    }

    #[test]
    fn sweeps_bring_config_changes_and_the_min_isr_of_topics_no_screen_read() {
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        configs(&mut state, swept("604800000", 2));
        assert!(kinds(&state).is_empty(), "the first sweep is the baseline");
        configs(&mut state, swept("86400000", 2));
        assert_eq!(kinds(&state), ["topic_config_changed"]);
        let event = state.screens.events.ring.back().expect("an event");
        assert_eq!(event.topic.as_deref(), Some("orders"));
        assert_eq!(
            crate::columns::format::movement_detail(&event.kind),
            "retention.ms 604800000 → 86400000"
        );
        // No screen read `orders`' configs: the sweep's value judges it.
        let healthy = snapshot_with_isr("orders", &[&[1, 2, 3]]);
        let under = snapshot_with_isr("orders", &[&[1]]);
        min_isr(&mut state, &healthy);
        state.generation += 1;
        min_isr(&mut state, &under);
        assert_eq!(kinds(&state), ["topic_config_changed", "under_min_isr"]);
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
                reconciling: None,
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
            state.screens.groups.list.in_flight = Some((request, (), state.now));
            let result = Ok(Arc::new(list(committed, end)));
            crate::app::groups::receive(&mut state, Msg::List { request, result });
        }
        assert_eq!(kinds(&state), ["group_stuck", "group_moving"]);
        assert_eq!(state.screens.events.ring[0].group(), Some("billing"));

        // The same gate as the movement log: over the limit, folded.
        let mut state = AppState::new("t", Vec::new(), Keymap::default());
        let limits = crate::meta::Limits {
            per_kind: 0,
            ..crate::meta::Limits::default()
        };
        state.screens.groups.watch = GroupEvents::with_limits(STUCK_READS, limits);
        for (i, (committed, end)) in reads.into_iter().take(3).enumerate() {
            let request = u64::try_from(i).unwrap_or(0) + 1;
            state.now = start + Duration::from_secs(5 * request);
            state.screens.groups.list.in_flight = Some((request, (), state.now));
            let result = Ok(Arc::new(list(committed, end)));
            crate::app::groups::receive(&mut state, Msg::List { request, result });
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
