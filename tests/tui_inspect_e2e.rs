//! End to end, the inspection screens: the real binary in tmux against the
//! real cluster. From a topic to its configs (a dynamic config shown with
//! its source), into one config (documentation and synonym chain: a topic's
//! config lists the topic's own setting and broker settings that are set,
//! not the built-in default), and
//! back to the Topics screen. The Topics screen's columns from configs, log
//! dirs and watermark deltas (cleanup, retention, under min ISR, size,
//! messages/s zero when idle and not while producing) and the Brokers
//! screen's disk usage. `:cluster`; `:acls` on the cluster with an
//! authorizer (the script's ACLs as a super user, the notice as alice); `T`
//! on a partition with a transaction held open.

mod groups_fixture;
mod support;

use std::ops::Deref;
use std::time::Duration;

use support::producers::HeldOpen;
use support::tmux::{self, Tmux, kscope_command};

/// kscope in tmux with `args`, started and showing the Topics screen; its
/// home (config and state) is a temporary directory removed after it.
struct Session {
    tmux: Tmux,
    _home: tempfile::TempDir,
}

impl Session {
    /// Start kscope with `args` in a session named after `prefix`.
    fn start(prefix: &str, args: &str) -> Session {
        let home = tempfile::tempdir().expect("temp home");
        let command = kscope_command(home.path(), "", args);
        let tmux = Tmux::start(&tmux::unique_name(prefix), &command);
        tmux.wait_for("the topics screen", |s| s.contains("topics ["));
        Session { tmux, _home: home }
    }

    /// Type `/TEXT` and Enter.
    fn filter(&self, text: &str) {
        self.keys(&["/"]);
        self.keys(&["-l", text]);
        self.keys(&["Enter"]);
    }

    /// Type `:COMMAND` and Enter.
    fn command(&self, command: &str) {
        self.keys(&[":"]);
        self.keys(&["-l", command]);
        self.keys(&["Enter"]);
    }

    /// Quit with `q` and wait for kscope to exit.
    fn quit(&self) {
        self.keys(&["q"]);
        self.wait_for_exit(Duration::from_secs(10));
    }
}

impl Deref for Session {
    type Target = Tmux;

    fn deref(&self) -> &Tmux {
        &self.tmux
    }
}

/// The cells of the row whose first cell is `name`.
fn row_of(screen: &str, name: &str) -> Option<Vec<String>> {
    screen.lines().find_map(|line| {
        let cells: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        (cells.first().map(String::as_str) == Some(name)).then_some(cells)
    })
}

#[test]
fn topic_to_its_configs_into_one_config_and_back() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("tui-config");
    env.create_topic_with_kafka(
        &topic,
        &[
            "--partitions",
            "1",
            "--replication-factor",
            "3",
            "--config",
            "retention.ms=3600000",
        ],
    );
    let tmux = Session::start("kscope-config", &format!("-b {}", env.bootstrap()));
    tmux.filter(&topic);
    tmux.wait_for("the filter applied", |s| {
        s.contains(&format!("filter: {topic}")) && s.contains("[1/1]")
    });

    tmux.keys(&["C"]);
    tmux.wait_for("the topic's configs with the dynamic retention", |s| {
        s.contains(&format!("configs of topic '{topic}'"))
            && row_of(s, "retention.ms").is_some_and(|cells| {
                cells.get(1..4)
                    == Some(
                        &[
                            "3600000".to_owned(),
                            "dynamic".to_owned(),
                            "topic".to_owned(),
                        ][..],
                    )
            })
            && row_of(s, "cleanup.policy").is_some_and(|cells| {
                cells.get(1..3) == Some(&["delete".to_owned(), "default".to_owned()][..])
            })
    });

    tmux.filter("~^retention");
    tmux.wait_for("the filter on the configs", |s| {
        s.contains("filter: ~^retention")
            && s.contains("[1/2]")
            && row_of(s, "retention.ms").is_some()
    });
    tmux.keys(&["j"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the config's documentation and synonyms", |s| {
        s.contains(&format!("config 'retention.ms' of topic '{topic}'"))
            && s.contains("retention.ms = 3600000")
            && s.contains("retain")
            && s.lines().any(|l| {
                l.trim_start().starts_with("dynamic topic")
                    && l.contains("retention.ms")
                    && l.contains("3600000")
            })
    });

    // Back: the configs (filter kept), the configs unfiltered, Topics.
    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the configs", |s| {
        s.contains(&format!("configs of topic '{topic}'")) && s.contains("filter: ~^retention")
    });
    tmux.keys(&["Escape"]);
    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the topics", |s| {
        s.contains("topics [") && s.contains(&format!("filter: {topic}"))
    });
    tmux.quit();
}

