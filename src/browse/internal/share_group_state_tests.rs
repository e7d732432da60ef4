use super::*;

const TOPIC_ID: [u8; 16] = [
    0x1f, 0x2e, 0x3d, 0x4c, 0x5b, 0x6a, 0x79, 0x88, 0x97, 0xa6, 0xb5, 0xc4, 0xd3, 0xe2, 0xf1, 0x00,
];

/// A key as the share coordinator writes it: the record type, then group
/// id (`int16` length), topic id and partition.
fn key(record_type: i16, group: &str, partition: i32) -> Vec<u8> {
    let mut k = record_type.to_be_bytes().to_vec();
    k.extend_from_slice(&i16::try_from(group.len()).unwrap().to_be_bytes());
    k.extend_from_slice(group.as_bytes());
    k.extend_from_slice(&TOPIC_ID);
    k.extend_from_slice(&partition.to_be_bytes());
    k
}

/// The batches every value below carries: (first, last, state, count).
const BATCHES: [(i64, i64, i8, i16); 3] = [(40, 44, 2, 1), (45, 45, 0, 3), (46, 49, 4, 5)];

fn batches(v: &mut Vec<u8>) {
    v.push(u8::try_from(BATCHES.len() + 1).unwrap());
    for (first, last, state, count) in BATCHES {
        v.extend_from_slice(&first.to_be_bytes());
        v.extend_from_slice(&last.to_be_bytes());
        v.push(state.to_be_bytes()[0]);
        v.extend_from_slice(&count.to_be_bytes());
        v.push(0);
    }
}

/// Tagged fields: `DeliveryCompleteCount` (tag 0) when given, plus tag 7
/// from a later Kafka, which is skipped.
fn tagged(v: &mut Vec<u8>, complete: Option<i32>) {
    match complete {
        Some(n) => {
            v.push(2);
            v.extend_from_slice(&[0, 4]);
            v.extend_from_slice(&n.to_be_bytes());
        }
        None => v.push(1),
    }
    v.extend_from_slice(&[7, 2, 0xab, 0xcd]);
}

/// `ShareSnapshotValue` v0: snapshot, state and leader epochs, start
/// offset, create and write timestamps, batches, tagged fields.
fn snapshot_value(complete: Option<i32>) -> Vec<u8> {
    let mut v = 0_i16.to_be_bytes().to_vec();
    v.extend_from_slice(&3_i32.to_be_bytes());
    v.extend_from_slice(&1_i32.to_be_bytes());
    v.extend_from_slice(&9_i32.to_be_bytes());
    v.extend_from_slice(&40_i64.to_be_bytes());
    v.extend_from_slice(&1_700_000_000_000_i64.to_be_bytes());
    v.extend_from_slice(&1_700_000_000_500_i64.to_be_bytes());
    batches(&mut v);
    tagged(&mut v, complete);
    v
}

/// `ShareUpdateValue` v0: snapshot and leader epochs, start offset,
/// batches, tagged fields.
fn update_value(start: i64, complete: Option<i32>) -> Vec<u8> {
    let mut v = 0_i16.to_be_bytes().to_vec();
    v.extend_from_slice(&3_i32.to_be_bytes());
    v.extend_from_slice(&9_i32.to_be_bytes());
    v.extend_from_slice(&start.to_be_bytes());
    batches(&mut v);
    tagged(&mut v, complete);
    v
}

fn expected_batches() -> Vec<StateBatch> {
    BATCHES
        .iter()
        .map(
            |&(first_offset, last_offset, delivery_state, delivery_count)| StateBatch {
                first_offset,
                last_offset,
                delivery_state,
                delivery_count,
            },
        )
        .collect()
}

fn share_partition() -> SharePartition {
    SharePartition {
        group_id: "jobs".to_owned(),
        topic_id: TopicId::from_bytes(TOPIC_ID),
        partition: 2,
    }
}

#[test]
fn a_snapshot_reads_whole() {
    for complete in [Some(5), None] {
        let decoded =
            decode(Some(&key(0, "jobs", 2)), Some(&snapshot_value(complete))).expect("decodes");
        assert_eq!(decoded.record_type, SNAPSHOT);
        assert_eq!(decoded.key, Some(share_partition()));
        assert_eq!(
            decoded.value,
            Value::State(State {
                version: 0,
                snapshot_epoch: 3,
                state_epoch: Some(1),
                leader_epoch: 9,
                start_offset: 40,
                delivery_complete_count: complete.unwrap_or(-1),
                create_timestamp: Some(1_700_000_000_000),
                write_timestamp: Some(1_700_000_000_500),
                batches: expected_batches(),
            })
        );
        assert_eq!(decoded.kind(), "share_snapshot");
    }
}

#[test]
fn an_update_reads_with_its_batches() {
    let decoded = decode(Some(&key(1, "jobs", 2)), Some(&update_value(-1, Some(2)))).unwrap();
    assert_eq!(decoded.record_type, UPDATE);
    assert_eq!(decoded.key, Some(share_partition()));
    let Value::State(state) = &decoded.value else {
        panic!("not a state: {decoded:?}");
    };
    assert_eq!(state.state_epoch, None);
    assert_eq!((state.leader_epoch, state.start_offset), (9, -1));
    assert_eq!(state.delivery_complete_count, 2);
    assert_eq!(
        (state.create_timestamp, state.write_timestamp),
        (None, None)
    );
    assert_eq!(state.batches, expected_batches());
    assert_eq!(decoded.kind(), "share_update");
    let line = decoded.line();
    assert!(
        line.starts_with("share update jobs Hy49TFtqeYiXprXE0-LxAA-2 start unchanged"),
        "{line}"
    );
    assert!(
        line.contains("40-44 Acked x1 45-45 Available x3 46-49 Archived x5"),
        "{line}"
    );
}

