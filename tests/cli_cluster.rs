//! `kscope get cluster -o json` against the shared cluster, checked against
//! Kafka's own tools: the quorum's leader and voters as
//! `MetadataQuorumCommand` reports them, the finalized feature levels as
//! `FeatureCommand` reports them, and no reassignment in progress.
#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

mod support;

use std::collections::BTreeMap;

use serde_json::Value;
use support::kscope;

fn cluster_json(env: &support::ClusterEnv) -> Value {
    let output = kscope(env, &["get", "cluster", "-o", "json"]);
    support::assert_success(&output, "kscope get cluster -o json");
    assert!(
        output.stderr.is_empty(),
        "no warning: {:?}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("json output")
}

/// The numbers after each `"id": ` in `text`.
fn ids(text: &str) -> Vec<i64> {
    text.split("\"id\":")
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        })
        .collect()
}

#[test]
fn the_quorum_and_features_match_kafkas_own_tools() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let status = env.script(&[
        "tool",
        "org.apache.kafka.tools.MetadataQuorumCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "describe",
        "--status",
    ]);
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("a {name} line in {status}"))
            .trim()
            .to_owned()
    };
    let json = cluster_json(&env);
    assert_eq!(json["cluster_id"], field("ClusterId:"));
    let quorum = &json["quorum"];
    assert_eq!(
        quorum["leader_id"].as_i64(),
        field("LeaderId:").parse::<i64>().ok()
    );
    let mut voters: Vec<i64> = quorum["voters"]
        .as_array()
        .expect("quorum.voters is a list")
        .iter()
        .map(|v| v["node_id"].as_i64().expect("a node id"))
        .collect();
    voters.sort_unstable();
    let mut kafka_voters = ids(&field("CurrentVoters:"));
    kafka_voters.sort_unstable();
    assert_eq!(voters, kafka_voters);
    assert_eq!(quorum["voters"][0]["role"], "leader");
    assert_eq!(
        quorum["observers"].as_array().map(Vec::len),
        Some(ids(&field("CurrentObservers:")).len())
    );

    // FeatureCommand: "Feature: NAME\t...\tFinalizedVersionLevel: N\t..." (0
    // for a feature not finalized; metadata.version as a release name).
    let described = env.script(&[
        "tool",
        "org.apache.kafka.tools.FeatureCommand",
        "--bootstrap-server",
        env.bootstrap(),
        "describe",
    ]);
    let kafka: BTreeMap<String, String> = described
        .lines()
        .filter_map(|line| {
            let cells: BTreeMap<&str, &str> = line
                .split('\t')
                .filter_map(|cell| cell.split_once(": "))
                .collect();
            Some((
                (*cells.get("Feature")?).to_owned(),
                (*cells.get("FinalizedVersionLevel")?).to_owned(),
            ))
        })
        .collect();
    let features = json["features"].as_array().expect("features listed");
    assert!(
        features
            .iter()
            .any(|f| f["name"] == "metadata.version"
                && f["finalized"].as_i64().is_some_and(|v| v > 0)),
        "{features:?}"
    );
    let mut compared = 0;
    for feature in features {
        let name = feature["name"].as_str().expect("a name");
        let Some(level) = kafka.get(name).and_then(|l| l.parse::<i64>().ok()) else {
            continue;
        };
        let ours = feature["finalized"].as_i64().unwrap_or(0);
        assert_eq!(ours, level, "{name}: {feature} vs FeatureCommand {level}");
        compared += 1;
    }
    assert!(
        compared >= 3,
        "group, kraft, transaction versions compared: {kafka:?}"
    );
    assert_eq!(json["reassignments"], Value::Array(Vec::new()));
}
