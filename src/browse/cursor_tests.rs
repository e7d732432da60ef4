use bytes::{BufMut, Bytes, BytesMut};

use super::*;
use crate::conn::protocol::indexmap::IndexMap;
use crate::conn::protocol::records::{
    Compression, Record as KRecord, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};

const LIMITS: Limits = Limits {
    isolation: Isolation::ReadCommitted,
    max_batch: 1 << 20,
    inflate_cap: 1 << 24,
};

fn batch(first: i64, count: i64, value_len: usize) -> Bytes {
    let records: Vec<KRecord> = (first..first + count)
        .map(|offset| KRecord {
            transactional: false,
            control: false,
            delete_horizon: false,
            partition_leader_epoch: 1,
            producer_id: -1,
            producer_epoch: -1,
            timestamp_type: TimestampType::Creation,
            offset,
            sequence: -1,
            timestamp: offset,
            key: None,
            value: Some(Bytes::from(
                (0..value_len)
                    .map(|i| {
                        u8::try_from((i * 7919 + usize::try_from(offset).unwrap_or(0)) % 251)
                            .unwrap_or(0)
                    })
                    .collect::<Vec<u8>>(),
            )),
            headers: IndexMap::new(),
        })
        .collect();
    let mut buf = BytesMut::new();
    let done = RecordBatchEncoder::encode(
        &mut buf,
        &records,
        &RecordEncodeOptions {
            version: 2,
            compression: Compression::None,
        },
    );
    assert!(done.is_ok());
    buf.freeze()
}

fn answer(records: Bytes, high: i64) -> Answer {
    Answer {
        partition: 0,
        error_code: 0,
        high_watermark: high,
        last_stable_offset: high,
        log_start_offset: 0,
        aborted: vec![],
        records,
    }
}

fn offsets(records: &[Record]) -> Vec<i64> {
    records.iter().map(|r| r.offset).collect()
}

#[test]
fn a_batch_starting_before_the_position_shows_only_what_follows_and_stops_at_the_end() {
    let mut cursor = Cursor::new(0, 2, Some(4));
    let (mut out, mut notices) = (vec![], vec![]);
    let outcome = cursor.apply(&answer(batch(0, 6, 10), 6), LIMITS, &mut out, &mut notices);
    assert_eq!(outcome, Outcome::Read);
    assert_eq!(offsets(&out), [2, 3]);
    assert_eq!(cursor.next, 6);
    assert_eq!(cursor.state, State::Done);
}

#[test]
fn the_same_batch_from_a_new_leader_is_not_shown_twice() {
    let mut cursor = Cursor::new(0, 0, None);
    let (mut out, mut notices) = (vec![], vec![]);
    cursor.apply(&answer(batch(0, 3, 10), 3), LIMITS, &mut out, &mut notices);
    let stale = Answer {
        error_code: ErrorCode::NotLeaderOrFollower.code(),
        ..answer(Bytes::new(), -1)
    };
    assert_eq!(
        cursor.apply(&stale, LIMITS, &mut out, &mut notices),
        Outcome::Stale(ErrorCode::NotLeaderOrFollower)
    );
    assert_eq!(cursor.next, 3, "a stale answer moves nothing");
    let mut again = BytesMut::new();
    again.put(batch(0, 3, 10));
    again.put(batch(3, 2, 10));
    cursor.apply(&answer(again.freeze(), 5), LIMITS, &mut out, &mut notices);
    assert_eq!(offsets(&out), [0, 1, 2, 3, 4]);
    assert!(notices.is_empty());
}

#[test]
fn a_batch_over_the_partition_budget_is_asked_alone_then_one_over_the_limit_stops() {
    let whole = batch(0, 1, 4000);
    let mut cursor = Cursor::new(0, 0, None);
    let (mut out, mut notices) = (vec![], vec![]);
    cursor.apply(
        &answer(whole.slice(..1000), 1),
        LIMITS,
        &mut out,
        &mut notices,
    );
    assert_eq!(cursor.wide, Some(whole.len()));
    assert!(out.is_empty());
    cursor.apply(&answer(whole.clone(), 1), LIMITS, &mut out, &mut notices);
    assert_eq!((offsets(&out), cursor.wide), (vec![0], None));

    let small = Limits {
        max_batch: 2000,
        ..LIMITS
    };
    let mut cursor = Cursor::new(0, 0, None);
    cursor.apply(
        &answer(whole.slice(..1000), 1),
        small,
        &mut out,
        &mut notices,
    );
    assert_eq!(cursor.state, State::Stopped);
    assert!(matches!(
        notices[..],
        [Notice::BatchTooLarge { offset: 0, .. }]
    ));
}

#[test]
fn an_open_transaction_is_said_once() {
    let mut cursor = Cursor::new(0, 0, None);
    let (mut out, mut notices) = (vec![], vec![]);
    let open = Answer {
        last_stable_offset: 2,
        ..answer(Bytes::new(), 5)
    };
    cursor.apply(&open, LIMITS, &mut out, &mut notices);
    cursor.apply(&open, LIMITS, &mut out, &mut notices);
    assert_eq!(
        notices,
        [Notice::OpenTransaction {
            partition: 0,
            lso: 2,
            high: 5
        }]
    );
    assert_eq!(cursor.bound, 2);
    assert!(notices[0].to_string().contains("LSO 2 < HW 5"));
}