#[test]
fn the_json_names_every_field() {
    let decoded = decode(Some(&key(0, "jobs", 2)), Some(&snapshot_value(Some(5)))).unwrap();
    let mut out = Vec::new();
    decoded.write_json(&mut out);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "type": "share_snapshot",
            "key_version": 0,
            "group_id": "jobs",
            "topic_id": "Hy49TFtqeYiXprXE0-LxAA",
            "partition": 2,
            "value_version": 0,
            "snapshot_epoch": 3,
            "state_epoch": 1,
            "leader_epoch": 9,
            "start_offset": 40,
            "delivery_complete_count": 5,
            "create_timestamp": 1_700_000_000_000_i64,
            "write_timestamp": 1_700_000_000_500_i64,
            "state_batches": [
                {"first_offset": 40, "last_offset": 44, "delivery_state": "Acked", "delivery_count": 1},
                {"first_offset": 45, "last_offset": 45, "delivery_state": "Available", "delivery_count": 3},
                {"first_offset": 46, "last_offset": 49, "delivery_state": "Archived", "delivery_count": 5},
            ],
        })
    );
}

#[test]
fn a_tombstone_is_a_deleted_state() {
    let decoded = decode(Some(&key(0, "jobs", 2)), None).unwrap();
    assert_eq!(decoded.value, Value::Tombstone);
    assert!(decoded.line().ends_with(" deleted"), "{}", decoded.line());
    let mut out = Vec::new();
    decoded.write_json(&mut out);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["deleted"], true);
    assert_eq!(json["group_id"], "jobs");
}

#[test]
fn unknown_versions_are_bytes_with_their_version() {
    // A value version after 0.
    let mut later = 1_i16.to_be_bytes().to_vec();
    later.extend_from_slice(&[1, 2, 3]);
    let decoded = decode(Some(&key(0, "jobs", 2)), Some(&later)).unwrap();
    assert_eq!(
        decoded.value,
        Value::Unknown {
            version: 1,
            bytes: vec![1, 2, 3]
        }
    );
    assert!(decoded.line().contains("value v1 (not decoded) 010203"));
    // A record type after 1: its key is not guessed at.
    let mut key3 = 3_i16.to_be_bytes().to_vec();
    key3.extend_from_slice(b"whatever");
    let decoded = decode(Some(&key3), Some(&snapshot_value(None))).unwrap();
    assert_eq!((decoded.record_type, decoded.key.as_ref()), (3, None));
    assert!(matches!(decoded.value, Value::Unknown { version: 0, .. }));
    assert_eq!(decoded.kind(), "unknown");
    assert!(decoded.line().starts_with("record key version 3 value v0"));
    let mut out = Vec::new();
    decoded.write_json(&mut out);
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["type"], "unknown");
    assert_eq!(json["value_version"], 0);
}

#[test]
fn truncated_and_hostile_input_is_an_error_never_a_panic() {
    let whole_key = key(0, "jobs", 2);
    for n in 0..whole_key.len() {
        assert!(
            decode(Some(&whole_key[..n]), None).is_err(),
            "key cut at {n}"
        );
    }
    assert!(decode(None, None).is_err());
    let mut long_key = whole_key.clone();
    long_key.push(0);
    assert!(decode(Some(&long_key), None).is_err());
    assert!(decode(Some(&(-1_i16).to_be_bytes()), None).is_err());

    for (record_type, value) in [
        (SNAPSHOT, snapshot_value(Some(5))),
        (UPDATE, update_value(7, None)),
    ] {
        let k = key(record_type, "jobs", 2);
        for n in 2..value.len() {
            let decoded = decode(Some(&k), Some(&value[..n])).expect("the key reads");
            assert!(
                matches!(decoded.value, Value::Error(_)),
                "value cut at {n}: {decoded:?}"
            );
        }
        let mut longer = value.clone();
        longer.push(0);
        let decoded = decode(Some(&k), Some(&longer)).unwrap();
        assert!(matches!(decoded.value, Value::Error(_)), "{decoded:?}");
    }

    // A batch count far beyond the bytes is refused before allocating.
    let mut huge = 0_i16.to_be_bytes().to_vec();
    huge.extend_from_slice(&[0; 16]);
    huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
    let decoded = decode(Some(&key(1, "jobs", 2)), Some(&huge)).unwrap();
    let Value::Error(reason) = decoded.value else {
        panic!("not an error: {decoded:?}");
    };
    assert!(reason.contains("state batches"), "{reason}");

    // Every byte flipped in turn: an answer or an error, never a panic.
    let value = snapshot_value(Some(5));
    for at in 0..value.len() {
        let mut bent = value.clone();
        bent[at] ^= 0xff;
        let _ = decode(Some(&whole_key), Some(&bent));
    }
}

#[test]
fn the_partition_is_the_share_coordinators() {
    let sp = share_partition();
    let text = sp.coordinator_key();
    assert_eq!(text, "jobs:Hy49TFtqeYiXprXE0-LxAA:2");
    // Java's "jobs:Hy49TFtqeYiXprXE0-LxAA:2".hashCode() is 56857180.
    assert_eq!(super::super::java_string_hash(&text), 56_857_180);
    assert_eq!(partition_for(&sp, 50), Some(30));
    assert_eq!(partition_for(&sp, 0), None);
    assert_eq!(key_group(&key(1, "jobs", 2)).as_deref(), Some("jobs"));
    assert_eq!(key_share_partition(&key(0, "jobs", 2)), Some(sp));
    assert_eq!(key_group(&key(5, "jobs", 2)), None);
}
