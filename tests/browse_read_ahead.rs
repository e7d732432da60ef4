//! Reading ahead of a kept answer loses, repeats and reorders nothing: the
//! real binary against a fake peer (not a Kafka broker) whose every `Fetch`
//! answer holds 40 uncompressed batches of 50 records from the offset asked
//! (400 KB: more than one decoding step) and ends inside one more batch, cut as a broker cuts an answer at its
//! byte limit. Each next fetch is asked while the answer before it is still
//! being decoded, from where its last whole batch ends; every offset must
//! come out once, in order, with the peer asked once per answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fetch_peer;

use std::process::{Command, Stdio};

use bytes::{Bytes, BytesMut};
use fetch_peer::FetchPeer;
use kscope::conn::protocol::indexmap::IndexMap;
use kscope::conn::protocol::records::{
    Compression, Record, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};

/// The partition's log: offsets 0 to `END - 1`.
const END: i64 = 40_000;
/// Records per batch, and whole batches per answer.
const BATCH: i64 = 50;
const BATCHES: i64 = 40;

/// Batch of offsets `from..from + BATCH` (fewer at the end): each value
/// names its offset, padded to 200 bytes.
fn batch(out: &mut BytesMut, from: i64) {
    let records: Vec<Record> = (from..(from + BATCH).min(END))
        .map(|offset| Record {
            transactional: false,
            control: false,
            delete_horizon: false,
            partition_leader_epoch: 0,
            producer_id: -1,
            producer_epoch: -1,
            timestamp_type: TimestampType::Creation,
            offset,
            sequence: -1,
            timestamp: 1_700_000_000_000 + offset,
            key: None,
            value: Some(Bytes::from(format!("{offset:0>200}"))),
            headers: IndexMap::new(),
        })
        .collect();
    RecordBatchEncoder::encode(
        out,
        records.iter(),
        &RecordEncodeOptions {
            version: 2,
            compression: Compression::None,
        },
    )
    .expect("encode a batch");
}

/// The answer at `offset`: whole batches from the batch holding it, then
/// the first 100 bytes of the next one.
fn answer(offset: i64) -> (i64, Bytes) {
    let start = offset - offset % BATCH;
    let mut whole = BytesMut::new();
    let mut at = start;
    while at < END && at < start + BATCH * BATCHES {
        batch(&mut whole, at);
        at += BATCH;
    }
    if at < END {
        let mut next = BytesMut::new();
        batch(&mut next, at);
        whole.extend_from_slice(&next[..100]);
    }
    (END, whole.freeze())
}

#[test]
fn every_offset_comes_out_once_in_order_when_answers_are_read_ahead() {
    let peer = FetchPeer::start(END, answer);
    let home = tempfile::tempdir().expect("home");
    let out = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .arg("-b")
        .arg(&peer.address)
        .args(["consume", "t", "--from", "beginning", "-o", "raw"])
        .stdin(Stdio::null())
        .output()
        .expect("run kscope");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "kscope failed: {stderr}");
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let offsets: Vec<i64> = stdout
        .lines()
        .map(|line| line.parse().expect("a value naming its offset"))
        .collect();
    let expected: Vec<i64> = (0..END).collect();
    assert!(
        offsets == expected,
        "{} values, first out of place at index {:?}",
        offsets.len(),
        offsets.iter().zip(&expected).position(|(a, b)| a != b)
    );
    let answers = usize::try_from(END / (BATCH * BATCHES)).expect("answers");
    assert!(
        peer.fetches() <= answers + 2,
        "{} fetches for {answers} answers",
        peer.fetches()
    );
}
