//! A fake broker for tests (not Kafka): one node on loopback holding one
//! topic `t` with one partition that it leads, whose log runs from offset 0
//! to `end`. It answers `ApiVersions` (kscope's own ranges), `Metadata`
//! (itself as broker 1, the topic), `ListOffsets` (0 for the earliest,
//! `end` for anything else) and `Fetch`, at once, with what the test's
//! closure gives for the offset asked: the high watermark and the record
//! batches. It counts the `Fetch` requests it was sent. It serves on its own
//! thread's runtime, so tests driving the real binary can use it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../peer_wire/mod.rs"]
mod wire;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use kscope::conn::protocol::messages::fetch_response::{FetchableTopicResponse, PartitionData};
use kscope::conn::protocol::messages::list_offsets_response::{
    ListOffsetsPartitionResponse, ListOffsetsTopicResponse,
};
use kscope::conn::protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kscope::conn::protocol::messages::{
    ApiKey, BrokerId, FetchRequest, FetchResponse, ListOffsetsRequest, ListOffsetsResponse,
    MetadataResponse, TopicName,
};
use kscope::conn::protocol::{Decodable, StrBytes};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

/// The topic's id (Fetch v13+ names topics by id).
const TOPIC_ID: uuid::Uuid = uuid::Uuid::from_u128(0x6b73_636f_7065_0000_0000_0000_0000_0031);

/// What the peer answers a `Fetch` at an offset: the high watermark and
/// the partition's record batches.
pub type Fetched = Arc<dyn Fn(i64) -> (i64, Bytes) + Send + Sync>;

/// A running fake peer; it stops with the test process.
pub struct FetchPeer {
    /// `127.0.0.1:port`.
    pub address: String,
    fetches: Arc<AtomicUsize>,
}

impl FetchPeer {
    /// Start a peer whose log ends at `end`, answering `Fetch` with `answer`.
    pub fn start(end: i64, answer: impl Fn(i64) -> (i64, Bytes) + Send + Sync + 'static) -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let address = listener.local_addr().expect("address").to_string();
        let port = listener.local_addr().expect("address").port();
        let fetches = Arc::new(AtomicUsize::new(0));
        let peer = Arc::new(Served {
            port,
            end,
            fetched: Arc::new(answer),
            fetches: fetches.clone(),
        });
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = TcpListener::from_std(listener).expect("listener");
                while let Ok((socket, _)) = listener.accept().await {
                    tokio::spawn(serve(socket, peer.clone()));
                }
            });
        });
        FetchPeer { address, fetches }
    }

    /// How many `Fetch` requests it was sent so far.
    pub fn fetches(&self) -> usize {
        self.fetches.load(Ordering::SeqCst)
    }
}

struct Served {
    port: u16,
    end: i64,
    fetched: Fetched,
    fetches: Arc<AtomicUsize>,
}

async fn serve(mut socket: TcpStream, peer: Arc<Served>) {
    // At once means at once: no Nagle delay on the answers' second write.
    if socket.set_nodelay(true).is_err() {
        return;
    }
    while let Some(mut request) = wire::read_request(&mut socket).await {
        let body = answer(&peer, request.key, request.version, &mut request.body);
        let prefix = wire::answer_prefix(&request, body.len());
        if socket.write_all(&prefix).await.is_err() || socket.write_all(&body).await.is_err() {
            return;
        }
    }
}

fn answer(peer: &Served, key: ApiKey, version: i16, body: &mut Bytes) -> Bytes {
    match key {
        ApiKey::ApiVersions => wire::encode(
            &wire::api_versions(&[
                ApiKey::ApiVersions,
                ApiKey::Metadata,
                ApiKey::ListOffsets,
                ApiKey::Fetch,
            ]),
            version,
        ),
        ApiKey::Metadata => wire::encode(&metadata(peer.port), version),
        ApiKey::ListOffsets => {
            let asked = ListOffsetsRequest::decode(body, version).expect("list offsets");
            let topics = asked
                .topics
                .into_iter()
                .map(|topic| {
                    let partitions = topic
                        .partitions
                        .iter()
                        .map(|p| {
                            ListOffsetsPartitionResponse::default()
                                .with_partition_index(p.partition_index)
                                .with_timestamp(-1)
                                .with_offset(if p.timestamp == -2 { 0 } else { peer.end })
                        })
                        .collect();
                    ListOffsetsTopicResponse::default()
                        .with_name(topic.name)
                        .with_partitions(partitions)
                })
                .collect();
            wire::encode(&ListOffsetsResponse::default().with_topics(topics), version)
        }
        ApiKey::Fetch => {
            peer.fetches.fetch_add(1, Ordering::SeqCst);
            let asked = FetchRequest::decode(body, version).expect("fetch");
            let topics = asked
                .topics
                .into_iter()
                .map(|topic| {
                    let partitions = topic
                        .partitions
                        .iter()
                        .map(|p| {
                            let (high, records) = (peer.fetched)(p.fetch_offset);
                            PartitionData::default()
                                .with_partition_index(p.partition)
                                .with_high_watermark(high)
                                .with_last_stable_offset(high)
                                .with_log_start_offset(0)
                                .with_records(Some(records))
                        })
                        .collect();
                    FetchableTopicResponse::default()
                        .with_topic(topic.topic)
                        .with_topic_id(topic.topic_id)
                        .with_partitions(partitions)
                })
                .collect();
            wire::encode(&FetchResponse::default().with_responses(topics), version)
        }
        other => panic!("the fetch peer has no answer for {other:?} v{version}"),
    }
}

fn metadata(port: u16) -> MetadataResponse {
    let broker = MetadataResponseBroker::default()
        .with_node_id(BrokerId(1))
        .with_host(StrBytes::from_static_str("127.0.0.1"))
        .with_port(i32::from(port));
    MetadataResponse::default()
        .with_brokers(vec![broker])
        .with_topics(vec![
            MetadataResponseTopic::default()
                .with_name(Some(TopicName(StrBytes::from_static_str("t"))))
                .with_topic_id(TOPIC_ID)
                .with_partitions(vec![
                    MetadataResponsePartition::default()
                        .with_partition_index(0)
                        .with_leader_id(BrokerId(1))
                        .with_replica_nodes(vec![BrokerId(1)])
                        .with_isr_nodes(vec![BrokerId(1)]),
                ]),
        ])
        .with_cluster_id(Some(StrBytes::from_static_str("fetch-peer")))
        .with_controller_id(BrokerId(1))
}
