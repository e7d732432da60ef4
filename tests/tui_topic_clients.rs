//! End to end: who touches a topic (issue 29 point 4) on the TUI, in tmux
//! against the real test cluster. A 12-partition topic written by Kafka's
//! console producer (idempotent) and read by a live console consumer in a
//! group: `w` on the topic's Partitions screen lists the producer (`writes`,
//! every partition it wrote), the group (`reads`) and its member with its
//! client id, and the principals (no authorizer here); Enter on the group
//! opens its offsets.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use support::consumers::Reading;
use support::tmux::{self, Tmux, kscope_command};
use support::unique;

#[test]
fn w_shows_the_writers_the_readers_with_their_client_ids_and_enter_opens_the_group() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = unique("who-touches");
    let group = unique("who-reads");
    let client = unique("reader-client");
    support::create_topic(&env, &topic, "12", &[]);
    let lines: Vec<String> = (0..240).map(|i| format!("k{i}\tv{i}")).collect();
    env.console_produce(&topic, &lines, &support::KEYED);
    let _reading = Reading::start(&env, &topic, &group, &client, false);

    let home = tempfile::tempdir().unwrap();
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-clients"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&["/"]);
    tmux.keys(&["-l", &topic]);
    tmux.keys(&["Enter"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the partitions screen", |s| {
        s.contains(&format!("partitions of '{topic}'"))
    });
    tmux.keys(&["w"]);
    let screen = tmux.wait_for_within(
        Duration::from_mins(1),
        "the producer, the group and its member",
        |s| {
            s.contains(&format!("who touches '{topic}'"))
                && s.contains("writes")
                && s.contains(&format!("group {group}"))
                && s.contains(&client)
        },
    );
    let producer = screen
        .lines()
        .find(|l| l.contains("writes") && l.contains("producer "))
        .unwrap_or_else(|| panic!("no producer row:\n{screen}"));
    assert!(
        producer.contains("partitions 0-11"),
        "keyed records reach every partition:\n{screen}"
    );
    assert!(
        screen.contains("no authorizer: every principal may"),
        "{screen}"
    );

    tmux.keys(&["/"]);
    tmux.keys(&["-l", &format!("group {group}")]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the group's row alone", |s| s.contains("[1/1]"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the group's offsets", |s| {
        s.contains(&format!("offsets of group '{group}'"))
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
