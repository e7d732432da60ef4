//! Builders for the unit tests of this layer (test builds only).

use super::snapshot::{BrokerInfo, NodeIds, PartitionInfo, TopicId, TopicInfo};

/// A partition with every replica in sync; a negative leader means none.
pub(crate) fn partition(index: i32, leader: i32, epoch: i32, replicas: &[i32]) -> PartitionInfo {
    PartitionInfo {
        partition: index,
        leader: Some(leader).filter(|l| *l >= 0),
        leader_epoch: epoch,
        replicas: replicas.into(),
        isr: replicas.into(),
        offline_replicas: NodeIds::default(),
        error: None,
    }
}

/// A topic whose id's first byte is `id`.
pub(crate) fn topic(name: &str, id: u8, partitions: Vec<PartitionInfo>) -> TopicInfo {
    let mut bytes = [0; 16];
    bytes[0] = id;
    TopicInfo {
        name: name.to_owned(),
        topic_id: TopicId::from_bytes(bytes),
        internal: false,
        partitions,
        error: None,
    }
}

/// A broker on loopback at `19091 + id`.
pub(crate) fn broker(id: i32) -> BrokerInfo {
    BrokerInfo {
        node_id: id,
        host: "127.0.0.1".to_owned(),
        port: 19091 + id,
        rack: None,
    }
}

/// A snapshot of brokers 1-3 and one topic whose partition `i` has the ISR
/// `isrs[i]` (replicas 1, 2, 3; the ISR's first broker leads).
pub(crate) fn snapshot_with_isr(name: &str, isrs: &[&[i32]]) -> super::MetadataSnapshot {
    let partitions = isrs
        .iter()
        .zip(0..)
        .map(|(isr, index)| PartitionInfo {
            isr: (*isr).into(),
            ..partition(index, isr.first().copied().unwrap_or(-1), 1, &[1, 2, 3])
        })
        .collect();
    super::MetadataSnapshot::new(
        (1..=3).map(broker).collect(),
        vec![topic(name, 1, partitions)],
        Some(1),
        None,
    )
}
