//! The decoder against bytes written field by field from the schemas, for
//! every key and value version it reads, unknown versions, tombstones and
//! every truncation of every record.

use super::*;
use rand::{Rng, SeedableRng};

/// Bytes written as the schemas say.
#[derive(Default)]
struct W(Vec<u8>);

impl W {
    fn i16(mut self, n: i16) -> Self {
        self.0.extend_from_slice(&n.to_be_bytes());
        self
    }
    fn i32(mut self, n: i32) -> Self {
        self.0.extend_from_slice(&n.to_be_bytes());
        self
    }
    fn i64(mut self, n: i64) -> Self {
        self.0.extend_from_slice(&n.to_be_bytes());
        self
    }
    fn uvarint(mut self, mut n: u32) -> Self {
        while n >= 0x80 {
            self.0.push(u8::try_from(n & 0x7f).unwrap_or(0) | 0x80);
            n >>= 7;
        }
        self.0.push(u8::try_from(n).unwrap_or(0));
        self
    }
    fn str(self, s: &str) -> Self {
        let mut w = self.i16(i16::try_from(s.len()).unwrap_or(0));
        w.0.extend_from_slice(s.as_bytes());
        w
    }
    fn null_str(self) -> Self {
        self.i16(-1)
    }
    fn compact_str(self, s: &str) -> Self {
        let mut w = self.uvarint(u32::try_from(s.len() + 1).unwrap_or(0));
        w.0.extend_from_slice(s.as_bytes());
        w
    }
    fn bytes(self, b: &[u8]) -> Self {
        let mut w = self.i32(i32::try_from(b.len()).unwrap_or(0));
        w.0.extend_from_slice(b);
        w
    }
    fn compact_bytes(self, b: &[u8]) -> Self {
        let mut w = self.uvarint(u32::try_from(b.len() + 1).unwrap_or(0));
        w.0.extend_from_slice(b);
        w
    }
    fn raw(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }
}

fn commit_key(version: i16) -> Vec<u8> {
    W::default()
        .i16(version)
        .str("billing")
        .str("orders")
        .i32(3)
        .0
}

fn commit_value(version: i16) -> Vec<u8> {
    let w = W::default().i16(version).i64(4711);
    let w = if version >= 3 { w.i32(5) } else { w };
    let w = if version >= 4 {
        w.compact_str("meta")
    } else {
        w.str("meta")
    };
    let w = w.i64(1_700_000_000_000);
    let w = if version == 1 {
        w.i64(1_700_000_600_000)
    } else {
        w
    };
    // Flexible: one tagged field (tag 7, 2 bytes) the decoder skips.
    if version >= 4 {
        w.uvarint(1).uvarint(7).uvarint(2).raw(&[1, 2]).0
    } else {
        w.0
    }
}

fn group_value(version: i16) -> Vec<u8> {
    let flexible = version >= 4;
    let s = |w: W, text: &str| {
        if flexible {
            w.compact_str(text)
        } else {
            w.str(text)
        }
    };
    let mut w = s(W::default().i16(version), "consumer").i32(7);
    w = s(w, "range");
    w = s(w, "m-1");
    if version >= 2 {
        w = w.i64(1_700_000_000_000);
    }
    w = if flexible { w.uvarint(3) } else { w.i32(2) };
    for (id, instance) in [("m-1", Some("i-1")), ("m-2", None)] {
        w = s(w, id);
        if version >= 3 {
            w = match (instance, flexible) {
                (Some(i), _) => s(w, i),
                (None, true) => w.uvarint(0),
                (None, false) => w.null_str(),
            };
        }
        w = s(w, "client");
        w = s(w, "/10.0.0.1");
        if version >= 1 {
            w = w.i32(300_000);
        }
        w = w.i32(45_000);
        w = if flexible {
            w.compact_bytes(&[1, 2, 3]).compact_bytes(&[4])
        } else {
            w.bytes(&[1, 2, 3]).bytes(&[4])
        };
        if flexible {
            w = w.uvarint(0);
        }
    }
    if flexible {
        w = w.uvarint(0);
    }
    w.0
}

