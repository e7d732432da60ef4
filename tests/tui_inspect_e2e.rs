//! End to end, the inspection screens: the real binary in tmux against the
//! real cluster. From a topic to its configs (a dynamic config shown with
//! its source), into one config (documentation and synonym chain: a topic's
//! config lists the topic's own setting and broker settings that are set,
//! not the built-in default), and
//! back to the Topics screen. The Topics screen's columns from configs, log
//! dirs and watermark deltas (cleanup, retention, under min ISR, size,
//! messages/s zero when idle and not while producing) and the Brokers
//! screen's disk usage.

mod groups_fixture;
mod support;

use std::time::Duration;

use support::tmux::{self, Tmux, kscope_command};

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
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-config"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&["/"]);
    tmux.keys(&["-l", &topic]);
    tmux.keys(&["Enter"]);
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

    tmux.keys(&["/"]);
    tmux.keys(&["-l", "~^retention"]);
    tmux.keys(&["Enter"]);
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
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
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
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-sizes"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&["/"]);
    tmux.keys(&["-l", &topic]);
    tmux.keys(&["Enter"]);
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

    tmux.keys(&[":"]);
    tmux.keys(&["-l", "brokers"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("every broker's disk used", |s| {
        ["1", "2", "3"].iter().all(|id| {
            row_of(s, id).is_some_and(|cells| {
                cells
                    .get(5)
                    .is_some_and(|used| used.ends_with('B') && used != "0B")
            })
        })
    });
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}

#[test]
fn the_cluster_screen_shows_the_quorum_features_and_reassignments() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let home = tempfile::tempdir().expect("temp home");
    let command = kscope_command(home.path(), "", &format!("-b {}", env.bootstrap()));
    let tmux = Tmux::start(&tmux::unique_name("kscope-cluster"), &command);
    tmux.wait_for("the topics screen", |s| s.contains("topics ["));
    tmux.keys(&[":"]);
    tmux.keys(&["-l", "cluster"]);
    tmux.keys(&["Enter"]);
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
    tmux.keys(&["q"]);
    tmux.wait_for_exit(Duration::from_secs(10));
}
