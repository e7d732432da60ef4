//! A test peer (not a Kafka broker) on loopback, and hostile response bodies
//! that fill a frame cap with minimal elements, built without ever holding
//! the elements in memory.
//!
//! The peer answers the `ApiVersions` handshake (advertising kscope's own
//! ranges, so kscope uses each request type's newest version), `Metadata`
//! (itself as broker 1), `FindCoordinator` (itself), `ListGroups` (one
//! consumer group `g`), and `DescribeQuorum`, `OffsetFetch` and `ListOffsets`
//! (empty) with small honest answers, and any API given a prepared
//! body with that body, every time it is asked. It serves each connection on
//! its own thread's runtime, so sync tests driving the real binary can use it.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../peer_wire/mod.rs"]
mod wire;

use std::collections::HashMap;
use std::sync::Arc;

use bytes::{BufMut, Bytes, BytesMut};
use kscope::conn::protocol::messages::find_coordinator_response::Coordinator;
use kscope::conn::protocol::messages::list_groups_response::ListedGroup;
use kscope::conn::protocol::messages::metadata_response::MetadataResponseBroker;
use kscope::conn::protocol::messages::{
    ApiKey, ApiVersionsResponse, BrokerId, DescribeQuorumResponse, FindCoordinatorRequest,
    FindCoordinatorResponse, GroupId, ListGroupsResponse, ListOffsetsResponse, MetadataResponse,
    OffsetFetchResponse,
};
use kscope::conn::protocol::{Decodable, Encodable, StrBytes};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

/// The APIs the peer advertises.
const ADVERTISED: &[ApiKey] = &[
    ApiKey::ApiVersions,
    ApiKey::SaslHandshake,
    ApiKey::SaslAuthenticate,
    ApiKey::Metadata,
    ApiKey::DescribeCluster,
    ApiKey::FindCoordinator,
    ApiKey::ListOffsets,
    ApiKey::Fetch,
    ApiKey::ListGroups,
    ApiKey::DescribeGroups,
    ApiKey::ConsumerGroupDescribe,
    ApiKey::OffsetFetch,
    ApiKey::DescribeConfigs,
    ApiKey::DescribeLogDirs,
    ApiKey::DescribeQuorum,
    ApiKey::DescribeAcls,
    ApiKey::DescribeClientQuotas,
    ApiKey::DescribeUserScramCredentials,
    ApiKey::ListPartitionReassignments,
    ApiKey::ListTransactions,
    ApiKey::DescribeTransactions,
    ApiKey::DescribeProducers,
];

/// A running test peer; it stops with the test process.
pub struct Peer {
    /// `127.0.0.1:port`.
    pub address: String,
}

/// Response bodies (without the response header) to answer, by API.
pub type Bodies = HashMap<ApiKey, Bytes>;

impl Peer {
    /// Start a peer answering `bodies` for their APIs.
    pub fn start(bodies: Bodies) -> Peer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let address = listener.local_addr().expect("address").to_string();
        let port = listener.local_addr().expect("address").port();
        let bodies = Arc::new(bodies);
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = TcpListener::from_std(listener).expect("listener");
                loop {
                    let Ok((socket, _)) = listener.accept().await else {
                        return;
                    };
                    tokio::spawn(serve(socket, port, bodies.clone()));
                }
            });
        });
        Peer { address }
    }
}

async fn serve(mut socket: TcpStream, port: u16, bodies: Arc<Bodies>) {
    while let Some(mut request) = wire::read_request(&mut socket).await {
        let body = match bodies.get(&request.key) {
            Some(body) => body.clone(),
            None => honest(request.key, request.version, &mut request.body, port),
        };
        let prefix = wire::answer_prefix(&request, body.len());
        if socket.write_all(&prefix).await.is_err() || socket.write_all(&body).await.is_err() {
            return;
        }
    }
}

/// The small honest answer to `key`.
fn honest(key: ApiKey, version: i16, request: &mut Bytes, port: u16) -> Bytes {
    match key {
        ApiKey::ApiVersions => encode(&api_versions(), version),
        ApiKey::Metadata => {
            let broker = MetadataResponseBroker::default()
                .with_node_id(BrokerId(1))
                .with_host(StrBytes::from_static_str("127.0.0.1"))
                .with_port(i32::from(port));
            let response = MetadataResponse::default()
                .with_brokers(vec![broker])
                .with_cluster_id(Some(StrBytes::from_static_str("hostile")))
                .with_controller_id(BrokerId(1));
            encode(&response, version)
        }
        ApiKey::FindCoordinator => {
            let asked = FindCoordinatorRequest::decode(request, version).expect("request");
            let response = if version < 4 {
                FindCoordinatorResponse::default()
                    .with_node_id(BrokerId(1))
                    .with_host(StrBytes::from_static_str("127.0.0.1"))
                    .with_port(i32::from(port))
            } else {
                FindCoordinatorResponse::default().with_coordinators(
                    asked
                        .coordinator_keys
                        .into_iter()
                        .map(|key| {
                            Coordinator::default()
                                .with_key(key)
                                .with_node_id(BrokerId(1))
                                .with_host(StrBytes::from_static_str("127.0.0.1"))
                                .with_port(i32::from(port))
                        })
                        .collect(),
                )
            };
            encode(&response, version)
        }
        ApiKey::ListGroups => {
            let mut group = ListedGroup::default()
                .with_group_id(GroupId(StrBytes::from_static_str("g")))
                .with_protocol_type(StrBytes::from_static_str("consumer"));
            if version >= 4 {
                group = group.with_group_state(StrBytes::from_static_str("Stable"));
            }
            if version >= 5 {
                group = group.with_group_type(StrBytes::from_static_str("classic"));
            }
            encode(
                &ListGroupsResponse::default().with_groups(vec![group]),
                version,
            )
        }
        ApiKey::DescribeQuorum => encode(&DescribeQuorumResponse::default(), version),
        ApiKey::OffsetFetch => encode(&OffsetFetchResponse::default(), version),
        ApiKey::ListOffsets => encode(&ListOffsetsResponse::default(), version),
        other => panic!("the test peer has no answer for {other:?} v{version}"),
    }
}

