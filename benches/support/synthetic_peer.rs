//! BENCHMARK HARNESS, not part of kscope: a synthetic large-cluster peer.
//!
//! It speaks just enough of the Kafka protocol (`ApiVersions`, `Metadata`,
//! `ListOffsets`, `Fetch` of batch headers, `FindCoordinator`, `ListGroups`,
//! `DescribeGroups`, `OffsetFetch`) to let the real `kscope` binary browse a
//! cluster of N topics × P partitions and G consumer groups with lag, for
//! the whole-process measurements in BENCHMARKS.md. Three brokers (node ids
//! 1–3) listen on three consecutive ports; every answer is made up:
//!
//! - topic `bench-NNNNNN` (N of them), P partitions each, RF 3, all in sync;
//!   partition p of topic t is led by broker `(t + p) % 3 + 1`;
//! - end offsets grow by 10 a second from 1 000 000; log start offsets are 0;
//! - group `bench-group-NNNNNN` (G of them, classic, Empty, coordinator
//!   `g % 3 + 1`) commits to every partition of topic `g % N`, lagging by
//!   `100 + g % 50` records;
//! - `--move-leaders M` moves the leaders of the first M partitions to the
//!   next broker on every full `Metadata` answer (a rolling restart at scale);
//! - `--rolling-restart S` restarts the brokers in turn, one every S seconds, the
//!   way an operator rolls a cluster: for the first half of its slot broker b is
//!   gone from the broker list, out of every ISR, and the partitions it led are
//!   led by their next replica (leader epoch + 1); for the second half it is
//!   back in every ISR and its partitions are led by it again (epoch + 1, the
//!   preferred-leader election). Every partition's ISR changes twice a slot.
//!
//! ```text
//! cargo run --release --example synthetic-peer -- \
//!     --port 39092 --topics 1000 --partitions 100 --groups 10000 [--move-leaders 10000]
//! ```
//!
//! It is an example target so it is never built into the kscope binary.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use bytes::{BufMut, Bytes, BytesMut};
use kafka_protocol::messages::api_versions_response::ApiVersion;
use kafka_protocol::messages::describe_groups_response::DescribedGroup;
use kafka_protocol::messages::fetch_response::{FetchableTopicResponse, PartitionData};
use kafka_protocol::messages::find_coordinator_response::Coordinator;
use kafka_protocol::messages::list_groups_response::ListedGroup;
use kafka_protocol::messages::list_offsets_response::{
    ListOffsetsPartitionResponse, ListOffsetsTopicResponse,
};
use kafka_protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kafka_protocol::messages::offset_fetch_response::{
    OffsetFetchResponseGroup, OffsetFetchResponsePartitions, OffsetFetchResponseTopics,
};
use kafka_protocol::messages::{
    ApiKey, ApiVersionsRequest, ApiVersionsResponse, BrokerId, DescribeGroupsRequest,
    DescribeGroupsResponse, FetchRequest, FetchResponse, FindCoordinatorRequest,
    FindCoordinatorResponse, GroupId, ListGroupsRequest, ListGroupsResponse, ListOffsetsRequest,
    ListOffsetsResponse, MetadataRequest, MetadataResponse, OffsetFetchRequest,
    OffsetFetchResponse, RequestHeader, ResponseHeader, TopicName,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, StrBytes};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The versions advertised (capped near a Kafka 4.1 broker's, by name).
const APIS: &[(ApiKey, i16, i16)] = &[
    (ApiKey::ApiVersions, 0, 3),
    (ApiKey::Metadata, 1, 12),
    (ApiKey::ListOffsets, 1, 8),
    (ApiKey::Fetch, 4, 12),
    (ApiKey::FindCoordinator, 1, 4),
    (ApiKey::ListGroups, 0, 5),
    (ApiKey::DescribeGroups, 0, 5),
    (ApiKey::OffsetFetch, 1, 8),
];

#[derive(Debug)]
struct Peer {
    port: u16,
    topics: usize,
    partitions: usize,
    groups: usize,
    move_leaders: usize,
    /// Seconds each broker's restart slot lasts (0: no rolling restart).
    rolling_restart: u64,
    started: Instant,
    /// Full `Metadata` answers given (the leader rotation of moved partitions).
    generation: AtomicU64,
    /// The encoded all-topics answer while nothing moves (keyed by version).
    cached: std::sync::Mutex<Option<(i16, Bytes)>>,
}

fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a number"))
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let peer = Arc::new(Peer {
        port: u16::try_from(arg(&args, "--port", 39_092)).expect("a port"),
        topics: arg(&args, "--topics", 1000),
        partitions: arg(&args, "--partitions", 100),
        groups: arg(&args, "--groups", 0),
        move_leaders: arg(&args, "--move-leaders", 0),
        rolling_restart: arg(&args, "--rolling-restart", 0) as u64,
        started: Instant::now(),
        generation: AtomicU64::new(0),
        cached: std::sync::Mutex::new(None),
    });
    for node in 1..=3i32 {
        let port = peer.port + u16::try_from(node - 1).expect("node");
        let listener = TcpListener::bind(("127.0.0.1", port)).await.expect("bind");
        let peer = peer.clone();
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let _ = stream.set_nodelay(true);
                tokio::spawn(serve(peer.clone(), node, stream));
            }
        });
    }
    eprintln!(
        "synthetic peer (benchmark harness): {} topics x {} partitions, {} groups, moving {} leaders a refresh, rolling restart every {} s, on 127.0.0.1:{}-{}",
        peer.topics,
        peer.partitions,
        peer.groups,
        peer.move_leaders,
        peer.rolling_restart,
        peer.port,
        peer.port + 2
    );
    std::future::pending::<()>().await;
}

