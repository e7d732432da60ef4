//! `MetadataAnswer`, kscope's own decoder of Metadata answers: at every
//! version 0–13 it reads exactly what kafka-protocol's generic decoder reads
//! (compared field by field on fabricated and random answers, unknown
//! tagged fields included), and hostile bytes get an error, never a panic
//! or an allocation the bytes do not pay for.

use bytes::{Bytes, BytesMut};
use kscope::conn::ErrorCode;
use kscope::conn::budget::within_budget;
use kscope::conn::protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kscope::conn::protocol::messages::{BrokerId, MetadataResponse, TopicName};
use kscope::conn::protocol::{Decodable, Encodable, StrBytes};
use kscope::meta::{BrokerInfo, MetadataAnswer, PartitionInfo, TopicId, TopicInfo};
use proptest::prelude::*;

const VERSIONS: std::ops::RangeInclusive<i16> = 0..=13;

/// The reference: kafka-protocol's decode, turned into our types field by
/// field (what kscope did before it had its own decoder).
fn reference(wire: &Bytes, version: i16) -> MetadataAnswer {
    let response = MetadataResponse::decode(&mut wire.clone(), version).expect("reference decode");
    MetadataAnswer {
        brokers: response
            .brokers
            .into_iter()
            .map(|b| BrokerInfo {
                node_id: b.node_id.0,
                host: b.host.to_string(),
                port: b.port,
                rack: b.rack.map(|r| r.to_string()),
            })
            .collect(),
        cluster_id: response.cluster_id.map(|c| c.to_string()),
        controller_id: Some(response.controller_id.0).filter(|id| *id >= 0),
        topics: response
            .topics
            .into_iter()
            .map(|t| TopicInfo {
                name: t.name.map(|n| n.0.to_string()).unwrap_or_default(),
                topic_id: TopicId::from_bytes(t.topic_id.into_bytes()),
                internal: t.is_internal,
                partitions: t
                    .partitions
                    .into_iter()
                    .map(|p| PartitionInfo {
                        partition: p.partition_index,
                        leader: Some(p.leader_id.0).filter(|id| *id >= 0),
                        leader_epoch: p.leader_epoch,
                        replicas: p.replica_nodes.iter().map(|id| id.0).collect(),
                        isr: p.isr_nodes.iter().map(|id| id.0).collect(),
                        offline_replicas: p.offline_replicas.iter().map(|id| id.0).collect(),
                        error: ErrorCode::from_code(p.error_code),
                    })
                    .collect(),
                error: ErrorCode::from_code(t.error_code),
            })
            .collect(),
        error: ErrorCode::from_code(response.error_code),
    }
}

/// `response` encoded at `version`, with the fields that version cannot
/// carry set back to their defaults first (the encoder refuses them).
fn encode(response: &MetadataResponse, version: i16) -> Bytes {
    let mut response = response.clone();
    let defaults = MetadataResponse::default();
    if version < 9 {
        response.unknown_tagged_fields.clear();
    }
    if !(8..=10).contains(&version) {
        response.cluster_authorized_operations = defaults.cluster_authorized_operations;
    }
    for broker in &mut response.brokers {
        if version < 9 {
            broker.unknown_tagged_fields.clear();
        }
    }
    for topic in &mut response.topics {
        if version < 9 {
            topic.unknown_tagged_fields.clear();
        }
        if version < 8 {
            topic.topic_authorized_operations = i32::MIN;
        }
        for partition in &mut topic.partitions {
            if version < 9 {
                partition.unknown_tagged_fields.clear();
            }
        }
    }
    let mut wire = BytesMut::new();
    response.encode(&mut wire, version).expect("encode");
    wire.freeze()
}

fn ours(wire: &Bytes, version: i16) -> anyhow::Result<MetadataAnswer> {
    MetadataAnswer::decode(&mut wire.clone(), version)
}

fn ids(list: &[i32]) -> Vec<BrokerId> {
    list.iter().copied().map(BrokerId).collect()
}

fn tags() -> std::collections::BTreeMap<i32, Bytes> {
    [
        (7, Bytes::from_static(b"x")),
        (300, Bytes::from(vec![1u8; 200])),
    ]
    .into()
}

/// Every field set, leaderless and errored partitions, an errored topic,
/// internal topics, and unknown tagged fields at every level.
fn rich() -> MetadataResponse {
    rich_with(150)
}

