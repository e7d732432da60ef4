//! The Cluster screen without a cluster: whole-screen snapshots (narrow and
//! wide) of the quorum, features and a reassignment in progress, and
//! `update` tests — asked for only while shown, stale answers dropped.

use std::sync::Arc;

use kscope::app::screens::{self, cluster};
use kscope::app::{Action, AppState, Code, Effect, Screen, update};
use kscope::inspect::quorum::{Quorum, QuorumReplica};
use kscope::inspect::{ClusterInfo, Feature, Reassignment};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

fn replica(node_id: i32, role: &'static str, lag: i64) -> QuorumReplica {
    // The fixture's wall clock is 1_800_000_100 s.
    QuorumReplica {
        node_id,
        role,
        log_end_offset: 500 - lag,
        lag,
        last_fetch_ms: Some(1_800_000_098_000),
        last_caught_up_ms: (lag == 0).then_some(1_800_000_098_000),
    }
}

fn info() -> ClusterInfo {
    ClusterInfo {
        cluster_id: Some("test-cluster-id".to_owned()),
        controller_id: Some(2),
        quorum: Ok(Quorum {
            leader_id: 2,
            leader_epoch: 4,
            high_watermark: 500,
            replicas: vec![
                replica(2, "leader", 0),
                replica(1, "voter", 12),
                replica(3, "observer", 0),
            ],
        }),
        features: Ok(vec![
            Feature {
                name: "group.version".to_owned(),
                supported_min: 0,
                supported_max: 1,
                finalized: Some(1),
            },
            Feature {
                name: "metadata.version".to_owned(),
                supported_min: 7,
                supported_max: 27,
                finalized: Some(27),
            },
        ]),
        finalized_epoch: Some(9),
        reassignments: Ok(vec![Reassignment {
            topic: "orders".to_owned(),
            partition: 1,
            replicas: vec![1, 2, 3],
            adding: vec![3],
            removing: vec![1],
        }]),
    }
}

fn open(s: &mut AppState, snap: &MetadataSnapshot) -> Vec<Effect> {
    keys(s, snap, ":cluster");
    press(s, snap, Code::Enter)
}

fn request_of(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|e| match e {
        Effect::Query(screens::Query::Cluster(cluster::Query { request })) => Some(*request),
        _ => None,
    })
}

/// The worker's answer to request `request`.
fn answer(request: u64, info: Arc<ClusterInfo>) -> Action {
    Action::Screen(screens::Msg::Cluster(cluster::Msg::Answer {
        request,
        info,
    }))
}

#[test]
fn cluster_screen() {
    let snap = cluster();
    for (label, width, height) in [("narrow", 80, 18), ("wide", 150, 18)] {
        let mut s = state(&snap, width, height);
        let request = request_of(&open(&mut s, &snap)).expect("asked for");
        let info = Arc::new(info());
        update(&mut s, answer(request, info), &snap);
        insta::assert_snapshot!(format!("cluster_{label}"), render(&s, &snap));
    }
}

#[test]
fn asked_only_while_shown_and_stale_answers_dropped() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    let effects = update(
        &mut s,
        Action::Resize {
            width: 100,
            height: 20,
        },
        &snap,
    );
    assert_eq!(request_of(&effects), None, "not on the Topics screen");
    let request = request_of(&open(&mut s, &snap)).expect("asked for");
    assert_eq!(s.view().screen, Screen::cluster());
    let stale = Arc::new(info());
    update(&mut s, answer(request + 7, stale), &snap);
    assert!(s.view().rows.is_empty(), "a stale answer is dropped");
    update(&mut s, answer(request, Arc::new(info())), &snap);
    assert_eq!(s.view().rows.len(), 3);
    press(&mut s, &snap, Code::Esc);
    let (now, wall) = (s.now + cluster::INTERVAL, s.wall);
    let effects = update(&mut s, Action::Tick { now, wall }, &snap);
    assert_eq!(
        request_of(&effects),
        None,
        "not asked once the screen is left"
    );
}