async fn serve(peer: Arc<Peer>, node: i32, mut stream: TcpStream) {
    loop {
        if peer
            .rolling()
            .is_some_and(|(_, broker, down)| down && broker == node)
        {
            return; // restarting: every connection to it drops
        }
        let Ok(size) = stream.read_i32().await else {
            return;
        };
        let mut frame = vec![0u8; usize::try_from(size).unwrap_or(0)];
        if stream.read_exact(&mut frame).await.is_err() {
            return;
        }
        let mut frame = Bytes::from(frame);
        let Some(answer) = answer(&peer, node, &mut frame) else {
            return;
        };
        let mut out = BytesMut::with_capacity(answer.len() + 4);
        out.put_i32(i32::try_from(answer.len()).expect("frame size"));
        out.put_slice(&answer);
        if stream.write_all(&out).await.is_err() {
            return;
        }
    }
}

fn reply<T: Encodable + HeaderVersion>(header: &RequestHeader, body: &T) -> Bytes {
    let version = header.request_api_version;
    let mut buf = BytesMut::new();
    ResponseHeader::default()
        .with_correlation_id(header.correlation_id)
        .encode(&mut buf, T::header_version(version))
        .expect("header");
    body.encode(&mut buf, version).expect("body");
    buf.freeze()
}

fn answer(peer: &Peer, node: i32, frame: &mut Bytes) -> Option<Bytes> {
    if frame.len() < 4 {
        return None;
    }
    let key = ApiKey::try_from(i16::from_be_bytes([frame[0], frame[1]])).ok()?;
    let version = i16::from_be_bytes([frame[2], frame[3]]);
    let header = RequestHeader::decode(frame, key.request_header_version(version)).ok()?;
    Some(match key {
        ApiKey::ApiVersions => {
            let _ = ApiVersionsRequest::decode(frame, version);
            let keys = APIS
                .iter()
                .map(|&(key, min, max)| {
                    ApiVersion::default()
                        .with_api_key(key as i16)
                        .with_min_version(min)
                        .with_max_version(max)
                })
                .collect();
            reply(&header, &ApiVersionsResponse::default().with_api_keys(keys))
        }
        ApiKey::Metadata => metadata(
            peer,
            &header,
            &MetadataRequest::decode(frame, version).ok()?,
        ),
        ApiKey::ListOffsets => list_offsets(
            peer,
            &header,
            &ListOffsetsRequest::decode(frame, version).ok()?,
        ),
        ApiKey::Fetch => fetch(peer, &header, &FetchRequest::decode(frame, version).ok()?),
        ApiKey::FindCoordinator => find_coordinator(
            peer,
            &header,
            &FindCoordinatorRequest::decode(frame, version).ok()?,
        ),
        ApiKey::ListGroups => {
            let _ = ListGroupsRequest::decode(frame, version);
            list_groups(peer, node, &header)
        }
        ApiKey::DescribeGroups => describe_groups(
            &header,
            &DescribeGroupsRequest::decode(frame, version).ok()?,
        ),
        ApiKey::OffsetFetch => offset_fetch(
            peer,
            &header,
            &OffsetFetchRequest::decode(frame, version).ok()?,
        ),
        _ => return None,
    })
}