#[test]
fn offset_commits_of_every_key_and_value_version() {
    for key_version in [0, 1] {
        for version in 0..=4 {
            let decoded = decode(Some(&commit_key(key_version)), Some(&commit_value(version)))
                .expect("decodes");
            assert_eq!(
                decoded.key,
                Key::OffsetCommit {
                    version: key_version,
                    group: "billing".into(),
                    topic: "orders".into(),
                    partition: 3
                }
            );
            let Value::OffsetCommit(c) = &decoded.value else {
                panic!("v{version}: {:?}", decoded.value);
            };
            assert_eq!(c.version, version);
            assert_eq!(c.offset, 4711);
            assert_eq!(c.leader_epoch, if version >= 3 { 5 } else { -1 });
            assert_eq!(c.metadata, "meta");
            assert_eq!(c.commit_timestamp, 1_700_000_000_000);
            assert_eq!(
                c.expire_timestamp,
                (version == 1).then_some(1_700_000_600_000)
            );
        }
    }
    let decoded = decode(Some(&commit_key(1)), Some(&commit_value(3))).expect("decodes");
    assert_eq!(
        decoded.line(),
        "commit billing orders-3 @ 4711 epoch 5 at 2023-11-14T22:13:20.000Z metadata \"meta\""
    );
    let mut json = Vec::new();
    decoded.write_json(&mut json);
    let json: serde_json::Value = serde_json::from_slice(&json).expect("valid JSON");
    assert_eq!(json["type"], "offset_commit");
    assert_eq!(json["group"], "billing");
    assert_eq!(json["topic"], "orders");
    assert_eq!(json["partition"], 3);
    assert_eq!(json["offset"], 4711);
    assert_eq!(json["leader_epoch"], 5);
    assert_eq!(json["commit_timestamp"], 1_700_000_000_000_i64);
}

#[test]
fn group_metadata_of_every_value_version() {
    let key = W::default().i16(2).str("billing").0;
    for version in 0..=4 {
        let decoded = decode(Some(&key), Some(&group_value(version))).expect("decodes");
        assert_eq!(
            decoded.key,
            Key::GroupMetadata {
                group: "billing".into()
            }
        );
        let Value::GroupMetadata(g) = &decoded.value else {
            panic!("v{version}: {:?}", decoded.value);
        };
        assert_eq!(
            (g.protocol_type.as_str(), g.generation),
            ("consumer", 7),
            "v{version}"
        );
        assert_eq!(g.protocol.as_deref(), Some("range"));
        assert_eq!(g.leader.as_deref(), Some("m-1"));
        assert_eq!(
            g.current_state_timestamp,
            (version >= 2).then_some(1_700_000_000_000)
        );
        assert_eq!(g.members.len(), 2);
        let m = &g.members[0];
        assert_eq!(m.member_id, "m-1");
        assert_eq!(
            m.group_instance_id.as_deref(),
            (version >= 3).then_some("i-1")
        );
        assert_eq!(g.members[1].group_instance_id, None);
        assert_eq!(
            (m.client_id.as_str(), m.client_host.as_str()),
            ("client", "/10.0.0.1")
        );
        assert_eq!(m.rebalance_timeout, (version >= 1).then_some(300_000));
        assert_eq!(m.session_timeout, 45_000);
        assert_eq!((m.subscription_bytes, m.assignment_bytes), (3, 1));
    }
    let decoded = decode(Some(&key), Some(&group_value(3))).expect("decodes");
    assert!(
        decoded.line().starts_with(
            "group billing consumer gen 7 range leader m-1 since 2023-11-14T22:13:20.000Z, 2 members: m-1 (client@/10.0.0.1, instance i-1"
        ),
        "{}",
        decoded.line()
    );
}

#[test]
fn a_null_protocol_and_leader_are_an_empty_group() {
    let key = W::default().i16(2).str("idle").0;
    let value = W::default()
        .i16(3)
        .str("consumer")
        .i32(0)
        .null_str()
        .null_str()
        .i64(5)
        .i32(0)
        .0;
    let decoded = decode(Some(&key), Some(&value)).expect("decodes");
    let Value::GroupMetadata(g) = decoded.value else {
        panic!("{:?}", decoded.value)
    };
    assert_eq!((g.protocol, g.leader, g.members.len()), (None, None, 0));
}

#[test]
fn tombstones_say_deleted() {
    let decoded = decode(Some(&commit_key(1)), None).expect("decodes");
    assert_eq!(decoded.value, Value::Tombstone);
    assert_eq!(decoded.line(), "commit billing orders-3 deleted");
    let mut json = Vec::new();
    decoded.write_json(&mut json);
    let json: serde_json::Value = serde_json::from_slice(&json).expect("valid JSON");
    assert_eq!(json["deleted"], true);
    let group = decode(Some(&W::default().i16(2).str("g").0), None).expect("decodes");
    assert_eq!(group.line(), "group g deleted");
}