/// The cells of `topic`'s row on the Topics screen from UNDER-MIN on:
/// under min ISR, cleanup, retention, size, messages/s.
fn topic_columns(screen: &str, topic: &str) -> Option<[String; 5]> {
    let cells = row_of(screen, topic)?;
    // UNDER-MIN CLEANUP RETENTION SIZE, then LAG (skipped), then MSGS/S.
    let tail = cells.get(7..13)?;
    Some([0, 1, 2, 3, 5].map(|i| tail[i].clone()))
}

#[test]
fn topics_show_cleanup_retention_size_and_throughput_and_brokers_their_disk() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("tui-size");
    env.create_topic_with_kafka(
        &topic,
        &[
            "--partitions",
            "1",
            "--replication-factor",
            "3",
            "--config",
            "retention.ms=3600000",
            "--config",
            "min.insync.replicas=2",
        ],
    );
    let tmux = Session::start("kscope-sizes", &format!("-b {}", env.bootstrap()));
    tmux.filter(&topic);
    let idle = |s: &str| {
        topic_columns(s, &topic).is_some_and(|[under, cleanup, retention, size, rate]| {
            under == "0" && cleanup == "delete" && retention == "1h" && size == "0B" && rate == "0"
        })
    };
    tmux.wait_for("configs, size and an idle rate on the row", idle);

    // Produce for ~10 s at 300 records/s.
    let producer_env = env.clone();
    let producing = topic.clone();
    let producer = std::thread::spawn(move || {
        let props = format!("bootstrap.servers={}", producer_env.bootstrap());
        producer_env.script(&[
            "tool",
            "org.apache.kafka.tools.ProducerPerformance",
            "--topic",
            &producing,
            "--num-records",
            "3000",
            "--record-size",
            "100",
            "--throughput",
            "300",
            "--producer-props",
            &props,
        ]);
    });
    tmux.wait_for("a non-zero rate while producing", |s| {
        topic_columns(s, &topic).is_some_and(|[.., rate]| rate.parse::<u64>().is_ok_and(|r| r > 0))
    });
    producer.join().expect("the producer ran");
    tmux.wait_for_within(
        Duration::from_secs(90),
        "the size grown (sizes are read every 30 s) and the rate back to zero",
        |s| {
            topic_columns(s, &topic)
                .is_some_and(|[.., size, rate]| size != "0B" && size != "-" && rate == "0")
        },
    );

    tmux.command("brokers");
    tmux.wait_for("every broker's disk used", |s| {
        ["1", "2", "3"].iter().all(|id| {
            row_of(s, id).is_some_and(|cells| {
                cells
                    .get(5)
                    .is_some_and(|used| used.ends_with('B') && used != "0B")
            })
        })
    });
    tmux.quit();
}