fn topic_name(t: usize) -> String {
    format!("bench-{t:06}")
}

fn topic_index(name: &str) -> Option<usize> {
    name.strip_prefix("bench-")?.parse().ok()
}

fn group_name(g: usize) -> String {
    format!("bench-group-{g:06}")
}

fn group_index(name: &str) -> Option<usize> {
    name.strip_prefix("bench-group-")?.parse().ok()
}

fn str(s: String) -> StrBytes {
    StrBytes::from_string(s)
}

impl Peer {
    fn end_offset(&self, topic: usize, partition: usize) -> i64 {
        let grown = i64::try_from(self.started.elapsed().as_secs()).unwrap_or(0) * 10;
        1_000_000 + i64::try_from(topic * 7 + partition).unwrap_or(0) + grown
    }

    fn lag_of(group: usize) -> i64 {
        100 + i64::try_from(group % 50).unwrap_or(0)
    }

    fn leader(&self, topic: usize, partition: usize, generation: u64) -> (i32, i32) {
        let base = (topic + partition) % 3;
        let index = topic * self.partitions + partition;
        if index < self.move_leaders {
            let moved = (base + usize::try_from(generation % 3).unwrap_or(0)) % 3;
            (
                i32::try_from(moved).unwrap_or(0) + 1,
                i32::try_from(generation).unwrap_or(0),
            )
        } else {
            (i32::try_from(base).unwrap_or(0) + 1, 0)
        }
    }

    /// The rolling restart now: the slot number, the broker it restarts and
    /// whether that broker is still down (the first half of the slot).
    fn rolling(&self) -> Option<(u64, i32, bool)> {
        if self.rolling_restart == 0 {
            return None;
        }
        let millis = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(0);
        let slot_ms = self.rolling_restart * 1000;
        let slot = millis / slot_ms;
        let down = millis % slot_ms < slot_ms / 2;
        Some((slot, i32::try_from(slot % 3).unwrap_or(0) + 1, down))
    }

    /// A partition under the rolling restart: its leader, its epoch (two
    /// elections for every slot that restarted its preferred leader) and its ISR.
    fn rolled(
        preferred: i32,
        replicas: &[BrokerId],
        (slot, broker, down): (u64, i32, bool),
    ) -> (i32, i32, Vec<BrokerId>) {
        let r = u64::try_from(preferred - 1).unwrap_or(0);
        let past = if slot > r { (slot - r - 1) / 3 + 1 } else { 0 };
        let mut epoch = i32::try_from(past * 2).unwrap_or(i32::MAX);
        let mut leader = preferred;
        if broker == preferred {
            epoch += if down { 1 } else { 2 };
            if down {
                leader = preferred % 3 + 1;
            }
        }
        let isr = replicas
            .iter()
            .copied()
            .filter(|b| !(down && b.0 == broker))
            .collect();
        (leader, epoch, isr)
    }

    fn topic(&self, t: usize, generation: u64) -> MetadataResponseTopic {
        let rolling = self.rolling();
        let partitions = (0..self.partitions)
            .map(|p| {
                if let Some(now) = rolling {
                    let preferred = i32::try_from((t + p) % 3).unwrap_or(0) + 1;
                    let replicas: Vec<BrokerId> = (0..3)
                        .map(|i| BrokerId((preferred - 1 + i) % 3 + 1))
                        .collect();
                    let (leader, epoch, isr) = Self::rolled(preferred, &replicas, now);
                    return MetadataResponsePartition::default()
                        .with_partition_index(i32::try_from(p).unwrap_or(0))
                        .with_leader_id(BrokerId(leader))
                        .with_leader_epoch(epoch)
                        .with_isr_nodes(isr)
                        .with_replica_nodes(replicas);
                }
                let (leader, epoch) = self.leader(t, p, generation);
                let replicas: Vec<BrokerId> =
                    (0..3).map(|i| BrokerId((leader - 1 + i) % 3 + 1)).collect();
                MetadataResponsePartition::default()
                    .with_partition_index(i32::try_from(p).unwrap_or(0))
                    .with_leader_id(BrokerId(leader))
                    .with_leader_epoch(epoch)
                    .with_isr_nodes(replicas.clone())
                    .with_replica_nodes(replicas)
            })
            .collect();
        let mut id = [0u8; 16];
        id[..8].copy_from_slice(&(t as u64 + 1).to_be_bytes());
        MetadataResponseTopic::default()
            .with_name(Some(TopicName(str(topic_name(t)))))
            .with_topic_id(uuid::Uuid::from_bytes(id))
            .with_partitions(partitions)
    }
}

