use bytes::{BufMut, Bytes, BytesMut};

use super::*;
use crate::conn::protocol::indexmap::IndexMap;
use crate::conn::protocol::records::{
    Compression, Record as KRecord, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};

/// Room for every record of an answer: decode it whole.
const ALL: usize = usize::MAX;

const LIMITS: Limits = Limits {
    isolation: Isolation::ReadCommitted,
    max_batch: 1 << 20,
    inflate_cap: 1 << 24,
};

/// One batch of `count` records from `first`, values of `value_len` bytes.
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
            // Constant offset - sequence: the encoder keeps them in one batch.
            sequence: i32::try_from(offset).unwrap_or(0),
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
    let outcome = cursor.apply(
        &answer(batch(0, 6, 10), 6),
        LIMITS,
        ALL,
        &mut out,
        &mut notices,
    );
    assert_eq!(outcome, Outcome::Read);
    assert_eq!(offsets(&out), [2, 3]);
    assert_eq!(cursor.next, 6);
    assert_eq!(cursor.state, State::Done);
}

#[test]
fn the_same_batch_from_a_new_leader_is_not_shown_twice() {
    let mut cursor = Cursor::new(0, 0, None);
    let (mut out, mut notices) = (vec![], vec![]);
    cursor.apply(
        &answer(batch(0, 3, 10), 3),
        LIMITS,
        ALL,
        &mut out,
        &mut notices,
    );
    let stale = Answer {
        error_code: ErrorCode::NotLeaderOrFollower.code(),
        ..answer(Bytes::new(), -1)
    };
    assert_eq!(
        cursor.apply(&stale, LIMITS, ALL, &mut out, &mut notices),
        Outcome::Stale(ErrorCode::NotLeaderOrFollower)
    );
    assert_eq!(cursor.next, 3, "a stale answer moves nothing");
    let mut again = BytesMut::new();
    again.put(batch(0, 3, 10));
    again.put(batch(3, 2, 10));
    cursor.apply(
        &answer(again.freeze(), 5),
        LIMITS,
        ALL,
        &mut out,
        &mut notices,
    );
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
        ALL,
        &mut out,
        &mut notices,
    );
    assert_eq!(cursor.wide, Some(whole.len()));
    assert!(out.is_empty());
    cursor.apply(
        &answer(whole.clone(), 1),
        LIMITS,
        ALL,
        &mut out,
        &mut notices,
    );
    assert_eq!((offsets(&out), cursor.wide), (vec![0], None));

    let small = Limits {
        max_batch: 2000,
        ..LIMITS
    };
    let mut cursor = Cursor::new(0, 0, None);
    cursor.apply(
        &answer(whole.slice(..1000), 1),
        small,
        ALL,
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
    cursor.apply(&open, LIMITS, ALL, &mut out, &mut notices);
    cursor.apply(&open, LIMITS, ALL, &mut out, &mut notices);
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

/// One batch of `count` records from `first` by `producer` (-1: none);
/// `marker` makes it a control batch (true: abort, false: commit).
fn txn_batch(first: i64, count: i64, producer: i64, marker: Option<bool>) -> Bytes {
    let records: Vec<KRecord> = (first..first + count)
        .map(|offset| KRecord {
            transactional: producer >= 0,
            control: marker.is_some(),
            delete_horizon: false,
            partition_leader_epoch: 1,
            producer_id: producer,
            producer_epoch: 0,
            timestamp_type: TimestampType::Creation,
            offset,
            sequence: i32::try_from(offset).unwrap_or(0),
            timestamp: offset,
            key: marker.map(|abort| Bytes::from(vec![0, 0, 0, u8::from(!abort)])),
            value: Some(Bytes::from(format!("v{offset}"))),
            headers: IndexMap::new(),
        })
        .collect();
    let mut buf = BytesMut::new();
    let done = RecordBatchEncoder::encode(
        &mut buf,
        &records,
        &RecordEncodeOptions {
            version: 2,
            compression: Compression::Gzip,
        },
    );
    assert!(done.is_ok());
    buf.freeze()
}

fn joined(batches: &[Bytes]) -> Bytes {
    let mut all = BytesMut::new();
    for b in batches {
        all.put(b.clone());
    }
    all.freeze()
}

#[test]
fn an_answer_decoded_a_batch_at_a_time_shows_every_record_once_and_stops_at_the_end() {
    let whole = joined(&[
        batch(0, 3, 10),
        batch(3, 3, 10),
        batch(6, 3, 10),
        batch(9, 3, 10),
    ]);
    let mut cursor = Cursor::new(0, 1, Some(11));
    let (mut out, mut notices) = (vec![], vec![]);
    cursor.apply(&answer(whole, 12), LIMITS, 1, &mut out, &mut notices);
    assert_eq!((offsets(&out), cursor.next), (vec![1, 2], 3));
    assert!(cursor.rest.is_some(), "three batches kept undecoded");
    assert_eq!(cursor.state, State::Active);
    let mut nexts = vec![];
    while cursor.rest.is_some() {
        cursor.fill(LIMITS, 1, &mut out, &mut notices);
        nexts.push(cursor.next);
    }
    assert_eq!(
        nexts,
        [6, 9, 12],
        "one batch a call, the position after each"
    );
    assert_eq!(offsets(&out), (1..11).collect::<Vec<_>>());
    assert_eq!(cursor.state, State::Done);
    assert!(notices.is_empty());
}

#[test]
fn the_room_given_decides_how_many_batches_are_inflated() {
    let whole = joined(&[batch(0, 2, 100), batch(2, 2, 100), batch(4, 2, 100)]);
    let mut cursor = Cursor::new(0, 0, None);
    let (mut out, mut notices) = (vec![], vec![]);
    let two = 4 * (100 + std::mem::size_of::<Record>());
    cursor.apply(&answer(whole, 6), LIMITS, two, &mut out, &mut notices);
    assert_eq!((offsets(&out), cursor.next), (vec![0, 1, 2, 3], 4));
    cursor.fill(LIMITS, two, &mut out, &mut notices);
    assert_eq!((out.len(), cursor.next), (6, 6));
    assert!(cursor.rest.is_none());
    assert_eq!(cursor.state, State::Active, "following: never done");
}

#[test]
fn a_partial_batch_after_a_split_is_asked_again_not_widened() {
    let last = batch(6, 3, 10);
    let whole = joined(&[batch(0, 3, 10), batch(3, 3, 10), last.slice(..20)]);
    let mut cursor = Cursor::new(0, 0, None);
    let (mut out, mut notices) = (vec![], vec![]);
    cursor.apply(&answer(whole, 9), LIMITS, 1, &mut out, &mut notices);
    while cursor.rest.is_some() {
        cursor.fill(LIMITS, 1, &mut out, &mut notices);
    }
    assert_eq!(offsets(&out), [0, 1, 2, 3, 4, 5]);
    assert_eq!((cursor.next, cursor.wide), (6, None));
    assert_eq!(
        cursor.read_bytes,
        u64::try_from(2 * batch(0, 3, 10).len()).unwrap(),
        "the partial batch was not read"
    );
}

#[test]
fn aborted_transactions_stay_hidden_across_the_split() {
    // Producer 7's transaction from offset 0 is aborted by its marker at 3;
    // its next transaction (4) is not. Producer 8 writes outside any.
    let batches = [
        txn_batch(0, 1, 7, None),
        txn_batch(1, 1, -1, None),
        txn_batch(2, 1, 7, None),
        txn_batch(3, 1, 7, Some(true)),
        txn_batch(4, 1, 7, None),
        txn_batch(5, 1, -1, None),
    ];
    let aborted = Answer {
        aborted: vec![(7, 0)],
        ..answer(joined(&batches), 6)
    };
    let mut whole_out = vec![];
    Cursor::new(0, 0, None).apply(&aborted, LIMITS, ALL, &mut whole_out, &mut vec![]);
    assert_eq!(offsets(&whole_out), [1, 4, 5]);

    let mut cursor = Cursor::new(0, 0, None);
    let (mut out, mut notices) = (vec![], vec![]);
    cursor.apply(&aborted, LIMITS, 1, &mut out, &mut notices);
    assert_eq!((offsets(&out), cursor.next), (vec![1], 2), "split after 1");
    let mut steps = 0;
    while cursor.rest.is_some() {
        cursor.fill(LIMITS, 1, &mut out, &mut notices);
        steps += 1;
    }
    assert_eq!(
        offsets(&out),
        [1, 4, 5],
        "the same records as decoded whole"
    );
    assert_eq!((steps, cursor.next), (2, 6));
    assert!(notices.is_empty());
}

/// A cursor at `next` stopping at `stop` that keeps what the first batch
/// holds before `next`, from `floor` on (`Options::keep_before`).
fn keeping(next: i64, stop: i64, floor: i64) -> Cursor {
    let mut cursor = Cursor::new(0, next, Some(stop));
    cursor.keep_from = Some(floor);
    cursor
}

#[test]
fn the_first_batchs_records_before_the_position_are_kept_when_asked() {
    // A window 5..12 whose fetch from 5 answers the batch 2..8 whole.
    let whole = joined(&[batch(2, 6, 10), batch(8, 6, 10)]);
    let (mut out, mut notices) = (vec![], vec![]);
    let mut cursor = keeping(5, 12, 0);
    cursor.apply(
        &answer(whole.clone(), 14),
        LIMITS,
        ALL,
        &mut out,
        &mut notices,
    );
    assert_eq!(offsets(&out), (2..12).collect::<Vec<_>>());
    assert_eq!(
        (cursor.from, cursor.next, cursor.state),
        (2, 14, State::Done)
    );
    assert_eq!(cursor.keep_from, None, "only the first batch");
    assert_eq!(cursor.read_bytes, u64::try_from(whole.len()).unwrap());

    // Never before the floor (the log start inside that batch).
    out.clear();
    let mut cursor = keeping(5, 12, 4);
    cursor.apply(
        &answer(whole.clone(), 14),
        LIMITS,
        ALL,
        &mut out,
        &mut notices,
    );
    assert_eq!(offsets(&out), (4..12).collect::<Vec<_>>());
    assert_eq!(cursor.from, 4);

    // Not asked (every other reader): unchanged.
    out.clear();
    let mut cursor = Cursor::new(0, 5, Some(12));
    cursor.apply(&answer(whole, 14), LIMITS, ALL, &mut out, &mut notices);
    assert_eq!(offsets(&out), (5..12).collect::<Vec<_>>());
    assert_eq!(cursor.from, 5);
    assert!(notices.is_empty());
}

#[test]
fn keeping_takes_only_the_batch_holding_the_position_and_survives_a_retry() {
    let (mut out, mut notices) = (vec![], vec![]);
    // A batch wholly before the position (an old message set) is passed
    // over, not kept: the next window still reads it.
    let whole = joined(&[batch(0, 3, 10), batch(3, 4, 10), batch(7, 3, 10)]);
    let mut cursor = keeping(4, 10, 0);
    let stale = Answer {
        error_code: ErrorCode::NotLeaderOrFollower.code(),
        ..answer(Bytes::new(), -1)
    };
    cursor.apply(&stale, LIMITS, ALL, &mut out, &mut notices);
    assert_eq!(cursor.keep_from, Some(0), "a stale answer decoded nothing");
    // Decoded a batch at a time: the later batches keep nothing before.
    cursor.apply(&answer(whole, 10), LIMITS, 1, &mut out, &mut notices);
    while cursor.rest.is_some() {
        cursor.fill(LIMITS, 1, &mut out, &mut notices);
    }
    assert_eq!(offsets(&out), (3..10).collect::<Vec<_>>());
    assert_eq!((cursor.from, cursor.next), (3, 10));

    // The batch answered starts after the position (compacted away
    // before it): nothing to keep, the reading starts where it was put.
    out.clear();
    let mut cursor = keeping(4, 10, 0);
    cursor.apply(
        &answer(batch(6, 4, 10), 10),
        LIMITS,
        ALL,
        &mut out,
        &mut notices,
    );
    assert_eq!(offsets(&out), [6, 7, 8, 9]);
    assert_eq!(cursor.from, 4);
    assert!(notices.is_empty());
}

#[test]
fn a_kept_batch_of_an_aborted_transaction_stays_hidden() {
    // Producer 7's transaction 0..3 is aborted by its marker at 3; a fetch
    // from 1 answers the batch 0..3 whole: kept as read, nothing shown.
    let batches = [
        txn_batch(0, 3, 7, None),
        txn_batch(3, 1, 7, Some(true)),
        txn_batch(4, 2, -1, None),
    ];
    let aborted = Answer {
        aborted: vec![(7, 0)],
        ..answer(joined(&batches), 6)
    };
    let (mut out, mut notices) = (vec![], vec![]);
    let mut cursor = keeping(1, 6, 0);
    cursor.apply(&aborted, LIMITS, ALL, &mut out, &mut notices);
    assert_eq!(offsets(&out), [4, 5]);
    assert_eq!(cursor.from, 0, "read, if hidden: not read again");
}
