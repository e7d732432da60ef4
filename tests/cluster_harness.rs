//! The foundation's proof that the test harness is what later work needs: a
//! 3-broker cluster, a replication-factor-3 topic, its leaders described, one
//! broker killed and the leaders seen to move off it, the broker restarted and
//! back in every ISR. Driven through `scripts/kafka-cluster` and Kafka's own
//! `TopicCommand`, on a throwaway cluster so the shared one is never harmed.
#![allow(clippy::unwrap_used, clippy::panic)]

mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use support::{ClusterEnv, ThrowawayCluster, wait_until};

/// One partition as `TopicCommand --describe` prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Described {
    leader: i32,
    replicas: Vec<i32>,
    isr: Vec<i32>,
}

fn ids(field: &str) -> Vec<i32> {
    field
        .split(',')
        .filter_map(|id| id.trim().parse().ok())
        .collect()
}

/// Parse `TopicCommand --describe` output into partition -> description.
fn parse_describe(output: &str) -> BTreeMap<i32, Described> {
    let mut partitions = BTreeMap::new();
    for line in output.lines() {
        let fields: BTreeMap<&str, &str> = line
            .split('\t')
            .filter_map(|field| field.split_once(": "))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect();
        let (Some(partition), Some(leader)) = (fields.get("Partition"), fields.get("Leader"))
        else {
            continue;
        };
        partitions.insert(
            partition.parse().unwrap(),
            Described {
                leader: leader.parse().unwrap_or(-1),
                replicas: ids(fields.get("Replicas").unwrap_or(&"")),
                isr: ids(fields.get("Isr").unwrap_or(&"")),
            },
        );
    }
    partitions
}

fn describe(env: &ClusterEnv, topic: &str) -> BTreeMap<i32, Described> {
    parse_describe(&env.topic_command(&["--describe", "--topic", topic]))
}

#[test]
fn describe_output_is_parsed() {
    let sample = "Topic: t\tTopicId: x\tPartitionCount: 2\n\
                  \tTopic: t\tPartition: 0\tLeader: 2\tReplicas: 2,3,1\tIsr: 2,1\tElr: \tLastKnownElr: \n\
                  \tTopic: t\tPartition: 1\tLeader: none\tReplicas: 3\tIsr: \n";
    let parsed = parse_describe(sample);
    assert_eq!(parsed.len(), 2);
    assert_eq!(
        parsed[&0],
        Described {
            leader: 2,
            replicas: vec![2, 3, 1],
            isr: vec![2, 1]
        }
    );
    assert_eq!(parsed[&1].leader, -1);
    assert!(parsed[&1].isr.is_empty());
}

#[test]
fn leaders_move_off_a_killed_broker_and_it_rejoins_the_isr() {
    let Some(cluster) = ThrowawayCluster::start("harness", 3, 23092, false) else {
        return;
    };
    let env = cluster.env();
    let brokers = std::process::Command::new(support::repo().join("scripts/kafka-probe.py"))
        .args(["brokers", env.bootstrap()])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&brokers.stdout).trim(), "1 2 3");

    let topic = "harness-rf3";
    env.create_topic_with_kafka(topic, &["--partitions", "6", "--replication-factor", "3"]);
    let before = wait_until(
        Duration::from_mins(1),
        "every partition led, full ISR",
        || {
            let parts = describe(env, topic);
            (parts.len() == 6 && parts.values().all(|p| p.leader > 0 && p.isr.len() == 3))
                .then_some(parts)
        },
    );
    assert!(before.values().all(|p| p.replicas.len() == 3));

    let victim = before[&0].leader;
    env.script(&["kill", &victim.to_string()]);
    let during = wait_until(
        Duration::from_secs(90),
        "leaders to move off the killed broker",
        || {
            let parts = describe(env, topic);
            (parts.len() == 6
                && parts
                    .values()
                    .all(|p| p.leader > 0 && p.leader != victim && !p.isr.contains(&victim)))
            .then_some(parts)
        },
    );
    assert_ne!(
        during[&0].leader, victim,
        "partition 0 still led by the killed broker"
    );

    env.script(&["restart", &victim.to_string()]);
    wait_until(
        Duration::from_mins(2),
        "the restarted broker back in every ISR",
        || {
            let parts = describe(env, topic);
            (parts.len() == 6 && parts.values().all(|p| p.isr.contains(&victim))).then_some(())
        },
    );
}

/// Broker count in `kcat -L` output ("3 brokers:").
fn kcat_broker_count(args: &[&str]) -> Option<usize> {
    let output = std::process::Command::new(support::repo().join("scripts/kcat"))
        .args(args)
        .args(["-L", "-m", "15"])
        .output()
        .unwrap();
    support::assert_success(&output, &format!("scripts/kcat {}", args.join(" ")));
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|line| line.trim().strip_suffix(" brokers:"))
        .and_then(|count| count.trim().parse().ok())
}

#[test]
fn kcat_lists_every_broker_over_plaintext_and_scram_sha_512_over_sasl_ssl() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    assert_eq!(kcat_broker_count(&["-b", env.bootstrap()]), Some(3));
    let sasl_ssl = [
        "-b",
        env.get("KSCOPE_BOOTSTRAP_SASL_SSL"),
        "-X",
        "security.protocol=SASL_SSL",
        "-X",
        "sasl.mechanisms=SCRAM-SHA-512",
        "-X",
        "sasl.username=alice",
        "-X",
        "sasl.password=alice-secret",
        "-X",
        &format!("ssl.ca.location={}", env.get("KSCOPE_CA")),
    ];
    assert_eq!(kcat_broker_count(&sasl_ssl), Some(3));
}