fn metadata(peer: &Peer, header: &RequestHeader, request: &MetadataRequest) -> Bytes {
    let version = header.request_api_version;
    let named: Option<Vec<usize>> = request.topics.as_ref().map(|topics| {
        topics
            .iter()
            .filter_map(|t| t.name.as_ref().and_then(|n| topic_index(n)))
            .filter(|t| *t < peer.topics)
            .collect()
    });
    let generation = if named.is_none() && peer.move_leaders > 0 {
        peer.generation.fetch_add(1, Ordering::Relaxed) + 1
    } else {
        peer.generation.load(Ordering::Relaxed)
    };
    let gone = peer.rolling().filter(|r| r.2).map(|r| r.1);
    let brokers = (1..=3)
        .filter(|node| Some(*node) != gone)
        .map(|node| {
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(node))
                .with_host(str("127.0.0.1".to_owned()))
                .with_port(i32::from(peer.port) + node - 1)
        })
        .collect();
    let base = MetadataResponse::default()
        .with_brokers(brokers)
        .with_cluster_id(Some(str("synthetic-peer".to_owned())))
        .with_controller_id(BrokerId(if gone == Some(1) { 2 } else { 1 }));
    match named {
        Some(topics) => {
            let topics = topics
                .into_iter()
                .map(|t| peer.topic(t, generation))
                .collect();
            reply(header, &base.with_topics(topics))
        }
        None if peer.move_leaders == 0 && peer.rolling_restart == 0 => {
            // Nothing changes: encode the whole answer once, patch the id.
            let mut cached = peer.cached.lock().expect("cache");
            let body = if let Some((_, body)) = cached.as_ref().filter(|(v, _)| *v == version) {
                body.clone()
            } else {
                let topics = (0..peer.topics).map(|t| peer.topic(t, 0)).collect();
                let mut buf = BytesMut::new();
                base.with_topics(topics)
                    .encode(&mut buf, version)
                    .expect("metadata");
                let body = buf.freeze();
                *cached = Some((version, body.clone()));
                body
            };
            let mut buf = BytesMut::with_capacity(body.len() + 8);
            ResponseHeader::default()
                .with_correlation_id(header.correlation_id)
                .encode(&mut buf, MetadataResponse::header_version(version))
                .expect("header");
            buf.put_slice(&body);
            buf.freeze()
        }
        None => {
            let topics = (0..peer.topics)
                .map(|t| peer.topic(t, generation))
                .collect();
            reply(header, &base.with_topics(topics))
        }
    }
}

fn list_offsets(peer: &Peer, header: &RequestHeader, request: &ListOffsetsRequest) -> Bytes {
    let topics = request
        .topics
        .iter()
        .map(|topic| {
            let t = topic_index(&topic.name);
            let partitions = topic
                .partitions
                .iter()
                .map(|p| {
                    let answer = ListOffsetsPartitionResponse::default()
                        .with_partition_index(p.partition_index);
                    match t {
                        Some(t) if t < peer.topics => answer.with_offset(if p.timestamp == -2 {
                            0
                        } else {
                            peer.end_offset(t, usize::try_from(p.partition_index).unwrap_or(0))
                        }),
                        _ => answer.with_error_code(3),
                    }
                })
                .collect();
            ListOffsetsTopicResponse::default()
                .with_name(topic.name.clone())
                .with_partitions(partitions)
        })
        .collect();
    reply(header, &ListOffsetsResponse::default().with_topics(topics))
}

/// A v2 record batch header whose first timestamp is `ms`.
fn batch_header(offset: i64, ms: i64) -> Bytes {
    let mut b = BytesMut::with_capacity(61);
    b.put_i64(offset); // base offset
    b.put_i32(49); // batch length (header only)
    b.put_i32(0); // partition leader epoch
    b.put_i8(2); // magic
    b.put_u32(0); // crc (not checked by kscope's header read)
    b.put_i16(0); // attributes
    b.put_i32(0); // last offset delta
    b.put_i64(ms); // base timestamp
    b.put_i64(ms); // max timestamp
    b.put_i64(-1); // producer id
    b.put_i16(-1); // producer epoch
    b.put_i32(-1); // base sequence
    b.put_i32(0); // records
    b.freeze()
}

