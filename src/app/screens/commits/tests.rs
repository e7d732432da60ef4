//! The commit history's model: a fabricated answer becomes rows newest
//! first, a read that finds nothing says how much it scanned, a failure
//! says so in words, a stale answer is dropped.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use bytes::Bytes;

use super::read::{Entry, History, Kind, entry};
use super::*;
use crate::app::failure::Failure;
use crate::browse::internal::consumer_offsets::{GroupMetadata, OffsetCommit};
use crate::browse::{Codec, Record, TimestampType};
use crate::columns::cells;

fn commit(offset: i64, topic: &str, partition: i32, committed: i64, at: i64) -> Entry {
    Entry {
        offset,
        timestamp: at,
        kind: Kind::Commit {
            topic: topic.to_owned(),
            partition,
            commit: OffsetCommit {
                version: 3,
                offset: committed,
                leader_epoch: 4,
                metadata: if committed == 7 { "x".to_owned() } else { String::new() },
                commit_timestamp: at,
                expire_timestamp: None,
            },
        },
    }
}

fn history(entries: Vec<Entry>) -> History {
    History {
        partition: 12,
        partitions: 50,
        log: (0, 900),
        from: 0,
        scanned: 900,
        entries,
    }
}

fn clock() -> Clock {
    Clock {
        now: Instant::now(),
        now_ms: 1_800_000_000_000,
        wall: SystemTime::now(),
    }
}

fn shown() -> Group {
    Group {
        group: "billing".to_owned(),
    }
}

/// Ask, then take `answer` to that request: the store.
fn answered(answer: Answer) -> Store {
    let mut store = Store::default();
    let mut ids = RequestIds::default();
    let query = shown()
        .plan(&mut store, &mut ids, &super::Seen::at(Instant::now()))
        .expect("asked at once");
    assert_eq!(query.group, "billing");
    Group::receive(
        &mut store,
        Msg::Answer {
            request: query.request + 1,
            answer: Arc::new(Ok(history(Vec::new()))),
        },
        clock(),
    );
    assert_eq!(Group::answers(&store), 0, "a stale answer is dropped");
    let msg = Msg::Answer {
        request: query.request,
        answer: Arc::new(answer),
    };
    Group::receive(&mut store, msg, clock());
    store
}

#[test]
fn an_answer_becomes_rows_newest_first() {
    let group = Entry {
        offset: 880,
        timestamp: 1_800_000_000_000,
        kind: Kind::Group(GroupMetadata {
            version: 3,
            protocol_type: "consumer".to_owned(),
            generation: 5,
            protocol: Some("range".to_owned()),
            leader: Some("m-1".to_owned()),
            current_state_timestamp: None,
            members: Vec::new(),
        }),
    };
    let entries = vec![
        commit(899, "orders", 1, 42, 1_800_000_003_000),
        commit(890, "orders", 0, 7, 1_800_000_002_000),
        group,
    ];
    let store = answered(Ok(history(entries)));
    let rows = shown().rows(&store, &mut |_| true);
    assert_eq!(rows, [0, 1, 2], "in the answer's order: newest first");
    let grid = shown().visible(&store, (clock(), &crate::paint::theme::Theme::mono()), rows.into_iter());
    let texts: Vec<Vec<String>> = grid.rows.iter().map(|(cells, _)| cells.clone()).collect();
    insta::assert_debug_snapshot!(texts);
    let only_orders_0 = shown().rows(&store, &mut |text| text.contains("metadata 'x'"));
    assert_eq!(only_orders_0, [1]);
}

#[test]
fn a_read_that_finds_nothing_says_how_much_it_scanned() {
    let store = answered(Ok(history(Vec::new())));
    assert!(shown().rows(&store, &mut |_| true).is_empty());
    let Some(Ok(held)) = store.held_for(&"billing".to_owned()) else {
        panic!("held");
    };
    assert_eq!(
        draw::summary("billing", held),
        "no record of group 'billing' in partition 12 of 50 of __consumer_offsets: \
offsets 0..900 (log 0..900), 900 records read"
    );
}

#[test]
fn a_failure_is_held_in_words() {
    let store = answered(Err(Failure::new(
        crate::app::failure::Kind::Final,
        "not authorized to read __consumer_offsets",
    )));
    assert!(shown().rows(&store, &mut |_| true).is_empty());
    assert!(matches!(store.held_for(&"billing".to_owned()), Some(Err(_))));
}

#[test]
fn only_the_groups_records_are_kept() {
    let key = |group: &str| {
        let mut k = vec![0, 1];
        k.extend_from_slice(&u16::try_from(group.len()).unwrap().to_be_bytes());
        k.extend_from_slice(group.as_bytes());
        k.extend_from_slice(&[0, 6]);
        k.extend_from_slice(b"orders");
        k.extend_from_slice(&3_i32.to_be_bytes());
        Bytes::from(k)
    };
    let record = |group: &str| Record {
        partition: 12,
        offset: 5,
        leader_epoch: 0,
        timestamp: 1,
        timestamp_type: TimestampType::Create,
        key: Some(key(group)),
        value: None,
        headers: Vec::new(),
        codec: Codec::None,
        size: 0,
    };
    assert_eq!(entry("other", &record("billing")), None);
    let kept = entry("billing", &record("billing")).expect("the group's");
    assert_eq!(
        kept.kind,
        Kind::CommitDeleted {
            topic: "orders".to_owned(),
            partition: 3
        }
    );
    assert_eq!(cells(&columns::table(), &&kept)[1], "commit deleted");
}

#[test]
fn a_refusal_says_what_reading_needs() {
    use crate::conn::ErrorCode;
    let denied = crate::browse::Error::Meta(crate::meta::Error::from_code(
        ErrorCode::TopicAuthorizationFailed,
        Some("topic '__consumer_offsets'".to_owned()),
    ));
    let said = read::failure(&denied);
    assert!(
        said.starts_with(
            "not authorized to read __consumer_offsets: the commit history needs READ and DESCRIBE on it"
        ),
        "{said}"
    );
    let gone = crate::browse::Error::TopicNotFound("__consumer_offsets".to_owned());
    assert_eq!(
        read::failure(&gone),
        "cannot read __consumer_offsets: topic '__consumer_offsets' not found"
    );
}
