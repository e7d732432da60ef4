use super::*;

fn key(id: &str) -> Vec<u8> {
    let mut k = 0_i16.to_be_bytes().to_vec();
    k.extend_from_slice(&i16::try_from(id.len()).unwrap().to_be_bytes());
    k.extend_from_slice(id.as_bytes());
    k
}

/// A value as the coordinator writes it: version 0 (classic) or 1
/// (flexible, with the three tagged fields).
fn value(version: i16, status: i8, partitions: &[(&str, &[i32])]) -> Vec<u8> {
    let flexible = version >= 1;
    let mut v = version.to_be_bytes().to_vec();
    v.extend_from_slice(&4242_i64.to_be_bytes());
    v.extend_from_slice(&7_i16.to_be_bytes());
    v.extend_from_slice(&60_000_i32.to_be_bytes());
    v.push(status.to_be_bytes()[0]);
    let len = |v: &mut Vec<u8>, n: usize, wide: bool| {
        if flexible {
            v.push(u8::try_from(n + 1).unwrap());
        } else if wide {
            v.extend_from_slice(&i32::try_from(n).unwrap().to_be_bytes());
        } else {
            v.extend_from_slice(&i16::try_from(n).unwrap().to_be_bytes());
        }
    };
    len(&mut v, partitions.len(), true);
    for (topic, ids) in partitions {
        len(&mut v, topic.len(), false);
        v.extend_from_slice(topic.as_bytes());
        len(&mut v, ids.len(), true);
        for id in *ids {
            v.extend_from_slice(&id.to_be_bytes());
        }
        if flexible {
            v.push(0);
        }
    }
    v.extend_from_slice(&1_700_000_000_500_i64.to_be_bytes());
    v.extend_from_slice(&1_700_000_000_000_i64.to_be_bytes());
    if flexible {
        // Three tagged fields: 0 and 1 (int64) and 2 (int16), plus tag 9
        // from a later Kafka, which is skipped.
        v.push(4);
        v.extend_from_slice(&[0, 8]);
        v.extend_from_slice(&4241_i64.to_be_bytes());
        v.extend_from_slice(&[1, 8]);
        v.extend_from_slice(&4243_i64.to_be_bytes());
        v.extend_from_slice(&[2, 2]);
        v.extend_from_slice(&2_i16.to_be_bytes());
        v.extend_from_slice(&[9, 1, 0xff]);
    }
    v
}

#[test]
fn both_value_versions_read_with_their_partitions() {
    for version in [0, 1] {
        let bytes = value(version, 1, &[("orders", &[0, 3]), ("audit", &[1])]);
        let decoded = decode(Some(&key("payments-tx")), Some(&bytes)).expect("decodes");
        assert_eq!(decoded.transactional_id.as_deref(), Some("payments-tx"));
        let Value::Transaction(t) = decoded.value else {
            panic!("not a transaction: {decoded:?}");
        };
        assert_eq!(t.version, version);
        assert_eq!(
            (t.producer_id, t.producer_epoch, t.timeout_ms),
            (4242, 7, 60_000)
        );
        assert_eq!(state_name(t.status), "Ongoing");
        assert_eq!(
            t.partitions,
            vec![
                TopicPartitions {
                    topic: "orders".to_owned(),
                    partitions: vec![0, 3]
                },
                TopicPartitions {
                    topic: "audit".to_owned(),
                    partitions: vec![1]
                },
            ]
        );
        assert_eq!(t.start_timestamp, 1_700_000_000_000);
        assert_eq!(t.last_update_timestamp, 1_700_000_000_500);
        if version == 1 {
            assert_eq!((t.previous_producer_id, t.next_producer_id), (4241, 4243));
            assert_eq!(t.client_transaction_version, 2);
        } else {
            assert_eq!((t.previous_producer_id, t.next_producer_id), (-1, -1));
            assert_eq!(t.client_transaction_version, 0);
        }
    }
}

#[test]
fn json_and_line_say_the_state_and_the_partitions() {
    let bytes = value(1, 4, &[("orders", &[0, 3])]);
    let decoded = decode(Some(&key("tx")), Some(&bytes)).expect("decodes");
    let mut out = Vec::new();
    decoded.write_json(&mut out);
    let json: serde_json::Value = serde_json::from_slice(&out).expect("valid JSON");
    assert_eq!(json["type"], "transaction");
    assert_eq!(json["transactional_id"], "tx");
    assert_eq!(json["state"], "CompleteCommit");
    assert_eq!(json["producer_id"], 4242);
    assert_eq!(json["next_producer_id"], 4243);
    assert_eq!(
        json["partitions"],
        serde_json::json!([{"topic": "orders", "partitions": [0, 3]}])
    );
    let line = decoded.line();
    assert!(
        line.starts_with("transaction tx CompleteCommit producer 4242 epoch 7"),
        "{line}"
    );
    assert!(line.contains("orders-0,3"), "{line}");
    assert!(line.contains("started 2023-11-14T22:13:20"), "{line}");
}

#[test]
fn tombstones_unknown_versions_and_states_are_said_not_guessed() {
    let deleted = decode(Some(&key("gone")), None).expect("decodes");
    assert_eq!(deleted.value, Value::Tombstone);
    let mut future = 5_i16.to_be_bytes().to_vec();
    future.extend_from_slice(&[1, 2, 3]);
    let later = decode(Some(&key("tx")), Some(&future)).expect("decodes");
    assert_eq!(
        later.value,
        Value::Unknown {
            version: 5,
            bytes: vec![1, 2, 3]
        }
    );
    let mut other_key = 1_i16.to_be_bytes().to_vec();
    other_key.extend_from_slice(b"??");
    let other = decode(Some(&other_key), Some(&future)).expect("decodes");
    assert_eq!(
        (other.transactional_id.as_deref(), other.kind()),
        (None, "unknown")
    );
    assert_eq!(state_name(7), "PrepareEpochFence");
    assert_eq!(state_name(12), "unknown(12)");
    assert_eq!(state_name(-1), "unknown(-1)");
}

#[test]
fn every_cut_of_a_record_is_an_error_never_a_panic() {
    let bytes = value(1, 1, &[("orders", &[0, 3])]);
    let key = key("payments-tx");
    for cut in 0..bytes.len() {
        let decoded = decode(Some(&key), Some(&bytes[..cut])).expect("the key reads");
        assert!(
            matches!(decoded.value, Value::Error(_)),
            "cut at {cut}: {decoded:?}"
        );
    }
    for cut in 0..key.len() {
        assert!(decode(Some(&key[..cut]), None).is_err(), "key cut at {cut}");
    }
    // A count far beyond the bytes is refused before anything is allocated.
    let mut hostile = value(0, 1, &[]);
    hostile[17..21].copy_from_slice(&i32::MAX.to_be_bytes());
    let decoded = decode(Some(&key), Some(&hostile)).expect("the key reads");
    assert!(matches!(decoded.value, Value::Error(_)), "{decoded:?}");
    assert_eq!(key_transactional_id(&key).as_deref(), Some("payments-tx"));
}
