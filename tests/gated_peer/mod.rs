//! A fake broker for tests (not Kafka): one node on loopback that answers
//! `ApiVersions`, `Metadata` (itself as broker 1, one topic `t` in a full
//! answer), `DescribeQuorum` (itself as the leader, a high watermark that
//! rises with every ask), `ListGroups` (none), `FindCoordinator` (itself,
//! for every key) and `DescribeGroups` (each group stable and empty), and
//! counts what it was asked. Three knobs make the timing of kscope's own
//! code testable without sleeping and hoping:
//!
//! - a gate on full `Metadata` requests (every topic): while closed, their
//!   answers wait, so a test can act while a full refresh is in flight;
//! - a silent quorum: `DescribeQuorum` is never answered (a quorum that lost
//!   its majority);
//! - moved coordinators: `DescribeGroups` answers `NOT_COORDINATOR` for a
//!   group the first time it is asked about it;
//! - `DescribeCluster`, not advertised unless a test says up to which
//!   version ([`GatedPeer::describe_cluster_up_to`]), listing the peer as
//!   fenced or not ([`GatedPeer::fence`]).
//!
//! Each request is answered on its own task (responses may leave out of
//! order; kscope matches them by correlation id), so a held full `Metadata`
//! does not hold up the `DescribeQuorum` sent beside it on one connection.
//! The peer serves on its own thread's runtime, so tests driving the real
//! binary can use it too.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../peer_wire/mod.rs"]
mod wire;

use wire::encode;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicI16, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use kscope::conn::protocol::messages::describe_cluster_response::DescribeClusterBroker;
use kscope::conn::protocol::messages::describe_groups_response::DescribedGroup;
use kscope::conn::protocol::messages::describe_quorum_response::{
    PartitionData, ReplicaState, TopicData,
};
use kscope::conn::protocol::messages::find_coordinator_response::Coordinator;
use kscope::conn::protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kscope::conn::protocol::messages::{
    ApiKey, BrokerId, DescribeClusterResponse, DescribeGroupsRequest, DescribeGroupsResponse,
    DescribeQuorumResponse, FindCoordinatorRequest, FindCoordinatorResponse, ListGroupsResponse,
    MetadataRequest, MetadataResponse, TopicName,
};
use kscope::conn::protocol::{Decodable, StrBytes};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The APIs the peer advertises.
const ADVERTISED: &[ApiKey] = &[
    ApiKey::ApiVersions,
    ApiKey::Metadata,
    ApiKey::DescribeQuorum,
    ApiKey::ListGroups,
    ApiKey::FindCoordinator,
    ApiKey::DescribeGroups,
];

/// What the peer counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Asked {
    /// `Metadata` for every topic (a full refresh).
    FullMetadata,
    /// `Metadata` for named topics (a topic-scoped refresh).
    TopicsMetadata,
    /// `Metadata` for no topics (a liveness ping).
    NoTopicsMetadata,
    /// `DescribeQuorum`, answered or not.
    DescribeQuorum,
    /// `ListGroups`.
    ListGroups,
    /// `FindCoordinator` requests (however many keys each carries).
    FindCoordinator,
    /// `DescribeGroups` requests.
    DescribeGroups,
    /// `DescribeCluster` requests.
    DescribeCluster,
}

#[derive(Debug)]
struct Shared {
    port: u16,
    counts: Mutex<HashMap<Asked, usize>>,
    /// `true`: full `Metadata` answers go out; `false`: they wait.
    gate: watch::Sender<bool>,
    quorum_silent: AtomicBool,
    coordinators_moved: AtomicBool,
    /// Groups `DescribeGroups` was asked about.
    described: Mutex<HashSet<String>>,
    /// The highest `DescribeCluster` version advertised; -1: none.
    describe_cluster_max: AtomicI16,
    /// Whether `DescribeCluster` lists the peer as fenced.
    fenced: AtomicBool,
}

/// A running fake broker; it stops with the test process.
#[derive(Debug, Clone)]
pub struct GatedPeer {
    /// `127.0.0.1:port`.
    pub address: String,
    shared: Arc<Shared>,
}

