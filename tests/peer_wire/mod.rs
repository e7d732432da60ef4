//! The wire side of the test peers (`gated_peer`, `hostile_peer`; not Kafka
//! brokers): reading a request frame and its header, framing an answer,
//! the `ApiVersions` answer that advertises kscope's own ranges, encoding.
#![allow(dead_code, clippy::expect_used)]

use bytes::{Bytes, BytesMut};
use kscope::conn::protocol::messages::api_versions_response::ApiVersion;
use kscope::conn::protocol::messages::{
    ApiKey, ApiVersionsResponse, RequestHeader, ResponseHeader,
};
use kscope::conn::protocol::{Decodable, Encodable};
use kscope::conn::supported_versions;
use tokio::io::{AsyncRead, AsyncReadExt};

/// One request read off the socket: its API, version, correlation id and
/// the body after the header.
pub struct Request {
    pub key: ApiKey,
    pub version: i16,
    pub correlation_id: i32,
    pub body: Bytes,
}

/// The next request on `reader`; `None` once the client has gone.
pub async fn read_request<R: AsyncRead + Unpin>(reader: &mut R) -> Option<Request> {
    let length = reader.read_i32().await.ok()?;
    let mut frame = vec![0; usize::try_from(length).expect("request length")];
    reader.read_exact(&mut frame).await.ok()?;
    let mut body = Bytes::from(frame);
    let key = ApiKey::try_from(i16::from_be_bytes([body[0], body[1]])).expect("api key");
    let version = i16::from_be_bytes([body[2], body[3]]);
    let header = RequestHeader::decode(&mut body, key.request_header_version(version))
        .expect("request header");
    Some(Request {
        key,
        version,
        correlation_id: header.correlation_id,
        body,
    })
}

/// What goes before an answer of `body_len` bytes to `request`: the frame
/// length and the response header.
pub fn answer_prefix(request: &Request, body_len: usize) -> Vec<u8> {
    let mut head = BytesMut::new();
    ResponseHeader::default()
        .with_correlation_id(request.correlation_id)
        .encode(
            &mut head,
            request.key.response_header_version(request.version),
        )
        .expect("response header");
    let length = i32::try_from(head.len() + body_len).expect("frame length");
    let mut prefix = length.to_be_bytes().to_vec();
    prefix.extend_from_slice(&head);
    prefix
}

/// The handshake answer: kscope's own range for every API in `advertised`.
pub fn api_versions(advertised: &[ApiKey]) -> ApiVersionsResponse {
    ApiVersionsResponse::default().with_api_keys(
        advertised
            .iter()
            .map(|&key| {
                let ours = supported_versions(key);
                ApiVersion::default()
                    .with_api_key(key as i16)
                    .with_min_version(ours.min)
                    .with_max_version(ours.max)
            })
            .collect(),
    )
}

/// `value` encoded at `version`.
pub fn encode<T: Encodable>(value: &T, version: i16) -> Bytes {
    let mut buf = BytesMut::new();
    value.encode(&mut buf, version).expect("encode");
    buf.freeze()
}
