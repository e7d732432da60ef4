//! The real connection code against in-process fake brokers over
//! `tokio::io::duplex`: handshake, pipelining, and every way a peer misbehaves.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::messages::api_versions_response::ApiVersion;
use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
use kafka_protocol::messages::{
    ApiKey, ApiVersionsResponse, CreateTopicsRequest, FetchRequest, MetadataRequest,
    MetadataResponse, RequestHeader, ResponseHeader, SaslAuthenticateResponse,
    SaslHandshakeResponse, TopicName,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, StrBytes};
use tokio::io::{AsyncWriteExt, DuplexStream};

use super::frame::read_frame;
use super::*;

const KEYS: &[ApiKey] = &[
    ApiKey::ApiVersions,
    ApiKey::Metadata,
    ApiKey::CreateTopics,
    ApiKey::SaslHandshake,
    ApiKey::SaslAuthenticate,
];

/// The broker's end of the stream, driven by the test.
struct FakeBroker {
    stream: DuplexStream,
}

impl FakeBroker {
    /// The next request: its header and raw body.
    async fn request(&mut self) -> (RequestHeader, Bytes) {
        let mut frame = read_frame(&mut self.stream, 1 << 20)
            .await
            .expect("a request");
        let key = ApiKey::try_from(i16::from_be_bytes([frame[0], frame[1]])).expect("api key");
        let version = i16::from_be_bytes([frame[2], frame[3]]);
        let header = RequestHeader::decode(&mut frame, key.request_header_version(version))
            .expect("request header");
        (header, frame)
    }

    async fn reply<T: Encodable + HeaderVersion>(&mut self, to: &RequestHeader, body: &T) {
        let version = to.request_api_version;
        let mut buf = BytesMut::new();
        ResponseHeader::default()
            .with_correlation_id(to.correlation_id)
            .encode(&mut buf, T::header_version(version))
            .unwrap();
        body.encode(&mut buf, version).unwrap();
        self.raw_frame(&buf).await;
    }

    async fn raw_frame(&mut self, payload: &[u8]) {
        let mut framed = BytesMut::new();
        framed.put_i32(i32::try_from(payload.len()).unwrap());
        framed.put_slice(payload);
        self.raw(&framed).await;
    }

    async fn raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.unwrap();
        self.stream.flush().await.unwrap();
    }

    /// Answer the `ApiVersions` handshake advertising `ranges`.
    async fn handshake_with(&mut self, ranges: &[(ApiKey, i16, i16)]) {
        let (header, _) = self.request().await;
        assert_eq!(header.request_api_key, ApiKey::ApiVersions as i16);
        let api_keys = ranges
            .iter()
            .map(|&(key, min, max)| {
                ApiVersion::default()
                    .with_api_key(key as i16)
                    .with_min_version(min)
                    .with_max_version(max)
            })
            .collect();
        self.reply(
            &header,
            &ApiVersionsResponse::default().with_api_keys(api_keys),
        )
        .await;
    }

    async fn handshake(&mut self) {
        let ranges: Vec<_> = KEYS
            .iter()
            .map(|&key| {
                let ours = supported_versions(key);
                (key, ours.min, ours.max)
            })
            .collect();
        self.handshake_with(&ranges).await;
    }
}

fn config() -> ConnectionConfig {
    ConnectionConfig {
        request_timeout: Duration::from_secs(5),
        connect_timeout: Duration::from_secs(5),
        ..ConnectionConfig::default()
    }
}

/// A handshaken connection and its fake broker.
async fn connected(config: &ConnectionConfig) -> (Connection, FakeBroker) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let mut broker = FakeBroker { stream: theirs };
    let (connection, ()) = tokio::join!(
        Connection::from_stream(ours, "fake:9092", Some(7), config),
        broker.handshake()
    );
    (connection.expect("handshake"), broker)
}

/// A handshaken connection to a fake broker advertising only `ranges`
/// (plus `ApiVersions`).
async fn connected_with(
    config: &ConnectionConfig,
    ranges: &[(ApiKey, i16, i16)],
) -> (Connection, FakeBroker) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let mut broker = FakeBroker { stream: theirs };
    let mut ranges = ranges.to_vec();
    let versions = supported_versions(ApiKey::ApiVersions);
    ranges.push((ApiKey::ApiVersions, versions.min, versions.max));
    let (connection, ()) = tokio::join!(
        Connection::from_stream(ours, "fake:9092", Some(7), config),
        broker.handshake_with(&ranges)
    );
    (connection.expect("handshake"), broker)
}

