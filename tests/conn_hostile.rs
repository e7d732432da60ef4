//! Whatever a broker (or a man in the middle) sends, kscope returns an error and
//! keeps running: a real TCP server on loopback answering with hostile bytes.
//! Needs no Kafka cluster.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use kscope::conn::{Connection, ConnectionConfig, Error};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

fn config() -> ConnectionConfig {
    ConnectionConfig {
        connect_timeout: Duration::from_secs(5),
        request_timeout: Duration::from_secs(5),
        ..ConnectionConfig::default()
    }
}

/// Serve one connection: read the first request, answer `reply` (which must
/// be built from the request's correlation id), then hang up.
async fn serve_once(reply: impl FnOnce(i32) -> Vec<u8> + Send + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let length = socket.read_i32().await.unwrap();
        let mut request = vec![0; usize::try_from(length).unwrap()];
        socket.read_exact(&mut request).await.unwrap();
        let correlation_id = i32::from_be_bytes(request[4..8].try_into().unwrap());
        let _ = socket.write_all(&reply(correlation_id)).await;
        let _ = socket.flush().await;
        // Keep the socket open a moment so the client reads before the reset.
        let mut rest = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(2), socket.read_to_end(&mut rest)).await;
    });
    address
}

fn framed(payload: &[u8]) -> Vec<u8> {
    let mut out = i32::try_from(payload.len()).unwrap().to_be_bytes().to_vec();
    out.extend_from_slice(payload);
    out
}

#[tokio::test]
async fn a_tiny_frame_claiming_a_huge_array_is_an_error() {
    // ApiVersions v4 answer: correlation id, error code 0, then an api_keys
    // compact array claiming 2^32 - 2 entries. Eleven bytes of body.
    let address = serve_once(|id| {
        let mut body = id.to_be_bytes().to_vec();
        body.extend_from_slice(&[0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        framed(&body)
    })
    .await;
    let error = Connection::connect(&address, None, &config())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Codec { .. }), "{error:?}");
    eprintln!("{error}");
}

#[tokio::test]
async fn a_frame_claiming_two_gigabytes_is_refused_before_allocating() {
    let address = serve_once(|_| vec![0x7f, 0xff, 0xff, 0xff, 1, 2, 3]).await;
    let error = Connection::connect(&address, None, &config())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::FrameTooLarge { .. }), "{error:?}");
}

#[tokio::test]
async fn random_bytes_are_errors_never_aborts() {
    let mut rng = StdRng::seed_from_u64(0x6b73_636f_7065);
    for round in 0..100 {
        let length = rng.random_range(0..64);
        let mut junk: Vec<u8> = (0..length).map(|_| rng.random()).collect();
        if round % 2 == 0 {
            // Half the time, a well-formed frame around the junk, with our id.
            junk = framed(&junk);
        }
        let wire = junk.clone();
        let with_id = round % 4 == 0;
        let address = serve_once(move |id| {
            if with_id && wire.len() >= 8 {
                let mut wire = wire;
                wire[4..8].copy_from_slice(&id.to_be_bytes());
                wire
            } else {
                wire
            }
        })
        .await;
        let result = Connection::connect(&address, None, &config()).await;
        assert!(
            result.is_err(),
            "round {round}: junk {junk:02x?} was accepted"
        );
    }
}