#[test]
fn the_cluster_screen_shows_the_quorum_features_and_reassignments() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let tmux = Session::start("kscope-cluster", &format!("-b {}", env.bootstrap()));
    tmux.command("cluster");
    tmux.wait_for("the quorum, features and reassignments", |s| {
        let voters = ["1", "2", "3"]
            .iter()
            .filter(|id| {
                row_of(s, id).is_some_and(|cells| {
                    matches!(cells.get(1).map(String::as_str), Some("leader" | "voter"))
                })
            })
            .count();
        s.contains("cluster: KRaft quorum [")
            && s.contains("quorum leader")
            && s.contains("metadata.version")
            && s.contains("reassignments in progress: none")
            && voters == 3
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the topics", |s| s.contains("topics ["));
    tmux.quit();
}

/// What `create_acls` in `scripts/kafka-cluster` creates, as the ACLs
/// screen's cells: principal, host, operation, permission, resource,
/// pattern, name.
const CREATED: [[&str; 7]; 4] = [
    [
        "User:alice",
        "*",
        "READ",
        "ALLOW",
        "TOPIC",
        "LITERAL",
        "orders",
    ],
    [
        "User:alice",
        "*",
        "DESCRIBE",
        "ALLOW",
        "TOPIC",
        "PREFIXED",
        "orders",
    ],
    [
        "User:alice",
        "*",
        "WRITE",
        "DENY",
        "TOPIC",
        "LITERAL",
        "orders",
    ],
    [
        "User:alice",
        "*",
        "READ",
        "ALLOW",
        "GROUP",
        "PREFIXED",
        "alice-",
    ],
];

/// Whether `screen` has a row of exactly `cells`.
fn has_row(screen: &str, cells: &[&str]) -> bool {
    screen
        .lines()
        .any(|line| line.split_whitespace().eq(cells.iter().copied()))
}

#[test]
fn the_acls_screen_lists_the_scripts_acls_and_alice_gets_the_notice() {
    let Some(env) = support::acl_cluster() else {
        return;
    };
    // PLAINTEXT is ANONYMOUS, a super user: every binding is listed.
    let tmux = Session::start("kscope-acls", &format!("-b {}", env.bootstrap()));
    tmux.command("acls");
    tmux.wait_for("the script's ACLs", |s| {
        s.contains("ACLs [1/4]") && CREATED.iter().all(|row| has_row(s, row))
    });
    tmux.filter("DENY");
    tmux.wait_for("the filter keeps the deny", |s| {
        s.contains("ACLs [1/1]") && has_row(s, &CREATED[2])
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("the filter cleared", |s| {
        s.contains("ACLs [1/4]") && !s.contains("filter: DENY")
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the topics", |s| s.contains("topics ["));
    tmux.quit();

    // Alice holds no DESCRIBE on the cluster: one notice, no rows.
    let alice = format!(
        "-b {} -X security.protocol=SASL_PLAINTEXT -X sasl.mechanism=PLAIN \
         -X sasl.username={} -X sasl.password={}",
        env.get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT"),
        env.get("KSCOPE_PLAIN_USER"),
        env.get("KSCOPE_PLAIN_PASSWORD"),
    );
    let tmux = Session::start("kscope-acls-alice", &alice);
    tmux.command("acls");
    tmux.wait_for("the notice naming the permission", |s| {
        s.contains("not authorised: needs DESCRIBE on the cluster") && s.contains("ACLs [0/0]")
    });
    tmux.quit();
}

#[test]
fn t_on_a_partition_shows_its_producer_and_the_open_transaction() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let topic = groups_fixture::unique("tui-txn");
    let id = groups_fixture::unique("tui-held-open");
    support::create_topic(&env, &topic, "1", &[]);
    let _producer = HeldOpen::start(&env, &topic, &id);

    let tmux = Session::start("kscope-producers", &format!("-b {}", env.bootstrap()));
    tmux.filter(&topic);
    tmux.wait_for("the topic alone", |s| s.contains("[1/1]"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("its partitions", |s| {
        s.contains(&format!("partitions of '{topic}'"))
    });
    tmux.keys(&["T"]);
    // The transaction is open from the producer's first record on, so the
    // partition's producer has it open from offset 0.
    tmux.wait_for_within(Duration::from_mins(1), "the open transaction", |s| {
        s.contains(&format!(
            "producers and transactions of '{topic}' partition 0"
        )) && s.contains("open transactions here: 1")
            && s.contains(&format!("{id} · Ongoing"))
            && s.lines().any(|l| {
                let cells: Vec<&str> = l.split_whitespace().collect();
                cells.last() == Some(&"0")
                    && cells.first().is_some_and(|p| p.parse::<i64>().is_ok())
            })
    });
    tmux.keys(&["Escape"]);
    tmux.wait_for("back on the partitions", |s| {
        s.contains(&format!("partitions of '{topic}'"))
    });
    tmux.quit();
}