/// The handshake answer: kscope's own range for every advertised API.
pub fn api_versions() -> ApiVersionsResponse {
    wire::api_versions(ADVERTISED)
}

pub use wire::encode;

/// A hostile body and what it holds.
pub struct Filled {
    /// The response body, without the response header.
    pub body: Bytes,
    /// Elements really present.
    pub elements: usize,
    /// Bytes of one element on the wire.
    pub element_len: usize,
}

/// How many elements the filled array claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// As many as are present.
    Honest,
    /// 2^31 - 1 (`Int32` count) or 2^32 - 2 (compact count).
    Huge,
}

/// A body of at most `limit` bytes whose one array (the one `build(k)` fills
/// with `k` default elements) holds as many elements as fit.
///
/// `build(1)` and `build(2)` are encoded and compared: they differ first in
/// the array's count, and by one element's bytes; the body is then the bytes
/// before the count, the count, the element repeated, and the bytes after.
pub fn fill_array<T: Encodable>(
    build: impl Fn(usize) -> T,
    version: i16,
    limit: usize,
    claim: Claim,
) -> Filled {
    let one = encode(&build(1), version);
    let two = encode(&build(2), version);
    let element_len = two.len() - one.len();
    assert!(element_len > 0, "an element takes no bytes");
    let first_difference = one
        .iter()
        .zip(two.iter())
        .position(|(a, b)| a != b)
        .expect("the encodings differ");
    let (start, compact) = match (one[first_difference], two[first_difference]) {
        (2, 3) => (first_difference, true),
        (1, 2) if one[first_difference - 3..first_difference] == [0, 0, 0] => {
            (first_difference - 3, false)
        }
        other => panic!("no array count at byte {first_difference}: {other:?}"),
    };
    let width = if compact { 1 } else { 4 };
    let element = &one[start + width..start + width + element_len];
    let before = &one[..start];
    let after = &one[start + width + element_len..];
    assert_eq!(
        &two[start + width..start + width + 2 * element_len],
        [element, element].concat(),
        "two elements are not the element twice"
    );
    let elements = (limit - before.len() - after.len() - 5) / element_len;
    let mut body = BytesMut::with_capacity(limit);
    body.put_slice(before);
    match (compact, claim) {
        (false, Claim::Honest) => body.put_i32(i32::try_from(elements).expect("count")),
        (false, Claim::Huge) => body.put_i32(i32::MAX),
        (true, Claim::Honest) => put_varint(&mut body, u32::try_from(elements + 1).expect("n")),
        (true, Claim::Huge) => put_varint(&mut body, u32::MAX),
    }
    for _ in 0..elements {
        body.put_slice(element);
    }
    body.put_slice(after);
    assert!(body.len() <= limit);
    Filled {
        body: body.freeze(),
        elements,
        element_len,
    }
}

/// A body of at most `limit` bytes: `value` at a flexible `version`, its
/// top-level tagged-field section (the body's last byte, a zero count)
/// replaced by as many distinct empty unknown tagged fields as fit (tags from
/// 1000 up: 3 or 4 bytes each), or claiming 2^32 - 1 of them.
pub fn fill_tagged<T: Encodable>(value: &T, version: i16, limit: usize, claim: Claim) -> Filled {
    let plain = encode(value, version);
    assert_eq!(plain.last(), Some(&0), "not a flexible version's encoding");
    let before = &plain[..plain.len() - 1];
    let mut fields = BytesMut::with_capacity(limit);
    let mut elements = 0usize;
    let room = limit - before.len() - 5;
    let mut tag = 1000u32;
    let mut field = BytesMut::with_capacity(6);
    loop {
        field.clear();
        put_varint(&mut field, tag);
        field.put_u8(0); // its size: empty
        if fields.len() + field.len() > room {
            break;
        }
        fields.put_slice(&field);
        elements += 1;
        tag += 1;
    }
    let mut body = BytesMut::with_capacity(limit);
    body.put_slice(before);
    match claim {
        Claim::Honest => put_varint(&mut body, u32::try_from(elements).expect("n")),
        Claim::Huge => put_varint(&mut body, u32::MAX),
    }
    body.put_slice(&fields);
    Filled {
        body: body.freeze(),
        elements,
        element_len: 3,
    }
}

fn put_varint(buf: &mut BytesMut, mut value: u32) {
    while value >= 0x80 {
        buf.put_u8(u8::try_from(value & 0x7f).expect("7 bits") | 0x80);
        value >>= 7;
    }
    buf.put_u8(u8::try_from(value).expect("7 bits"));
}
