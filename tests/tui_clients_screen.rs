//! Who touches a topic without a cluster: `:clients orders` asks for it,
//! the answer is drawn (snapshot: a failed section, a group with a member,
//! no authorizer), a stale answer is dropped, and Enter on the group's row
//! opens its offsets.

use kscope::app::screens;
use kscope::app::screens::topic_clients::{Msg, Query};
use kscope::app::{Action, AppState, Code, Effect, Screen, update};
use kscope::groups::{ReadingGroup, ReadingMember, TopicReaders};
use kscope::inspect::clients::{Section, TopicClients, TopicPrincipals};

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

/// The fixture's wall clock, in ms since the epoch.
const NOW_MS: i64 = 1_800_000_100_000;

fn answer() -> TopicClients {
    let member = ReadingMember {
        member_id: "m-1".to_owned(),
        instance_id: None,
        client_id: "billing-reader".to_owned(),
        client_host: "/10.0.0.5".to_owned(),
        partitions: vec![0, 1, 2],
    };
    TopicClients {
        topic: "orders".to_owned(),
        partitions: 3,
        writers: Section {
            read_at_ms: NOW_MS,
            answer: Err("not allowed".to_owned()),
        },
        readers: Section {
            read_at_ms: NOW_MS,
            answer: Ok(TopicReaders {
                groups: vec![ReadingGroup {
                    group: "billing".to_owned(),
                    group_type: "consumer".to_owned(),
                    state: "Stable".to_owned(),
                    coordinator: 1,
                    members: vec![member],
                    error: None,
                }],
                failed_brokers: Vec::new(),
            }),
        },
        principals: Section {
            read_at_ms: NOW_MS,
            answer: Ok(TopicPrincipals::None),
        },
    }
}

/// The answer to `request` as the worker sends it.
fn answered(request: u64) -> Action {
    Action::Screen(screens::Msg::Clients(Msg::Answer {
        request,
        answer: Ok(answer()),
    }))
}

fn request_of(effects: &[Effect]) -> Option<(u64, String)> {
    effects.iter().find_map(|e| match e {
        Effect::Query(screens::Query::Clients(Query { request, topic })) => {
            Some((*request, topic.clone()))
        }
        _ => None,
    })
}

fn open(s: &mut AppState, snap: &kscope::meta::MetadataSnapshot) -> (u64, String) {
    keys(s, snap, ":clients orders");
    request_of(&press(s, snap, Code::Enter)).expect("asked for")
}

#[test]
fn clients_screen() {
    let snap = cluster();
    let mut s = state(&snap, 100, 14);
    let (request, topic) = open(&mut s, &snap);
    assert_eq!(topic, "orders");
    update(&mut s, answered(request + 5), &snap);
    assert!(s.view().rows.is_empty(), "a stale answer is dropped");
    update(&mut s, answered(request), &snap);
    insta::assert_snapshot!("clients_orders", render(&s, &snap));
    keys(&mut s, &snap, "j");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().screen, Screen::offsets("billing"));
}
