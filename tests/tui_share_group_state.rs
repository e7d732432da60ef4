//! The Messages screen on `__share_group_state`: each record is shown as
//! what it is (the share group in the key column, the snapshot or update as
//! one line in the value column), and a record of a type this kscope does
//! not know is shown as its version and bytes. No terminal, no cluster:
//! records built from Kafka's schemas are handed to `update` as a browse
//! session would.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{broker, open_messages, partition, record, render, state, topic};

/// A `ShareSnapshotKey` (record type 0) or `ShareUpdateKey` (1) of group
/// `jobs`, topic id 0…01 (`AAAAAAAAAAAAAAAAAAAAAQ`), partition 0.
fn key(record_type: i16) -> Vec<u8> {
    let mut k = record_type.to_be_bytes().to_vec();
    k.extend_from_slice(&4_i16.to_be_bytes());
    k.extend_from_slice(b"jobs");
    let mut id = [0_u8; 16];
    id[15] = 1;
    k.extend_from_slice(&id);
    k.extend_from_slice(&0_i32.to_be_bytes());
    k
}

/// A `ShareSnapshotValue` v0 with start offset 40 and one acknowledged
/// batch 40-44 (no tagged fields).
fn snapshot() -> Vec<u8> {
    let mut v = 0_i16.to_be_bytes().to_vec();
    for n in [0_i32, 1, 2] {
        v.extend_from_slice(&n.to_be_bytes());
    }
    v.extend_from_slice(&40_i64.to_be_bytes());
    v.extend_from_slice(&1_800_000_000_000_i64.to_be_bytes());
    v.extend_from_slice(&1_800_000_000_000_i64.to_be_bytes());
    v.push(2);
    v.extend_from_slice(&40_i64.to_be_bytes());
    v.extend_from_slice(&44_i64.to_be_bytes());
    v.push(2);
    v.extend_from_slice(&1_i16.to_be_bytes());
    v.push(0);
    v.push(0);
    v
}

fn cluster() -> MetadataSnapshot {
    MetadataSnapshot::new(
        vec![broker(1)],
        vec![topic(
            "__share_group_state",
            true,
            vec![partition(0, Some(1), &[1], &[1])],
        )],
        Some(1),
        Some("test-cluster-id".to_owned()),
    )
}

#[test]
fn share_state_records_show_as_what_they_are() {
    let snap = cluster();
    let mut s = state(&snap, 240, 12);
    let mut later_type = 7_i16.to_be_bytes().to_vec();
    later_type.extend_from_slice(b"x");
    open_messages(
        &mut s,
        &snap,
        ":messages __share_group_state 0",
        vec![
            record(0, 0, Some(&key(0)), Some(&snapshot())),
            record(0, 1, Some(&key(1)), None),
            record(0, 2, Some(&later_type), Some(&[0, 3, 0xab])),
        ],
    );
    let screen = render(&s, &snap);
    assert!(
        screen.contains(
            "share snapshot jobs AAAAAAAAAAAAAAAAAAAAAQ-0 start 40 state epoch 1 leader epoch 2"
        ),
        "{screen}"
    );
    assert!(screen.contains("40-44 Acked x1"), "{screen}");
    assert!(
        screen.contains("share update jobs AAAAAAAAAAAAAAAAAAAAAQ-0 deleted"),
        "{screen}"
    );
    assert!(
        screen.contains("record key version 7 value v3 (not decoded) ab"),
        "{screen}"
    );
}