fn metadata_answer(cluster: &str) -> MetadataResponse {
    MetadataResponse::default().with_cluster_id(Some(StrBytes::from_string(cluster.to_owned())))
}

#[tokio::test]
async fn handshake_negotiates_and_a_request_round_trips() {
    let (connection, mut broker) = connected(&config()).await;
    let expected = supported_versions(ApiKey::Metadata).max;
    assert_eq!(
        connection.negotiated_for::<MetadataRequest>().unwrap(),
        expected
    );
    assert_eq!(
        connection.negotiated_version(ApiKey::Metadata),
        Some(expected)
    );
    assert_eq!(connection.node_id(), Some(7));
    assert_eq!(connection.address(), "fake:9092");
    let (response, ()) = tokio::join!(connection.send(MetadataRequest::default()), async {
        let (header, _) = broker.request().await;
        assert_eq!(header.request_api_version, expected);
        assert_eq!(header.client_id.as_deref(), Some("kscope"));
        broker.reply(&header, &metadata_answer("c1")).await;
    });
    assert_eq!(response.unwrap().cluster_id.as_deref(), Some("c1"));
}

#[tokio::test]
async fn api_versions_falls_back_when_the_broker_answers_unsupported_version() {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let mut broker = FakeBroker { stream: theirs };
    let config = config();
    let broker_side = async {
        let (first, _) = broker.request().await;
        assert_eq!(first.request_api_version, 4);
        // An old broker: error 35 and a v0 body saying it speaks ApiVersions 0-2.
        let mut body = BytesMut::new();
        body.put_i32(first.correlation_id);
        ApiVersionsResponse::default()
            .with_error_code(35)
            .with_api_keys(vec![
                ApiVersion::default().with_api_key(18).with_max_version(2),
            ])
            .encode(&mut body, 0)
            .unwrap();
        broker.raw_frame(&body).await;
        let (second, _) = broker.request().await;
        let answer = ApiVersionsResponse::default().with_api_keys(vec![
            ApiVersion::default().with_api_key(18).with_max_version(2),
            ApiVersion::default().with_api_key(3).with_max_version(9),
        ]);
        broker.reply(&second, &answer).await;
        second.request_api_version
    };
    let (connection, retried_at) = tokio::join!(
        Connection::from_stream(ours, "old:9092", None, &config),
        broker_side
    );
    assert_eq!(retried_at, 2);
    let connection = connection.unwrap();
    assert_eq!(connection.negotiated_version(ApiKey::Metadata), Some(9));
}

#[tokio::test]
async fn no_common_version_is_an_error_naming_the_api_and_both_ranges() {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let mut broker = FakeBroker { stream: theirs };
    let config = config();
    let (connection, ()) = tokio::join!(
        Connection::from_stream(ours, "fake:9092", Some(1), &config),
        broker.handshake_with(&[(ApiKey::ApiVersions, 0, 4), (ApiKey::Fetch, 0, 3)])
    );
    let connection = connection.unwrap();
    let error = connection.negotiated_for::<FetchRequest>().unwrap_err();
    let text = error.to_string();
    assert!(
        matches!(
            error,
            Error::UnsupportedVersion {
                api: ApiKey::Fetch,
                ..
            }
        ),
        "{text}"
    );
    assert!(
        text.contains("Fetch") && text.contains("v0-v3") && text.contains("broker 1"),
        "{text}"
    );
    let missing = connection.negotiated_for::<MetadataRequest>().unwrap_err();
    assert!(missing.to_string().contains("none"), "{missing}");
}

#[tokio::test]
async fn responses_out_of_order_reach_the_right_callers() {
    let (connection, mut broker) = connected(&config()).await;
    let (first, second, ()) = tokio::join!(
        connection.send(MetadataRequest::default()),
        connection.send(MetadataRequest::default()),
        async {
            // Both requests are on the wire before either is answered: pipelined.
            let (a, _) = broker.request().await;
            let (b, _) = broker.request().await;
            broker
                .reply(&b, &metadata_answer(&format!("for-{}", b.correlation_id)))
                .await;
            broker
                .reply(&a, &metadata_answer(&format!("for-{}", a.correlation_id)))
                .await;
        }
    );
    let first = first.unwrap().cluster_id.unwrap().to_string();
    let second = second.unwrap().cluster_id.unwrap().to_string();
    assert_ne!(first, second);
    assert!(first.starts_with("for-") && second.starts_with("for-"));
}

