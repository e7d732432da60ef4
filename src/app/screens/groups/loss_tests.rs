//! The offsets rows' LOSS IN column over the session's stores: the config
//! summaries and disk sizes reach the groups store as its messages.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

use crate::app::AppState;
use std::time::Duration;

use crate::app::keymap::Keymap;
use crate::app::screens::groups::DetailView;
use crate::app::screens::groups::rows::offset;
use crate::app::screens::requests::Requests;
use crate::groups::GroupDetail;
use crate::groups::{
    GroupDescription, GroupLag, GroupState, GroupType, PartitionHistories, PartitionLag,
};
use crate::inspect::{ClusterSizes, LogDir, ReplicaSize, TopicReplicas, TopicSummary};

fn lag(end: i64) -> GroupLag {
    GroupLag::new(vec![PartitionLag {
        topic: "orders".into(),
        partition: 0,
        committed: Some(800),
        end: Some(end),
        start: Some(end - 1_000),
        reported: None,
    }])
}

/// `orders` 0: 1000 records of 1 KB on disk, 200 of them unread, 10
/// records a second over the group's reads.
fn state(retention_bytes: i64) -> AppState {
    let mut state = AppState::new("t", Vec::new(), Keymap::default());
    let start = Instant::now();
    let mut partitions = PartitionHistories::new(10);
    partitions.record(start, &lag(900));
    partitions.record(start + Duration::from_secs(10), &lag(1_000));
    let description = GroupDescription {
        group: "billing".to_owned(),
        group_type: GroupType::Consumer,
        state: GroupState::Stable,
        coordinator: 1,
        protocol_type: "consumer".to_owned(),
        assignor: "uniform".to_owned(),
        group_epoch: None,
        assignment_epoch: None,
        topology: None,
        members: Vec::new(),
    };
    state.screens.groups.detail = Some(DetailView {
        group: "billing".to_owned(),
        detail: Some(Arc::new(GroupDetail {
            description,
            lag: lag(1_000),
            oldest_unconsumed: BTreeMap::new(),
            oldest_unconsumed_left_out: 0,
        })),
        at: Some(start),
        error: None,
        partitions,
        owners: HashMap::new(),
        poll: Requests::default(),
    });
    let summary = TopicSummary {
        retention_bytes: Some(retention_bytes),
        ..TopicSummary::default()
    };
    state
        .screens
        .configs
        .topics
        .insert("orders".to_owned(), (summary, None));
    // The groups store's copy, as `update` hands it over.
    let answered = ["orders".to_owned()];
    crate::app::forward::shared(
        &mut state,
        crate::app::forward::Shared::Summaries(&answered),
    );
    let dir = LogDir {
        path: "/data".to_owned(),
        error: None,
        total_bytes: None,
        usable_bytes: None,
        topics: vec![TopicReplicas {
            name: "orders".to_owned(),
            partitions: vec![ReplicaSize {
                partition: 0,
                size: 1_000_000,
                offset_lag: 0,
                future: false,
            }],
        }],
    };
    state.cluster.sizes.latest = Some(Arc::new(ClusterSizes {
        brokers: BTreeMap::new(),
        topics: HashMap::new(),
        dirs: vec![(1, vec![dir])],
    }));
    let copy = crate::app::screens::groups::Msg::Sizes(state.cluster.sizes.latest.clone());
    crate::app::forward::forward(&mut state, crate::app::screens::Msg::Groups(copy));
    state
}

/// What `state`'s group offsets rows read besides the group data.
fn around(state: &AppState) -> crate::app::screens::groups::Around<'_> {
    state.screens.groups.around(state.now_ms())
}

#[test]
fn a_group_partition_limited_by_size_shows_the_size_estimate() {
    // 500 KB allowed, 200 KB unread: 300 KB of growth at 10 KB/s.
    let limited = state(500_000);
    let row = offset(&limited.screens.groups, &around(&limited), "billing", 0).expect("a row");
    assert_eq!(row.loss_in, Some(Duration::from_secs(30)));
    let unlimited = state(-1);
    let row =
        offset(&unlimited.screens.groups, &around(&unlimited), "billing", 0).expect("a row");
    assert_eq!(row.loss_in, None, "no size limit, no retention.ms read");
}

#[test]
fn the_group_screen_asks_for_sizes_only_when_a_topic_is_limited_by_size() {
    use crate::app::Effect;
    use crate::app::screen::{Screen, View};
    for (limit, asks) in [(500_000, true), (-1, false)] {
        let mut state = state(limit);
        state.link = crate::app::state::Link::Connected;
        state.stack.push(View::new(Screen::offsets("billing")));
        let mut effects = Vec::new();
        crate::app::sizes::plan(&mut state, &mut effects);
        let asked = effects
            .iter()
            .any(|e| matches!(e, Effect::FetchSizes { .. }));
        assert_eq!(asked, asks, "retention.bytes {limit}");
    }
}