impl GatedPeer {
    /// Start a peer with the gate open and the quorum answering.
    pub fn start() -> GatedPeer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("address").port();
        let shared = Arc::new(Shared {
            port,
            counts: Mutex::new(HashMap::new()),
            gate: watch::Sender::new(true),
            quorum_silent: AtomicBool::new(false),
            coordinators_moved: AtomicBool::new(false),
            described: Mutex::new(HashSet::new()),
            describe_cluster_max: AtomicI16::new(-1),
            fenced: AtomicBool::new(false),
        });
        let serving = shared.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = TcpListener::from_std(listener).expect("listener");
                while let Ok((socket, _)) = listener.accept().await {
                    tokio::spawn(serve(socket, serving.clone()));
                }
            });
        });
        GatedPeer {
            address: format!("127.0.0.1:{port}"),
            shared,
        }
    }

    /// Hold full `Metadata` answers until [`GatedPeer::open`].
    pub fn close(&self) {
        self.shared.gate.send_replace(false);
    }

    /// Let held and later full `Metadata` answers go out.
    pub fn open(&self) {
        self.shared.gate.send_replace(true);
    }

    /// Never answer `DescribeQuorum` from now on.
    pub fn silence_quorum(&self) {
        self.shared.quorum_silent.store(true, Ordering::SeqCst);
    }

    /// From now on, `DescribeGroups` answers `NOT_COORDINATOR` for a group
    /// the first time it is asked about it (its coordinator moved).
    pub fn move_coordinators(&self) {
        self.shared.coordinators_moved.store(true, Ordering::SeqCst);
    }

    /// Advertise `DescribeCluster` up to version `max` (to connections
    /// made from now on).
    pub fn describe_cluster_up_to(&self, max: i16) {
        self.shared
            .describe_cluster_max
            .store(max, Ordering::SeqCst);
    }

    /// List the peer as fenced (or not) in `DescribeCluster` answers (v2+).
    pub fn fence(&self, fenced: bool) {
        self.shared.fenced.store(fenced, Ordering::SeqCst);
    }

    /// How many `what` requests arrived so far.
    pub fn count(&self, what: Asked) -> usize {
        self.shared
            .counts
            .lock()
            .expect("counts")
            .get(&what)
            .copied()
            .unwrap_or(0)
    }

    /// Wait until at least `n` `what` requests arrived, for at most
    /// `deadline`; the count reached.
    pub async fn reached(&self, what: Asked, n: usize, deadline: Duration) -> usize {
        let until = Instant::now() + deadline;
        loop {
            let count = self.count(what);
            if count >= n || Instant::now() >= until {
                return count;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

async fn serve(socket: TcpStream, shared: Arc<Shared>) {
    let (mut reader, writer) = socket.into_split();
    let writer = Arc::new(tokio::sync::Mutex::new(writer));
    while let Some(mut request) = wire::read_request(&mut reader).await {
        let shared = shared.clone();
        let writer = writer.clone();
        tokio::spawn(async move {
            let (key, version) = (request.key, request.version);
            let Some(body) = answer(&shared, key, version, &mut request.body).await else {
                return;
            };
            let prefix = wire::answer_prefix(&request, body.len());
            let mut writer = writer.lock().await;
            let _ = writer.write_all(&prefix).await;
            let _ = writer.write_all(&body).await;
        });
    }
}

/// The handshake answer: [`ADVERTISED`], and `DescribeCluster` up to the
/// version a test set.
fn api_versions(shared: &Shared) -> kscope::conn::protocol::messages::ApiVersionsResponse {
    let max = shared.describe_cluster_max.load(Ordering::SeqCst);
    let mut keys = ADVERTISED.to_vec();
    if max >= 0 {
        keys.push(ApiKey::DescribeCluster);
    }
    let mut answer = wire::api_versions(&keys);
    for key in &mut answer.api_keys {
        if key.api_key == ApiKey::DescribeCluster as i16 {
            key.max_version = key.max_version.min(max);
        }
    }
    answer
}

fn count(shared: &Shared, what: Asked) -> usize {
    let mut counts = shared.counts.lock().expect("counts");
    let count = counts.entry(what).or_default();
    *count += 1;
    *count
}

/// The answer to one request, `None` for one never answered.
async fn answer(shared: &Shared, key: ApiKey, version: i16, request: &mut Bytes) -> Option<Bytes> {
    match key {
        ApiKey::ApiVersions => Some(encode(&api_versions(shared), version)),
        ApiKey::DescribeCluster => {
            count(shared, Asked::DescribeCluster);
            let fenced = version >= 2 && shared.fenced.load(Ordering::SeqCst);
            let me = DescribeClusterBroker::default()
                .with_broker_id(BrokerId(1))
                .with_host(StrBytes::from_static_str("127.0.0.1"))
                .with_port(i32::from(shared.port))
                .with_is_fenced(fenced);
            let answer = DescribeClusterResponse::default()
                .with_cluster_id(StrBytes::from_static_str("gated"))
                .with_controller_id(BrokerId(1))
                .with_brokers(vec![me]);
            Some(encode(&answer, version))
        }
        ApiKey::Metadata => {
            let asked = MetadataRequest::decode(request, version).expect("metadata request");
            let full = match &asked.topics {
                None => true,
                Some(topics) if topics.is_empty() => {
                    count(shared, Asked::NoTopicsMetadata);
                    false
                }
                Some(_) => {
                    count(shared, Asked::TopicsMetadata);
                    false
                }
            };
            if full {
                count(shared, Asked::FullMetadata);
                let mut gate = shared.gate.subscribe();
                let _ = gate.wait_for(|open| *open).await;
            }
            Some(encode(&metadata(shared.port, full), version))
        }
        ApiKey::DescribeQuorum => {
            let asked = count(shared, Asked::DescribeQuorum);
            if shared.quorum_silent.load(Ordering::SeqCst) {
                return None;
            }
            Some(encode(
                &quorum(i64::try_from(asked).expect("count")),
                version,
            ))
        }
        ApiKey::ListGroups => {
            count(shared, Asked::ListGroups);
            Some(encode(&ListGroupsResponse::default(), version))
        }
        ApiKey::FindCoordinator => {
            count(shared, Asked::FindCoordinator);
            let asked = FindCoordinatorRequest::decode(request, version).expect("request");
            let itself = |key: StrBytes| {
                Coordinator::default()
                    .with_key(key)
                    .with_node_id(BrokerId(1))
                    .with_host(StrBytes::from_static_str("127.0.0.1"))
                    .with_port(i32::from(shared.port))
            };
            let response = if version < 4 {
                FindCoordinatorResponse::default()
                    .with_node_id(BrokerId(1))
                    .with_host(StrBytes::from_static_str("127.0.0.1"))
                    .with_port(i32::from(shared.port))
            } else {
                FindCoordinatorResponse::default()
                    .with_coordinators(asked.coordinator_keys.into_iter().map(itself).collect())
            };
            Some(encode(&response, version))
        }
        ApiKey::DescribeGroups => {
            count(shared, Asked::DescribeGroups);
            let asked = DescribeGroupsRequest::decode(request, version).expect("request");
            let moved = shared.coordinators_moved.load(Ordering::SeqCst);
            let mut described = shared.described.lock().expect("described");
            let groups = asked
                .groups
                .into_iter()
                .map(|group| {
                    let first = described.insert(group.0.to_string());
                    let error_code = if moved && first { 16 } else { 0 };
                    DescribedGroup::default()
                        .with_group_id(group)
                        .with_error_code(error_code)
                        .with_group_state(StrBytes::from_static_str("Stable"))
                        .with_protocol_type(StrBytes::from_static_str("consumer"))
                })
                .collect();
            Some(encode(
                &DescribeGroupsResponse::default().with_groups(groups),
                version,
            ))
        }
        other => panic!("the gated peer has no answer for {other:?} v{version}"),
    }
}

fn metadata(port: u16, with_topic: bool) -> MetadataResponse {
    let broker = MetadataResponseBroker::default()
        .with_node_id(BrokerId(1))
        .with_host(StrBytes::from_static_str("127.0.0.1"))
        .with_port(i32::from(port));
    let topics = if with_topic {
        vec![
            MetadataResponseTopic::default()
                .with_name(Some(TopicName(StrBytes::from_static_str("t"))))
                .with_partitions(vec![
                    MetadataResponsePartition::default()
                        .with_partition_index(0)
                        .with_leader_id(BrokerId(1))
                        .with_replica_nodes(vec![BrokerId(1)])
                        .with_isr_nodes(vec![BrokerId(1)]),
                ]),
        ]
    } else {
        Vec::new()
    };
    MetadataResponse::default()
        .with_brokers(vec![broker])
        .with_topics(topics)
        .with_cluster_id(Some(StrBytes::from_static_str("gated")))
        .with_controller_id(BrokerId(1))
}

fn quorum(high_watermark: i64) -> DescribeQuorumResponse {
    let leader = ReplicaState::default()
        .with_replica_id(BrokerId(1))
        .with_log_end_offset(high_watermark);
    DescribeQuorumResponse::default().with_topics(vec![
        TopicData::default()
            .with_topic_name(TopicName(StrBytes::from_static_str("__cluster_metadata")))
            .with_partitions(vec![
                PartitionData::default()
                    .with_partition_index(0)
                    .with_leader_id(BrokerId(1))
                    .with_leader_epoch(1)
                    .with_high_watermark(high_watermark)
                    .with_current_voters(vec![leader]),
            ]),
    ])
}