#[tokio::test]
async fn a_hang_up_mid_frame_fails_the_request_and_breaks_the_connection() {
    let (connection, mut broker) = connected(&config()).await;
    let (result, ()) = tokio::join!(connection.send(MetadataRequest::default()), async {
        let (header, _) = broker.request().await;
        let mut partial = BytesMut::new();
        partial.put_i32(100);
        partial.put_i32(header.correlation_id);
        broker.raw(&partial).await;
        drop(broker);
    });
    let error = result.unwrap_err();
    assert!(error.to_string().contains("mid-frame"), "{error}");
    assert!(error.retriable());
    assert!(connection.is_broken());
    let next = connection
        .send(MetadataRequest::default())
        .await
        .unwrap_err();
    assert!(matches!(next, Error::Broken { .. }), "{next:?}");
    assert_eq!(
        next.to_string(),
        "connection to broker 7 (fake:9092) is broken: \
         connection closed by the broker mid-frame (4 of 100 bytes)"
    );
}

#[tokio::test]
async fn an_oversized_frame_is_refused_before_allocating() {
    let (connection, mut broker) = connected(&config()).await;
    let (result, ()) = tokio::join!(connection.send(MetadataRequest::default()), async {
        broker.request().await;
        broker.raw(&[0x7f, 0xff, 0xff, 0xf0]).await;
    });
    let error = result.unwrap_err();
    assert!(matches!(error, Error::FrameTooLarge { .. }), "{error:?}");
    assert!(connection.is_broken());
}

#[tokio::test]
async fn garbage_bodies_and_unknown_correlation_ids_poison_the_connection() {
    let (connection, mut broker) = connected(&config()).await;
    let (result, ()) = tokio::join!(connection.send(MetadataRequest::default()), async {
        let (header, _) = broker.request().await;
        let mut garbage = BytesMut::new();
        garbage.put_i32(header.correlation_id);
        garbage.put_slice(&[0xde, 0xad, 0xbe, 0xef, 0x01]);
        broker.raw_frame(&garbage).await;
    });
    let error = result.unwrap_err();
    assert!(matches!(error, Error::Codec { .. }), "{error:?}");
    assert!(connection.is_broken());

    let (connection, mut broker) = connected(&config()).await;
    let (result, ()) = tokio::join!(connection.send(MetadataRequest::default()), async {
        broker.request().await;
        broker.raw_frame(&[0, 0, 0x30, 0x39, 0]).await; // correlation id 12345: never used
    });
    let error = result.unwrap_err();
    assert!(error.to_string().contains("12345"), "{error}");
    assert!(connection.is_broken());
}

#[tokio::test]
async fn a_tiny_frame_claiming_a_huge_array_is_an_error_not_an_abort() {
    let (connection, mut broker) = connected(&config()).await;
    let (result, ()) = tokio::join!(connection.send(MetadataRequest::default()), async {
        let (header, _) = broker.request().await;
        let mut hostile = BytesMut::new();
        hostile.put_i32(header.correlation_id);
        hostile.put_u8(0); // no tagged fields in the v1 response header
        hostile.put_i32(0); // throttle time
        hostile.put_slice(&[0xff, 0xff, 0xff, 0xff, 0x07]); // brokers: 2^31 - 2 elements
        broker.raw_frame(&hostile).await;
    });
    let error = result.unwrap_err();
    assert!(matches!(error, Error::Codec { .. }), "{error:?}");
}

#[tokio::test(start_paused = true)]
async fn a_request_times_out_and_the_connection_is_replaced() {
    let (connection, mut broker) = connected(&config()).await;
    let started = tokio::time::Instant::now();
    let (result, _held) = tokio::join!(connection.send(MetadataRequest::default()), async {
        broker.request().await // read it, never answer
    });
    let error = result.unwrap_err();
    assert!(matches!(error, Error::Timeout { .. }), "{error:?}");
    assert!(error.retriable());
    assert_eq!(started.elapsed(), Duration::from_secs(5));
    assert!(error.to_string().contains("timed out after 5s"), "{error}");
    assert!(connection.is_broken());
    let next = connection
        .send(MetadataRequest::default())
        .await
        .unwrap_err();
    let version = supported_versions(ApiKey::Metadata).max;
    assert_eq!(
        next.to_string(),
        format!(
            "connection to broker 7 (fake:9092) is broken: Metadata v{version} timed out after 5s"
        )
    );
}

