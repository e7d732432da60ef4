//! A group's commit history (`H` on its offsets) without a cluster: a
//! whole-screen snapshot with commits and a group record, one with a read
//! that found nothing and one with a read that was refused, and `update`
//! tests — `H` asks the worker, a stale answer is dropped, Esc goes back
//! and nothing is asked once left.

use std::sync::Arc;

use kscope::app::failure::{self, Failure};
use kscope::app::screens::commits::{self, Answer, Entry, History, Kind, Msg, Query};
use kscope::app::screens::{self, Screen::Commits};
use kscope::app::{Action, AppState, Code, Effect, Screen, update};
use kscope::browse::internal::consumer_offsets::{GroupMetadata, Member, OffsetCommit};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

/// The fixture's wall clock, in ms since the epoch.
const NOW_MS: i64 = 1_800_000_100_000;

fn commit(offset: i64, partition: i32, committed: i64, ago_ms: i64) -> Entry {
    Entry {
        offset,
        timestamp: NOW_MS - ago_ms,
        kind: Kind::Commit {
            topic: "orders".to_owned(),
            partition,
            commit: OffsetCommit {
                version: 3,
                offset: committed,
                leader_epoch: 2,
                metadata: String::new(),
                commit_timestamp: NOW_MS - ago_ms,
                expire_timestamp: None,
            },
        },
    }
}

fn history(entries: Vec<Entry>) -> History {
    History {
        partition: 31,
        partitions: 50,
        log: (0, 1_204),
        from: 0,
        scanned: 1_204,
        entries,
    }
}

fn found() -> History {
    let member = Member {
        member_id: "consumer-1-4b1d".to_owned(),
        group_instance_id: None,
        client_id: "consumer-1".to_owned(),
        client_host: "/10.0.0.7".to_owned(),
        rebalance_timeout: Some(300_000),
        session_timeout: 45_000,
        subscription_bytes: 20,
        assignment_bytes: 30,
    };
    let group = Entry {
        offset: 1_150,
        timestamp: NOW_MS - 60_000,
        kind: Kind::Group(GroupMetadata {
            version: 3,
            protocol_type: "consumer".to_owned(),
            generation: 7,
            protocol: Some("range".to_owned()),
            leader: Some("consumer-1-4b1d".to_owned()),
            current_state_timestamp: Some(NOW_MS - 60_000),
            members: vec![member],
        }),
    };
    history(vec![
        commit(1_203, 1, 420, 1_000),
        commit(1_202, 0, 377, 1_000),
        commit(1_180, 1, 400, 6_000),
        Entry {
            offset: 1_170,
            timestamp: NOW_MS - 30_000,
            kind: Kind::CommitDeleted {
                topic: "orders".to_owned(),
                partition: 2,
            },
        },
        group,
    ])
}

fn request_of(effects: &[Effect]) -> Option<(u64, String)> {
    effects.iter().find_map(|e| match e {
        Effect::Query(screens::Query::Commits(Query { request, group })) => {
            Some((*request, group.clone()))
        }
        _ => None,
    })
}

/// The answer to `request` as the worker sends it.
fn answered(request: u64, answer: Answer) -> Action {
    Action::Screen(screens::Msg::Commits(Msg::Answer {
        request,
        answer: Arc::new(answer),
    }))
}

/// `:group billing`, `H`: the request asked.
fn open(s: &mut AppState, snap: &MetadataSnapshot) -> Option<(u64, String)> {
    keys(s, snap, ":group billing");
    press(s, snap, Code::Enter);
    request_of(&keys(s, snap, "H"))
}

#[test]
fn commit_history_screen() {
    let snap = cluster();
    let refused = Err(Failure::new(
        failure::Kind::Final,
        "not authorized to read __consumer_offsets: the commit history needs READ \
and DESCRIBE on it (topic '__consumer_offsets': TOPIC_AUTHORIZATION_FAILED)",
    ));
    for (name, answer) in [
        ("found", Ok(found())),
        ("none", Ok(history(Vec::new()))),
        ("refused", refused),
    ] {
        for (label, width, height) in [("narrow", 80, 14), ("wide", 150, 14)] {
            let mut s = state(&snap, width, height);
            let (request, _) = open(&mut s, &snap).expect("asked for");
            update(&mut s, answered(request, answer.clone()), &snap);
            insta::assert_snapshot!(format!("commits_{name}_{label}"), render(&s, &snap));
        }
    }
}

#[test]
fn h_opens_the_history_and_esc_goes_back() {
    let snap = cluster();
    let mut s = state(&snap, 120, 20);
    let (request, group) = open(&mut s, &snap).expect("asked for");
    assert_eq!(group, "billing");
    assert_eq!(
        s.view().screen,
        Commits(commits::Group {
            group: "billing".to_owned()
        })
    );
    update(&mut s, answered(request + 5, Ok(found())), &snap);
    assert!(s.view().rows.is_empty(), "a stale answer is dropped");
    update(&mut s, answered(request, Ok(found())), &snap);
    assert_eq!(s.view().rows, [0, 1, 2, 3, 4], "newest first");
    press(&mut s, &snap, Code::Esc);
    assert_eq!(s.view().screen, Screen::offsets("billing"));
    let (now, wall) = (s.now + commits::INTERVAL, s.wall);
    let effects = update(&mut s, Action::Tick { now, wall }, &snap);
    assert_eq!(request_of(&effects), None, "not asked once left");
}