/// [`rich`] with `partitions` partitions in its first topic.
fn rich_with(partitions: i32) -> MetadataResponse {
    let partition = |index: i32, leader: i32| {
        MetadataResponsePartition::default()
            .with_partition_index(index)
            .with_leader_id(BrokerId(leader))
            .with_leader_epoch(40 + index)
            .with_replica_nodes(ids(&[1, 2, 3]))
            .with_isr_nodes(ids(&[1, 3]))
            .with_offline_replicas(ids(&[2]))
            .with_unknown_tagged_fields(tags())
    };
    MetadataResponse::default()
        .with_throttle_time_ms(12)
        .with_brokers(vec![
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(1))
                .with_host(StrBytes::from_static_str("kafka-1.example"))
                .with_port(9092)
                .with_rack(Some(StrBytes::from_static_str("eu-1a")))
                .with_unknown_tagged_fields(tags()),
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(2))
                .with_host(StrBytes::from_static_str("kafka-2.example"))
                .with_port(9093),
        ])
        .with_cluster_id(Some(StrBytes::from_static_str("c-1")))
        .with_controller_id(BrokerId(2))
        .with_topics(vec![
            MetadataResponseTopic::default()
                .with_name(Some(TopicName(StrBytes::from_static_str("orders"))))
                .with_topic_id(uuid::Uuid::from_u128(0xfeed))
                .with_partitions(
                    (0..partitions)
                        .map(|p| {
                            let mut part = partition(p, if p % 7 == 0 { -1 } else { p % 3 + 1 });
                            if p % 11 == 0 {
                                part.error_code = ErrorCode::LeaderNotAvailable.code();
                            }
                            part
                        })
                        .collect(),
                )
                .with_topic_authorized_operations(0x0f)
                .with_unknown_tagged_fields(tags()),
            MetadataResponseTopic::default()
                .with_error_code(ErrorCode::TopicAuthorizationFailed.code())
                .with_name(Some(TopicName(StrBytes::from_static_str("secret")))),
            MetadataResponseTopic::default()
                .with_name(Some(TopicName(StrBytes::from_static_str(
                    "__consumer_offsets",
                ))))
                .with_is_internal(true)
                .with_partitions(vec![partition(0, 1)]),
        ])
        .with_cluster_authorized_operations(3)
        .with_unknown_tagged_fields(tags())
}

#[test]
fn every_version_reads_what_the_generic_decoder_reads() {
    for version in VERSIONS {
        let wire = encode(&rich(), version);
        let answer = ours(&wire, version).unwrap_or_else(|e| panic!("v{version}: {e}"));
        assert_eq!(answer, reference(&wire, version), "v{version}");
        assert_eq!(
            answer.topics.len(),
            3,
            "v{version}: errored topics are kept"
        );
        assert_eq!(answer.topics[0].partitions.len(), 150, "v{version}");
    }
}

#[test]
fn version_dependent_fields_have_the_generic_defaults() {
    let v0 = ours(&encode(&rich(), 0), 0).expect("v0");
    assert_eq!((v0.cluster_id, v0.controller_id), (None, None));
    assert_eq!(v0.brokers[0].rack, None);
    assert_eq!(v0.topics[0].partitions[1].leader_epoch, -1);
    assert!(v0.topics[0].partitions[1].offline_replicas.is_empty());
    let v13 = ours(&encode(&rich(), 13), 13).expect("v13");
    assert_eq!(v13.controller_id, Some(2));
    assert_eq!(
        v13.topics[0].topic_id,
        TopicId::from_bytes(0xfeed_u128.to_be_bytes())
    );
    assert_eq!(v13.topics[0].partitions[0].leader, None, "-1 is no leader");
    assert_eq!(&*v13.topics[0].partitions[1].isr, &[1, 3]);
    assert_eq!(
        v13.topics[0].partitions[11].error,
        Some(ErrorCode::LeaderNotAvailable)
    );
}

#[test]
fn the_top_level_error_of_v13_is_read() {
    let response = rich().with_error_code(ErrorCode::NotController.code());
    let answer = ours(&encode(&response, 13), 13).expect("v13");
    assert_eq!(answer.error, Some(ErrorCode::NotController));
}

#[test]
fn equal_node_id_lists_share_one_allocation() {
    let answer = ours(&encode(&rich(), 12), 12).expect("v12");
    let partitions = &answer.topics[0].partitions;
    assert!(std::sync::Arc::ptr_eq(
        &partitions[1].replicas,
        &partitions[2].replicas
    ));
    assert!(std::sync::Arc::ptr_eq(
        &partitions[1].replicas,
        &answer.topics[2].partitions[0].replicas
    ));
}

#[test]
fn every_truncation_is_an_error_naming_what_was_cut() {
    for version in [0, 5, 8, 9, 12, 13] {
        let wire = encode(&rich_with(12), version);
        for cut in 0..wire.len() {
            let error = ours(&wire.slice(..cut), version)
                .expect_err("a truncated answer must not decode")
                .to_string();
            assert!(
                error.contains("ends inside") || error.contains("claimed"),
                "v{version} cut at {cut}: {error}"
            );
        }
    }
}

#[test]
fn trailing_bytes_are_refused() {
    let mut wire = encode(&rich(), 12).to_vec();
    wire.push(0);
    let error = ours(&Bytes::from(wire), 12).expect_err("trailing byte");
    assert!(error.to_string().contains("left over"), "{error}");
}