#[tokio::test(start_paused = true)]
async fn connecting_to_a_silent_peer_times_out() {
    let (ours, _theirs) = tokio::io::duplex(1 << 16);
    let config = ConnectionConfig {
        connect_timeout: Duration::from_secs(2),
        ..config()
    };
    let started = tokio::time::Instant::now();
    let error = Connection::from_stream(ours, "silent:9092", None, &config)
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("connecting timed out after 2s"),
        "{error}"
    );
    assert_eq!(started.elapsed(), Duration::from_secs(2));
}

#[tokio::test]
async fn a_cancelled_caller_leaves_the_stream_and_the_table_intact() {
    let (connection, mut broker) = connected(&config()).await;
    let cancelled = {
        let connection = connection.clone();
        tokio::spawn(async move { connection.send(MetadataRequest::default()).await })
    };
    let (abandoned, _) = broker.request().await;
    cancelled.abort();
    assert!(cancelled.await.unwrap_err().is_cancelled());
    // Its response arrives after all, and is dropped quietly.
    broker.reply(&abandoned, &metadata_answer("late")).await;
    let (result, ()) = tokio::join!(connection.send(MetadataRequest::default()), async {
        let (header, _) = broker.request().await;
        broker.reply(&header, &metadata_answer("fresh")).await;
    });
    assert_eq!(result.unwrap().cluster_id.as_deref(), Some("fresh"));
    assert!(!connection.is_broken());
}

#[tokio::test]
async fn read_only_refuses_writes_before_they_reach_the_socket() {
    let read_only = ConnectionConfig {
        read_only: true,
        ..config()
    };
    let (connection, mut broker) = connected(&read_only).await;
    let error = connection
        .send(CreateTopicsRequest::default())
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::ReadOnly {
                api: ApiKey::CreateTopics
            }
        ),
        "{error:?}"
    );
    // The next thing on the wire is the read that follows, not the refused write.
    let read = MetadataRequest::default().with_allow_auto_topic_creation(false);
    let (result, ()) = tokio::join!(connection.send(read), async {
        let (header, _) = broker.request().await;
        assert_eq!(header.request_api_key, ApiKey::Metadata as i16);
        broker.reply(&header, &metadata_answer("c")).await;
    });
    result.unwrap();
}