#[test]
fn unknown_versions_are_bytes_with_their_version() {
    // A value version past the schema's.
    let value = W::default().i16(5).raw(&[0xab, 0xcd]).0;
    let decoded = decode(Some(&commit_key(1)), Some(&value)).expect("key decodes");
    assert_eq!(
        decoded.value,
        Value::Unknown {
            version: 5,
            bytes: vec![0xab, 0xcd]
        }
    );
    assert!(decoded.line().ends_with(" value v5 (not decoded) abcd"));
    // A new record type (KIP-848 consumer group metadata): the group id is read, nothing else.
    let key = W::default().i16(3).str("newgroup").0;
    let value = W::default().i16(0).raw(&[1, 2, 3]).0;
    let decoded = decode(Some(&key), Some(&value)).expect("decodes");
    assert_eq!(decoded.key.group(), Some("newgroup"));
    assert_eq!(decoded.kind(), "unknown");
    assert!(matches!(decoded.value, Value::Unknown { version: 0, .. }));
    let mut json = Vec::new();
    decoded.write_json(&mut json);
    let json: serde_json::Value = serde_json::from_slice(&json).expect("valid JSON");
    assert_eq!(json["key_version"], 3);
    assert_eq!(json["value_version"], 0);
    assert_eq!(json["value_hex"], "010203");
    // A negative key version is refused.
    assert!(decode(Some(&W::default().i16(-1).0), None).is_err());
    assert!(decode(None, None).is_err(), "a null key");
}

#[test]
fn every_truncation_is_an_error_never_a_panic() {
    let key = commit_key(1);
    for cut in 0..key.len() {
        assert!(decode(Some(&key[..cut]), None).is_err(), "key cut at {cut}");
    }
    for version in 0..=4 {
        for value in [commit_value(version), group_value(version)] {
            let key = if value == group_value(version) {
                W::default().i16(2).str("g").0
            } else {
                commit_key(1)
            };
            for cut in 0..value.len() {
                let decoded = decode(Some(&key), Some(&value[..cut])).expect("key decodes");
                let Value::Error(reason) = &decoded.value else {
                    panic!("v{version} cut at {cut}: {:?}", decoded.value);
                };
                assert!(decoded.line().contains(reason.as_str()));
            }
        }
    }
    // Bytes after the fields are an error, not ignored.
    let mut long = commit_value(3);
    long.push(0);
    let decoded = decode(Some(&commit_key(1)), Some(&long)).expect("key decodes");
    assert!(matches!(decoded.value, Value::Error(_)));
}

#[test]
fn hostile_lengths_are_refused_before_allocating() {
    // Two billion members in a few bytes.
    let value = W::default()
        .i16(3)
        .str("consumer")
        .i32(1)
        .null_str()
        .null_str()
        .i64(0)
        .i32(i32::MAX)
        .0;
    let decoded = decode(Some(&W::default().i16(2).str("g").0), Some(&value)).expect("key");
    assert!(matches!(decoded.value, Value::Error(ref e) if e.contains("entries")));
    // A varint that never ends, and random bytes after every key version.
    let value = W::default().i16(4).i64(1).i32(1).raw(&[0xff; 9]).0;
    let decoded = decode(Some(&commit_key(1)), Some(&value)).expect("key");
    assert!(matches!(decoded.value, Value::Error(_)));
    let mut rng = rand::rngs::StdRng::seed_from_u64(29);
    for _ in 0..20_000 {
        let len = rng.random_range(0..40);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        if bytes.len() >= 2 {
            bytes[0] = 0;
            bytes[1] = rng.random_range(0..6);
        }
        let _ = decode(Some(&commit_key(1)), Some(&bytes));
        let _ = decode(Some(&W::default().i16(2).str("g").0), Some(&bytes));
        let _ = decode(Some(&bytes), Some(&bytes));
    }
}

#[test]
fn key_group_reads_the_group_of_every_key_type() {
    assert_eq!(key_group(&commit_key(1)).as_deref(), Some("billing"));
    assert_eq!(
        key_group(&W::default().i16(2).str("g").0).as_deref(),
        Some("g")
    );
    assert_eq!(
        key_group(&W::default().i16(5).str("g").str("member").0).as_deref(),
        Some("g")
    );
    assert_eq!(key_group(&[0, 1, 0]), None);
}

#[test]
fn a_commit_captured_from_kafka_4_2() {
    // `kscope consume __consumer_offsets -o json` after
    // `kafka-consumer-groups --reset-offsets --to-earliest --execute`.
    let key = b"\x00\x01\x00\x0ahist-23299\x00\x0chist-t-12802\x00\x00\x00\x01";
    let value = [
        0x00, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00, 0x01, 0xa2,
        0x47, 0x43, 0xee, 0x35, 0x00,
    ];
    let decoded = decode(Some(key), Some(&value)).expect("decodes");
    assert_eq!(
        decoded.key,
        Key::OffsetCommit {
            version: 1,
            group: "hist-23299".into(),
            topic: "hist-t-12802".into(),
            partition: 1
        }
    );
    assert_eq!(
        decoded.value,
        Value::OffsetCommit(OffsetCommit {
            version: 4,
            offset: 0,
            leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp: 1_796_491_963_957,
            expire_timestamp: None,
        })
    );
}
