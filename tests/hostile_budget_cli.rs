//! The real binary against a test peer (not a Kafka broker) whose
//! `DescribeGroups` and `ConsumerGroupDescribe` answers are 96 MB frames
//! (under the default 100 MB cap) of minimal members: `kscope get groups` and
//! `kscope describe group` say which response was refused and why, and exit
//! by themselves instead of aborting (exit 134) on a multi-GB allocation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod hostile_peer;

use std::process::{Command, Output};

use hostile_peer::{Bodies, Claim, Peer, fill_array};
use kscope::conn::protocol::Message;
use kscope::conn::protocol::messages::{self as m, ApiKey};

/// A 96 MB body, under the default 100 MB frame cap.
const BODY: usize = 96 << 20;

fn peer(claim: Claim) -> Peer {
    use m::consumer_group_describe_response as cgd;
    use m::describe_groups_response as dg;
    let classic = fill_array(
        |k| {
            m::DescribeGroupsResponse::default().with_groups(vec![
                dg::DescribedGroup::default()
                    .with_members(vec![dg::DescribedGroupMember::default(); k]),
            ])
        },
        m::DescribeGroupsRequest::VERSIONS.max,
        BODY,
        claim,
    );
    let consumer = fill_array(
        |k| {
            m::ConsumerGroupDescribeResponse::default().with_groups(vec![
                cgd::DescribedGroup::default().with_members(vec![cgd::Member::default(); k]),
            ])
        },
        m::ConsumerGroupDescribeRequest::VERSIONS.max,
        BODY,
        claim,
    );
    Peer::start(Bodies::from([
        (ApiKey::DescribeGroups, classic.body),
        (ApiKey::ConsumerGroupDescribe, consumer.body),
    ]))
}

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

/// Exited by itself (no abort, no kill), naming the refused response and
/// what to check on stderr.
fn assert_refused(output: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_ne!(output.status.code(), Some(134), "{what} aborted: {stderr}");
    assert!(
        output.status.code().is_some(),
        "{what} was killed: {:?}",
        output.status
    );
    assert!(
        stderr.contains("needs more than") && stderr.contains("check that"),
        "{what}: {stderr}"
    );
    assert!(
        stderr.contains("DescribeGroups") || stderr.contains("ConsumerGroupDescribe"),
        "{what}: {stderr}"
    );
    eprintln!("{what}: exit {:?}: {stdout}{stderr}", output.status.code());
}

#[test]
fn get_groups_refuses_a_96_mb_frame_of_minimal_members() {
    for claim in [Claim::Honest, Claim::Huge] {
        let peer = peer(claim);
        assert_refused(
            &kscope(&peer, &["get", "groups"]),
            &format!("get groups ({claim:?})"),
        );
    }
}

/// `describe group` fails with the error.
#[test]
fn describe_group_refuses_a_96_mb_frame_of_minimal_members() {
    let peer = peer(Claim::Huge);
    assert_refused(
        &kscope(&peer, &["describe", "group", "g"]),
        "describe group",
    );
}

/// Benchmark harness, not a test (ignored by default): peak RSS of
/// `kscope get groups` against the 96 MB frames, measured by `/usr/bin/time -v`
/// around the binary named by `KSCOPE_BIN` (default: this build's).
///
///     KSCOPE_BIN=target/release/kscope cargo test --test hostile_budget_cli -- --ignored --nocapture
#[test]
#[ignore = "benchmark harness: prints peak RSS, asserts nothing about it"]
fn peak_rss_of_get_groups_against_96_mb_frames() {
    let binary =
        std::env::var("KSCOPE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_kscope").to_owned());
    for claim in [Claim::Honest, Claim::Huge] {
        let peer = peer(claim);
        let output = Command::new("/usr/bin/time")
            .arg("-v")
            .arg(&binary)
            .arg("-b")
            .arg(&peer.address)
            .args(["get", "groups"])
            .output()
            .expect("run /usr/bin/time");
        let stderr = String::from_utf8_lossy(&output.stderr);
        for line in stderr.lines().filter(|l| {
            l.contains("Maximum resident set size")
                || l.contains("Elapsed (wall clock)")
                || l.contains("Exit status")
        }) {
            eprintln!("{claim:?}: {}", line.trim());
        }
    }
}