#[tokio::test]
async fn read_only_refuses_metadata_that_may_auto_create_topics() {
    let read_only = ConnectionConfig {
        read_only: true,
        ..config()
    };
    let named = || {
        Some(vec![MetadataRequestTopic::default().with_name(Some(
            TopicName(StrBytes::from_static_str("typo")),
        ))])
    };
    // v4 and later: the flag decides, whether or not topics are named.
    let (connection, mut broker) = connected(&read_only).await;
    for request in [
        MetadataRequest::default(),
        MetadataRequest::default().with_topics(named()),
    ] {
        let error = connection.send(request).await.unwrap_err();
        assert!(
            matches!(
                error,
                Error::ReadOnlyRequest {
                    api: ApiKey::Metadata,
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(error.to_string().contains("auto-creation"), "{error}");
    }
    // Below v4 there is no flag: naming a topic is enough to create it.
    let (old, mut old_broker) = connected_with(&read_only, &[(ApiKey::Metadata, 0, 3)]).await;
    let safe_named = MetadataRequest::default()
        .with_allow_auto_topic_creation(false)
        .with_topics(named());
    let error = old.send(safe_named.clone()).await.unwrap_err();
    assert!(matches!(error, Error::ReadOnlyRequest { .. }), "{error:?}");
    assert!(error.to_string().contains("below v4"), "{error}");
    // Nothing refused reached either socket: the next request on the wire is
    // the allowed one (all topics below v4; named topics, flag off, from v4).
    let (result, ()) = tokio::join!(
        old.send(MetadataRequest::default().with_topics(None)),
        async {
            let (header, _) = old_broker.request().await;
            assert_eq!(header.request_api_version, 3);
            old_broker.reply(&header, &metadata_answer("old")).await;
        }
    );
    result.unwrap();
    let (result, ()) = tokio::join!(connection.send(safe_named), async {
        let (header, _) = broker.request().await;
        assert!(header.request_api_version >= 4);
        broker.reply(&header, &metadata_answer("new")).await;
    });
    result.unwrap();
    // A writable context sends what it is asked to send.
    let (writable, mut writable_broker) =
        connected_with(&config(), &[(ApiKey::Metadata, 0, 3)]).await;
    let (result, ()) = tokio::join!(
        writable.send(MetadataRequest::default().with_topics(named())),
        async {
            let (header, _) = writable_broker.request().await;
            writable_broker.reply(&header, &metadata_answer("w")).await;
        }
    );
    result.unwrap();
}

/// Connect with SASL, the fake answering the handshake and one authenticate round.
async fn sasl_exchange(sasl: SaslConfig, answer_code: i16) -> (Result<Connection>, Bytes) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let mut broker = FakeBroker { stream: theirs };
    let config = ConnectionConfig {
        sasl: Some(sasl),
        ..config()
    };
    let broker_side = async {
        broker.handshake().await;
        let (header, _) = broker.request().await;
        assert_eq!(header.request_api_key, ApiKey::SaslHandshake as i16);
        broker
            .reply(&header, &SaslHandshakeResponse::default())
            .await;
        let (header, mut body) = broker.request().await;
        assert_eq!(header.request_api_key, ApiKey::SaslAuthenticate as i16);
        let request = kafka_protocol::messages::SaslAuthenticateRequest::decode(
            &mut body,
            header.request_api_version,
        )
        .unwrap();
        assert!(!body.has_remaining());
        let answer = SaslAuthenticateResponse::default()
            .with_error_code(answer_code)
            .with_error_message((answer_code != 0).then(|| StrBytes::from_static_str("nope")));
        broker.reply(&header, &answer).await;
        request.auth_bytes
    };
    tokio::join!(
        Connection::from_stream(ours, "fake:9092", None, &config),
        broker_side
    )
}

#[tokio::test]
async fn sasl_plain_sends_the_rfc_4616_message() {
    let sasl = SaslConfig {
        mechanism: SaslMechanism::Plain,
        username: "alice".to_owned(),
        password: Secret::new("alice-secret"),
        token_command: None,
    };
    let (connection, sent) = sasl_exchange(sasl.clone(), 0).await;
    connection.unwrap();
    assert_eq!(&sent[..], b"\0alice\0alice-secret");

    let (connection, _) = sasl_exchange(sasl, 58).await;
    let error = connection.unwrap_err();
    assert!(matches!(error, Error::Sasl { .. }), "{error:?}");
    assert!(!error.retriable());
    assert!(!error.to_string().contains("alice-secret"), "{error}");
}

/// How a fake SCRAM broker answers the client's final message.
enum ScramEnd {
    /// Never: it holds the connection open and says nothing.
    Stall,
    /// With `SASL_AUTHENTICATION_FAILED`.
    Refuse,
}

/// Connect with SCRAM-SHA-512 to a fake broker that sends a server-first
/// message with `i=<iterations>`, then ends as `end` says. Returns the
/// connect result and whether the client's final message reached the broker.
async fn scram_with_iterations(
    iterations: &str,
    end: ScramEnd,
    connect_timeout: Duration,
) -> (Result<Connection>, bool) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let mut broker = FakeBroker { stream: theirs };
    let config = ConnectionConfig {
        sasl: Some(SaslConfig {
            mechanism: SaslMechanism::ScramSha512,
            username: "alice".to_owned(),
            password: Secret::new("alice-secret"),
            token_command: None,
        }),
        connect_timeout,
        request_timeout: Duration::from_secs(50),
        ..ConnectionConfig::default()
    };
    let (sent_final_tx, sent_final_rx) = tokio::sync::oneshot::channel();
    let iterations = iterations.to_owned();
    let broker_side = async move {
        broker.handshake().await;
        let (header, _) = broker.request().await;
        broker
            .reply(&header, &SaslHandshakeResponse::default())
            .await;
        let (header, mut body) = broker.request().await;
        let client_first = kafka_protocol::messages::SaslAuthenticateRequest::decode(
            &mut body,
            header.request_api_version,
        )
        .unwrap()
        .auth_bytes;
        let client_first = String::from_utf8(client_first.to_vec()).unwrap();
        let nonce = client_first.rsplit_once("r=").expect("a client nonce").1;
        let server_first = format!("r={nonce}fakeserver,s=c2FsdHNhbHQ=,i={iterations}");
        broker
            .reply(
                &header,
                &SaslAuthenticateResponse::default().with_auth_bytes(Bytes::from(server_first)),
            )
            .await;
        // The client's final message, unless it gave up first.
        let next = tokio::time::timeout(
            Duration::from_secs(30),
            read_frame(&mut broker.stream, 1 << 20),
        )
        .await;
        let Ok(Ok(mut frame)) = next else {
            let _ = sent_final_tx.send(false);
            return;
        };
        let version = i16::from_be_bytes([frame[2], frame[3]]);
        let header = RequestHeader::decode(
            &mut frame,
            ApiKey::SaslAuthenticate.request_header_version(version),
        )
        .unwrap();
        let _ = sent_final_tx.send(true);
        match end {
            ScramEnd::Stall => std::future::pending::<()>().await,
            ScramEnd::Refuse => {
                let answer = SaslAuthenticateResponse::default()
                    .with_error_code(58)
                    .with_error_message(Some(StrBytes::from_static_str("wrong password")));
                broker.reply(&header, &answer).await;
            }
        }
    };
    let broker_task = tokio::spawn(broker_side);
    let result = Connection::from_stream(ours, "fake:9092", None, &config).await;
    broker_task.abort();
    let sent_final = sent_final_rx.await.unwrap_or(false);
    (result, sent_final)
}

#[tokio::test]
async fn a_huge_scram_iteration_count_is_refused_before_hashing() {
    let (result, sent_final) =
        scram_with_iterations("4000000000", ScramEnd::Refuse, Duration::from_secs(50)).await;
    let error = result.unwrap_err();
    assert!(matches!(error, Error::Sasl { .. }), "{error:?}");
    let text = error.to_string();
    assert!(
        text.contains("4000000000") && text.contains("16384"),
        "{text}"
    );
    assert!(!error.retriable());
    assert!(!sent_final, "nothing was hashed or sent after the refusal");
}

#[tokio::test]
async fn kafkas_own_maximum_iteration_count_is_accepted() {
    let (result, sent_final) =
        scram_with_iterations("16384", ScramEnd::Refuse, Duration::from_secs(50)).await;
    assert!(sent_final, "the client hashed and sent its final message");
    let error = result.unwrap_err();
    assert!(error.to_string().contains("wrong password"), "{error}");
}

#[tokio::test]
async fn a_broker_that_stalls_mid_scram_hits_the_connect_timeout() {
    let (result, sent_final) =
        scram_with_iterations("4096", ScramEnd::Stall, Duration::from_millis(1500)).await;
    assert!(sent_final);
    let error = result.unwrap_err();
    assert!(
        matches!(&error, Error::Timeout { what, .. } if what == "connecting"),
        "{error:?}"
    );
}

#[tokio::test]
async fn oauthbearer_sends_the_token_from_the_command() {
    let sasl = SaslConfig {
        mechanism: SaslMechanism::OAuthBearer,
        username: String::new(),
        password: Secret::default(),
        token_command: Some(Secret::new("printf 'eyJ.token.sig\\n'")),
    };
    let (connection, sent) = sasl_exchange(sasl, 0).await;
    connection.unwrap();
    assert_eq!(&sent[..], b"n,,\x01auth=Bearer eyJ.token.sig\x01\x01");
}

#[test]
fn handles_and_futures_can_cross_tasks() {
    fn send_and_sync<T: Send + Sync>(_: &T) {}
    fn send<T: Send>(_: &T) {}
    let config = ConnectionConfig::default();
    let connect = Connection::connect("127.0.0.1:1", None, &config);
    send(&connect);
    drop(connect);
    let error = Error::InvalidRequest(String::new());
    send_and_sync(&error);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (connection, _broker) = connected(&config).await;
        send_and_sync(&connection);
        let request = connection.send(MetadataRequest::default());
        send(&request);
    });
}
