//! Empty follow answers back off: the real binary against a fake peer (not a
//! Kafka broker) that answers every `Fetch` at once, ignoring its
//! `max_wait`, with no records and a high watermark at the offset asked.
//! `kscope consume t -f` must not ask again at once: it waits out
//! `follow_wait` (500 ms) since each such fetch was sent, so 2 s of following
//! send a handful of fetches, not thousands.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fetch_peer;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bytes::Bytes;
use fetch_peer::FetchPeer;

/// How long the binary follows.
const WINDOW: Duration = Duration::from_secs(2);
/// The most fetches allowed in the window: one per 500 ms `follow_wait`
/// (4), with ample slack for start-up and scheduling; an unpaced loop sends
/// thousands.
const MOST: usize = 50;

#[test]
fn a_broker_answering_empty_at_once_is_not_asked_thousands_of_times_a_second() {
    let peer = FetchPeer::start(5, |offset| (offset, Bytes::new()));
    let home = tempfile::tempdir().expect("home");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kscope"))
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .arg("-b")
        .arg(&peer.address)
        .args(["consume", "t", "--from", "end", "-f", "-o", "json"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run kscope");
    // The window starts with the first fetch (after start-up), so that the
    // rate is measured while following.
    let deadline = Instant::now() + Duration::from_secs(30);
    while peer.fetches() == 0 {
        assert!(Instant::now() < deadline, "kscope never fetched");
        assert!(
            child.try_wait().expect("try_wait").is_none(),
            "kscope exited before following"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(WINDOW);
    let fetches = peer.fetches();
    let running = child.try_wait().expect("try_wait").is_none();
    child.kill().expect("kill kscope");
    child.wait().expect("reap kscope");
    eprintln!("{fetches} fetches in {WINDOW:?} of following");
    assert!(running, "kscope stopped following");
    assert!(
        fetches < MOST,
        "{fetches} fetches in {WINDOW:?} (at most {MOST})"
    );
    assert!(fetches >= 2, "{fetches} fetches: following stopped asking");
}
