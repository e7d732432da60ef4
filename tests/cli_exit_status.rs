//! Exit statuses of the headless commands, against a test peer (not a Kafka
//! broker, `tests/hostile_peer`): 0 when everything answered, 1 on an
//! error, 2 on a usage error, 3 when the output is partial (some rows could
//! not be answered), with the stderr line saying what is missing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod hostile_peer;

use std::process::{Command, Output};

use bytes::Bytes;
use hostile_peer::{Bodies, Peer};
use kscope::conn::protocol::messages::describe_groups_response::DescribedGroup;
use kscope::conn::protocol::messages::{ApiKey, DescribeGroupsResponse, GroupId};
use kscope::conn::protocol::{Encodable, Message, StrBytes};

fn kscope(peer: &Peer, args: &[&str]) -> Output {
    let home = tempfile::tempdir().expect("home");
    Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .arg("-b")
        .arg(&peer.address)
        .args(args)
        .output()
        .expect("run kscope")
}

fn encode<T: Encodable + Message>(value: &T) -> Bytes {
    let mut body = bytes::BytesMut::new();
    value.encode(&mut body, T::VERSIONS.max).expect("encodable");
    body.freeze()
}

/// A peer whose one group `g` cannot be described: not authorised.
fn peer_with_an_undescribable_group() -> Peer {
    let denied = DescribeGroupsResponse::default().with_groups(vec![
        DescribedGroup::default()
            .with_group_id(GroupId(StrBytes::from_static_str("g")))
            .with_error_code(30), // GROUP_AUTHORIZATION_FAILED
    ]);
    Peer::start(Bodies::from([(ApiKey::DescribeGroups, encode(&denied))]))
}

fn status(output: &Output) -> Option<i32> {
    output.status.code()
}

#[test]
fn everything_answered_is_0() {
    let peer = Peer::start(Bodies::new());
    let output = kscope(&peer, &["get", "brokers", "-o", "json"]);
    assert_eq!(
        status(&output),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_group_that_could_not_be_described_makes_the_listing_partial_3() {
    let peer = peer_with_an_undescribable_group();
    for format in ["table", "json"] {
        let output = kscope(&peer, &["get", "groups", "-o", format]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(status(&output), Some(3), "-o {format}: {stderr}");
        assert!(
            stderr.contains("kscope: ") && stderr.contains('g'),
            "the stderr line says which group and why: {stderr}"
        );
        assert!(
            String::from_utf8_lossy(&output.stdout).contains('g'),
            "the group's row is still printed"
        );
    }
}

#[test]
fn an_error_is_1_and_a_usage_error_is_2() {
    let peer = Peer::start(Bodies::new());
    let missing = kscope(&peer, &["consume", "no-such-topic", "-n", "1"]);
    assert_eq!(
        status(&missing),
        Some(1),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
    let usage = kscope(&peer, &["get", "topics", "-o", "raw"]);
    assert_eq!(
        status(&usage),
        Some(2),
        "{}",
        String::from_utf8_lossy(&usage.stderr)
    );
}