fn fetch(peer: &Peer, header: &RequestHeader, request: &FetchRequest) -> Bytes {
    let now_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis()),
    )
    .unwrap_or(0);
    let responses = request
        .topics
        .iter()
        .map(|topic| {
            let partitions = topic
                .partitions
                .iter()
                .map(|p| {
                    let end = topic_index(&topic.topic).map_or(0, |t| {
                        peer.end_offset(t, usize::try_from(p.partition).unwrap_or(0))
                    });
                    // One record a tenth of a second: the age follows the lag.
                    let age_ms = (end - p.fetch_offset).max(0) * 100;
                    PartitionData::default()
                        .with_partition_index(p.partition)
                        .with_high_watermark(end)
                        .with_records(Some(batch_header(p.fetch_offset, now_ms - age_ms)))
                })
                .collect();
            FetchableTopicResponse::default()
                .with_topic(topic.topic.clone())
                .with_partitions(partitions)
        })
        .collect();
    reply(header, &FetchResponse::default().with_responses(responses))
}

fn coordinator_of(key: &str) -> i32 {
    group_index(key).map_or(1, |g| i32::try_from(g % 3).unwrap_or(0) + 1)
}

fn find_coordinator(
    peer: &Peer,
    header: &RequestHeader,
    request: &FindCoordinatorRequest,
) -> Bytes {
    let port = |node: i32| i32::from(peer.port) + node - 1;
    let host = || str("127.0.0.1".to_owned());
    let response = if header.request_api_version >= 4 {
        FindCoordinatorResponse::default().with_coordinators(
            request
                .coordinator_keys
                .iter()
                .map(|key| {
                    let node = coordinator_of(key);
                    Coordinator::default()
                        .with_key(key.clone())
                        .with_node_id(BrokerId(node))
                        .with_host(host())
                        .with_port(port(node))
                })
                .collect(),
        )
    } else {
        let node = coordinator_of(&request.key);
        FindCoordinatorResponse::default()
            .with_node_id(BrokerId(node))
            .with_host(host())
            .with_port(port(node))
    };
    reply(header, &response)
}

fn list_groups(peer: &Peer, node: i32, header: &RequestHeader) -> Bytes {
    let groups = (0..peer.groups)
        .filter(|g| i32::try_from(g % 3).unwrap_or(0) + 1 == node)
        .map(|g| {
            ListedGroup::default()
                .with_group_id(GroupId(str(group_name(g))))
                .with_protocol_type(str("consumer".to_owned()))
                .with_group_state(str("Empty".to_owned()))
                .with_group_type(str("classic".to_owned()))
        })
        .collect();
    reply(header, &ListGroupsResponse::default().with_groups(groups))
}

fn describe_groups(header: &RequestHeader, request: &DescribeGroupsRequest) -> Bytes {
    let groups = request
        .groups
        .iter()
        .map(|g| {
            DescribedGroup::default()
                .with_group_id(g.clone())
                .with_group_state(str("Empty".to_owned()))
                .with_protocol_type(str("consumer".to_owned()))
        })
        .collect();
    reply(
        header,
        &DescribeGroupsResponse::default().with_groups(groups),
    )
}

fn offset_fetch(peer: &Peer, header: &RequestHeader, request: &OffsetFetchRequest) -> Bytes {
    let groups = request
        .groups
        .iter()
        .map(|group| {
            let topics = group_index(&group.group_id)
                .filter(|g| *g < peer.groups && peer.topics > 0)
                .map(|g| {
                    let t = g % peer.topics;
                    let partitions = (0..peer.partitions)
                        .map(|p| {
                            OffsetFetchResponsePartitions::default()
                                .with_partition_index(i32::try_from(p).unwrap_or(0))
                                .with_committed_offset(peer.end_offset(t, p) - Peer::lag_of(g))
                                .with_committed_leader_epoch(-1)
                        })
                        .collect();
                    vec![
                        OffsetFetchResponseTopics::default()
                            .with_name(TopicName(str(topic_name(t))))
                            .with_partitions(partitions),
                    ]
                })
                .unwrap_or_default();
            OffsetFetchResponseGroup::default()
                .with_group_id(group.group_id.clone())
                .with_topics(topics)
        })
        .collect();
    reply(header, &OffsetFetchResponse::default().with_groups(groups))
}