#[test]
fn a_count_the_bytes_cannot_hold_is_refused_before_reserving() {
    // v12 (flexible): throttle, brokers = none, cluster id null, controller,
    // then a topic count of 2^32 - 2 in 5 bytes and nothing behind it.
    let mut wire = vec![0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    wire.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x0f]);
    let error = ours(&Bytes::from(wire), 12).expect_err("huge count");
    assert!(error.to_string().contains("topics"), "{error}");
    // v1 (classic): a negative broker count other than -1.
    let error = ours(&Bytes::from_static(&[0xff, 0xff, 0xff, 0xfe]), 1).expect_err("negative");
    assert!(error.to_string().contains("negative"), "{error}");
    // A varint that never ends.
    let error = ours(
        &Bytes::from_static(&[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        12,
    )
    .expect_err("endless varint");
    assert!(error.to_string().contains("varint"), "{error}");
}

#[test]
fn a_string_that_is_not_utf8_is_refused() {
    let response = MetadataResponse::default().with_brokers(vec![
        MetadataResponseBroker::default()
            .with_host(StrBytes::from_static_str("ab"))
            .with_port(1),
    ]);
    let mut wire = encode(&response, 1).to_vec();
    // v1: brokers count (4), node id (4), host length (2), then "ab".
    wire[10] = 0xff;
    let error = ours(&Bytes::from(wire), 1).expect_err("not UTF-8");
    assert!(error.to_string().contains("UTF-8"), "{error}");
}

#[test]
fn an_answer_is_charged_to_the_decode_budget() {
    let big = MetadataResponse::default().with_topics(
        (0..200)
            .map(|t| {
                MetadataResponseTopic::default()
                    .with_name(Some(TopicName(StrBytes::from_string(format!("t{t}")))))
                    .with_partitions(
                        (0..100)
                            .map(|p| MetadataResponsePartition::default().with_partition_index(p))
                            .collect(),
                    )
            })
            .collect(),
    );
    let wire = encode(&big, 12);
    let (fits, usage) = within_budget(wire.len(), || ours(&wire, 12));
    assert!(
        fits.is_ok() && !usage.exceeded,
        "20k partitions fit 8× their bytes"
    );
    // The same bytes under a budget of a hundredth of what they need.
    let (refused, usage) =
        kscope::conn::protocol::protocol::budget::with_budget(wire.len() / 10, || ours(&wire, 12));
    assert!(usage.exceeded, "the charge was counted");
    assert!(
        refused
            .expect_err("over budget")
            .to_string()
            .contains("too large")
    );
}

#[test]
fn versions_outside_0_to_13_are_refused() {
    for version in [-1, 14] {
        assert!(ours(&Bytes::new(), version).is_err(), "v{version}");
    }
}

fn arb_ids() -> impl Strategy<Value = Vec<i32>> {
    prop::collection::vec(-1..6i32, 0..5)
}

fn arb_partition() -> impl Strategy<Value = MetadataResponsePartition> {
    (
        any::<i16>(),
        any::<i32>(),
        -2..6i32,
        any::<i32>(),
        arb_ids(),
        arb_ids(),
        arb_ids(),
    )
        .prop_map(|(error, index, leader, epoch, replicas, isr, offline)| {
            MetadataResponsePartition::default()
                .with_error_code(error)
                .with_partition_index(index)
                .with_leader_id(BrokerId(leader))
                .with_leader_epoch(epoch)
                .with_replica_nodes(ids(&replicas))
                .with_isr_nodes(ids(&isr))
                .with_offline_replicas(ids(&offline))
        })
}

fn arb_topic() -> impl Strategy<Value = MetadataResponseTopic> {
    (
        any::<i16>(),
        "[a-z._-]{0,12}",
        any::<u128>(),
        any::<bool>(),
        prop::collection::vec(arb_partition(), 0..20),
    )
        .prop_map(|(error, name, id, internal, partitions)| {
            MetadataResponseTopic::default()
                .with_error_code(error)
                .with_name(Some(TopicName(StrBytes::from_string(name))))
                .with_topic_id(uuid::Uuid::from_u128(id))
                .with_is_internal(internal)
                .with_partitions(partitions)
        })
}

fn arb_response() -> impl Strategy<Value = MetadataResponse> {
    (
        prop::collection::vec(
            (
                any::<i32>(),
                "[a-z0-9.-]{0,16}",
                any::<i32>(),
                prop::option::of("[a-z0-9]{0,4}"),
            ),
            0..5,
        ),
        prop::option::of("[A-Za-z0-9]{0,22}"),
        any::<i32>(),
        prop::collection::vec(arb_topic(), 0..8),
        any::<i16>(),
    )
        .prop_map(|(brokers, cluster, controller, topics, error)| {
            MetadataResponse::default()
                .with_brokers(
                    brokers
                        .into_iter()
                        .map(|(id, host, port, rack)| {
                            MetadataResponseBroker::default()
                                .with_node_id(BrokerId(id))
                                .with_host(StrBytes::from_string(host))
                                .with_port(port)
                                .with_rack(rack.map(StrBytes::from_string))
                        })
                        .collect(),
                )
                .with_cluster_id(cluster.map(StrBytes::from_string))
                .with_controller_id(BrokerId(controller))
                .with_topics(topics)
                .with_error_code(error)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_answers_read_as_the_generic_decoder_reads_them(
        response in arb_response(),
        version in VERSIONS,
    ) {
        let wire = encode(&response, version);
        let answer = ours(&wire, version).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(answer, reference(&wire, version));
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256), version in VERSIONS) {
        let _ = ours(&Bytes::from(bytes), version);
    }
}
