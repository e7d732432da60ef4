//! `kscope get` against a fake broker (`tests/gated_peer`, not Kafka) whose
//! quorum never answers `DescribeQuorum` (a quorum that lost its majority):
//! it answers from the metadata it has, warns that the metadata may be
//! stale, and waits out the quorum's deadline once, not once for the
//! connect's refresh and again for the liveness check.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod gated_peer;

use std::process::Command;

use gated_peer::{Asked, GatedPeer};

#[test]
fn get_topics_with_a_silent_quorum_asks_it_once_and_warns() {
    let peer = GatedPeer::start();
    peer.silence_quorum();
    let home = tempfile::tempdir().expect("home");

    let output = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .args(["-b", &peer.address, "get", "topics"])
        .output()
        .expect("run kscope");

    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stdout
            .lines()
            .any(|line| line.split_whitespace().next() == Some("t")),
        "topic t is not listed:\n{stdout}"
    );
    assert!(
        stderr.contains("the KRaft quorum does not answer"),
        "no stale-metadata warning:\n{stderr}"
    );
    assert_eq!(
        peer.count(Asked::DescribeQuorum),
        1,
        "the silent quorum was asked (and its deadline waited out) more than once"
    );
}
