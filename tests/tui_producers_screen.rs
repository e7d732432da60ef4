//! The partition detail's producers and transactions without a cluster:
//! whole-screen snapshots (narrow and wide) with an open transaction and
//! with none, and `update` tests — `T` on a partition opens it, asked for
//! only while shown, stale answers dropped.

use std::sync::Arc;

use kscope::app::screens::producers::{self, Answer, Msg, Partition, Query};
use kscope::app::screens::{self, Screen::Producers};
use kscope::app::{Action, AppState, Code, Effect, update};
use kscope::inspect::transactions::{OpenTransaction, Producer, TxnPartition};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

/// The fixture's wall clock, in ms since the epoch.
const NOW_MS: i64 = 1_800_000_100_000;

fn producer(id: i64, ago_ms: i64, txn: Option<i64>) -> Producer {
    Producer {
        producer_id: id,
        producer_epoch: 0,
        last_sequence: 41,
        last_timestamp_ms: NOW_MS - ago_ms,
        coordinator_epoch: -1,
        txn_start_offset: txn,
    }
}

fn answer(open: bool) -> Answer {
    let transactions = if open {
        vec![OpenTransaction {
            transactional_id: "billing-writer-1".to_owned(),
            state: "Ongoing".to_owned(),
            producer_id: 2001,
            producer_epoch: 4,
            start_ms: NOW_MS - 95_000,
            timeout_ms: 60_000,
            coordinator: 2,
            partitions: vec![TxnPartition {
                topic: "orders".to_owned(),
                partition: 1,
            }],
        }]
    } else {
        Vec::new()
    };
    Answer {
        producers: Ok(vec![
            producer(2001, 2_000, open.then_some(1_200)),
            producer(1007, 300_000, None),
        ]),
        transactions,
        failed: Vec::new(),
    }
}

fn request_of(effects: &[Effect]) -> Option<(u64, String, i32)> {
    effects.iter().find_map(|e| match e {
        Effect::Query(screens::Query::Producers(Query {
            request,
            topic,
            partition,
        })) => Some((*request, topic.clone(), *partition)),
        _ => None,
    })
}

/// The answer to `request` as the worker sends it.
fn answered(request: u64, answer: Arc<Answer>) -> Action {
    Action::Screen(screens::Msg::Producers(Msg::Answer { request, answer }))
}

/// `:partitions orders`, down to partition 1, `T`.
fn open(s: &mut AppState, snap: &MetadataSnapshot) -> Option<(u64, String, i32)> {
    keys(s, snap, ":partitions orders");
    press(s, snap, Code::Enter);
    keys(s, snap, "j");
    request_of(&keys(s, snap, "T"))
}

#[test]
fn producers_screen() {
    let snap = cluster();
    for open_txn in [true, false] {
        for (label, width, height) in [("narrow", 80, 16), ("wide", 150, 16)] {
            let mut s = state(&snap, width, height);
            let (request, ..) = open(&mut s, &snap).expect("asked for");
            let answer = Arc::new(answer(open_txn));
            update(&mut s, answered(request, answer), &snap);
            let name = if open_txn { "open" } else { "none" };
            insta::assert_snapshot!(format!("producers_{name}_{label}"), render(&s, &snap));
        }
    }
}

#[test]
fn t_opens_the_selected_partition_and_stale_answers_are_dropped() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    let (request, topic, partition) = open(&mut s, &snap).expect("asked for");
    assert_eq!((topic.as_str(), partition), ("orders", 1));
    assert_eq!(
        s.view().screen,
        Producers(Partition {
            topic: "orders".to_owned(),
            partition: 1
        })
    );
    let stale = Arc::new(answer(true));
    update(&mut s, answered(request + 5, stale), &snap);
    assert!(s.view().rows.is_empty(), "a stale answer is dropped");
    let answer = Arc::new(answer(true));
    update(&mut s, answered(request, answer), &snap);
    assert_eq!(s.view().rows.len(), 2);
    press(&mut s, &snap, Code::Esc);
    let (now, wall) = (s.now + producers::INTERVAL, s.wall);
    let effects = update(&mut s, Action::Tick { now, wall }, &snap);
    assert_eq!(request_of(&effects), None, "not asked once left");
}
