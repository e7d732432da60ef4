//! End to end: the real binary in tmux against the real cluster. A topic's
//! partition opens its records (Enter on the partition), `/` filters them,
//! Enter opens one record, Esc comes back, a record produced during the
//! test appears without a key pressed (follow), Esc leaves and `q` quits.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod browse_fixture;
mod groups_fixture;
mod support;

use std::time::Duration;

use browse_fixture::produce;
use support::tmux::{self, Tmux, kscope_command};

#[test]
fn partition_messages_filter_detail_follow_back_and_quit() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("tui-messages");
    env.create_topic_with_kafka(&topic, &["--partitions", "1", "--replication-factor", "3"]);
    produce(&env, &topic, &["plain", "5"]);
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-messages"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));

    tmux.keys(&["/"]);
    tmux.keys(&["-l", &topic]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the filter applied", |s| s.contains("[1/1]"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the partitions screen", |s| {
        s.contains(&format!("partitions of '{topic}'"))
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for("the five records, following", |s| {
        s.contains(&format!("messages of '{topic}' partition 0 [5/5]"))
            && s.contains("following")
            && (0..5).all(|i| s.contains(&format!("v-{i}")))
    });

    tmux.keys(&["/"]);
    tmux.keys(&["-l", "v-3"]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("one record through the filter", |s| {
        s.contains("[1/1]") && s.contains("filter: v-3")
    });
    assert!(!screen.contains("v-2"), "{screen}");

    tmux.keys(&["Enter"]);
    tmux.wait_for("the record's detail", |s| {
        s.contains(&format!("record '{topic}' partition 0 offset 3"))
            && s.contains("value     text, 3 bytes")
            && s.contains("leader epoch")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the filtered records", |s| {
        s.contains("filter: v-3")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("the filter cleared", |s| {
        s.contains("[5/5]") && !s.contains("filter:")
    });

    let fresh = format!("fresh-{}", groups_fixture::unique("e2e"));
    produce(&env, &topic, &["value", &fresh]);
    tmux.wait_for_within(
        Duration::from_secs(30),
        "the record produced now, without a key pressed",
        |s| s.contains(&fresh) && s.contains("[6/6]"),
    );

    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the partitions", |s| {
        s.contains(&format!("partitions of '{topic}'"))
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
