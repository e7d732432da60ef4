//! `kscope --anonymize` in the TUI (issue 29) against the real cluster, in
//! tmux: a topic, a consumer group and a client id with distinctive names
//! (a running consumer, so the group has a member with a client id and a
//! host), then every screen a screenshot may show — Topics, Partitions, who
//! touches the topic, Brokers, `:groups`, the group's offsets and members,
//! `:events`, `:leaders`, Messages and a record's detail. No capture shows
//! the real topic, group or client name, nor the host the brokers and the
//! member report (`127.0.0.1`); the pseudonyms, computed here with the key
//! the test gave kscope, are where the names were.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::path::Path;
use std::time::Duration;

use kscope::anonymize::{Anonymizer, Kind};
use support::consumers::Reading;
use support::tmux::{self, Tmux, kscope_command};
use support::unique;

/// The key kscope finds in its state directory (32 bytes, as it makes them).
const KEY: &[u8; 32] = b"tui-anonymize test key, 32 bytes";

/// Put [`KEY`] where `kscope --anonymize` looks for its key under `home`
/// (`$XDG_STATE_HOME/kscope/anonymize.key`, mode 0600).
fn give_key(home: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = home.join("state/kscope");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("anonymize.key");
    std::fs::write(&path, KEY).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

/// The real names, which no capture may show.
struct Real {
    topic: String,
    group: String,
    client: String,
}

impl Real {
    /// Every text that would give a real name away: the names (a member id
    /// starts with the client id) and the host the cluster reports.
    fn giveaways(&self) -> [&str; 5] {
        [
            &self.topic,
            &self.group,
            &self.client,
            "127.0.0.1",
            "localhost",
        ]
    }

    /// Panic (showing the screen) if `screen` shows any of them.
    fn assert_hidden(&self, screen: &str, what: &str) {
        for real in self.giveaways() {
            assert!(
                !screen.contains(real),
                "{what} shows '{real}' under --anonymize:\n{screen}"
            );
        }
    }
}

/// Send `:COMMAND` and Enter.
fn command(tmux: &Tmux, line: &str) {
    tmux.keys(&[":"]);
    tmux.keys(&["-l", line]);
    tmux.keys(&["Enter"]);
}

#[test]
fn no_screen_shows_a_real_topic_group_client_or_host_name() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    assert!(tmux::available(), "this test needs tmux");
    // Names that sort first: the shared cluster holds many topics and
    // groups (every test's), and the lists are in name order.
    let real = Real {
        topic: unique("0-zebra-anon-topic"),
        group: unique("0-zebra-anon-group"),
        client: unique("zebra-anon-client"),
    };
    let anon = Anonymizer::new(KEY);
    let topic = anon.name(Kind::Topic, &real.topic);
    let group = anon.name(Kind::Group, &real.group);
    let client = anon.name(Kind::Client, &real.client);
    let host = anon.name(Kind::Host, "127.0.0.1");

    let home = tempfile::tempdir().unwrap();
    give_key(home.path());
    let args = format!("--anonymize -b {}", env.bootstrap());
    let tmux = Tmux::start(
        &tmux::unique_name("kscope-anon29"),
        &kscope_command(home.path(), "", &args),
    );
    let screen = tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    real.assert_hidden(&screen, "the first screen");

    // Made while kscope watches, so `:events` has the topic's creation.
    support::create_topic(&env, &real.topic, "3", &[]);
    let lines: Vec<String> = (0..10).map(|i| format!("{{\"n\":{i}}}")).collect();
    env.console_produce(&real.topic, &lines, &[]);
    let _reading = Reading::start(&env, &real.topic, &real.group, &real.client, false);

    let topics = tmux.wait_for("the topic's pseudonym on Topics", |s| s.contains(&topic));
    real.assert_hidden(&topics, "Topics");

    command(&tmux, &format!("partitions {}", real.topic));
    let partitions = tmux.wait_for("Partitions of the topic", |s| {
        s.contains(&format!("partitions of '{topic}'")) && s.contains("PARTITION")
    });
    real.assert_hidden(&partitions, "Partitions");

    // Who touches it: the group, and its member as client@host.
    tmux.keys(&["w"]);
    let clients = tmux.wait_for("the group and its member on the clients screen", |s| {
        s.contains(&format!("who touches '{topic}'"))
            && s.contains(&format!("group {group} "))
            && s.contains(&format!("{client}@{}", anon.name(Kind::Host, "/127.0.0.1")))
    });
    real.assert_hidden(&clients, "who touches the topic");

    command(&tmux, "brokers");
    let brokers = tmux.wait_for("the brokers' addresses", |s| {
        s.contains("brokers [") && s.contains(&format!("{host}:"))
    });
    real.assert_hidden(&brokers, "Brokers");

    command(&tmux, "groups");
    let groups = tmux.wait_for("the group on :groups", |s| {
        s.contains("consumer groups [") && s.contains(&group) && s.contains(&topic)
    });
    real.assert_hidden(&groups, ":groups");

    command(&tmux, &format!("group {}", real.group));
    let offsets = tmux.wait_for("the group's offsets, owned by the client", |s| {
        s.contains(&format!("offsets of group '{group}'"))
            && s.contains(&topic)
            && s.contains(&client)
    });
    real.assert_hidden(&offsets, "the group's offsets");

    tmux.keys(&["m"]);
    let members = tmux.wait_for("the group's member", |s| {
        s.contains(&format!("members of group '{group}'"))
            && s.contains("member-")
            && s.contains(&client)
            && s.contains("host-")
            && s.contains(&format!("{topic}:"))
    });
    real.assert_hidden(&members, "the group's members");

    command(&tmux, "events");
    let events = tmux.wait_for("the topic's creation on :events", |s| {
        s.contains("topic_created") && s.contains(&topic)
    });
    real.assert_hidden(&events, ":events");

    command(&tmux, "leaders");
    let leaders = tmux.wait_for(":leaders", |s| s.contains("leader movement ["));
    real.assert_hidden(&leaders, ":leaders");

    command(&tmux, &format!("messages {}", real.topic));
    let messages = tmux.wait_for("the ten records", |s| {
        s.contains(&format!("messages of '{topic}'")) && s.contains("[10/10]")
    });
    real.assert_hidden(&messages, "Messages");
    tmux.keys(&["Enter"]);
    let record = tmux.wait_for("a record's detail", |s| {
        s.contains(&format!("record '{topic}' partition")) && s.contains("offset")
    });
    real.assert_hidden(&record, "a record's detail");

    // Kafka's own topics hold names in their records: not shown.
    command(&tmux, "messages __consumer_offsets");
    let refused = tmux.wait_for("the refusal", |s| {
        s.contains("--anonymize: the messages of __consumer_offsets are not shown")
    });
    assert!(
        !refused.contains("messages of '__consumer_offsets'"),
        "{refused}"
    );
    real.assert_hidden(&refused, "the refusal");

    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
