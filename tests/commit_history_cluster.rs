//! A group's commit history (`H` on its offsets) against the real cluster:
//! offsets committed one by one come back through the model and the
//! worker's fetch as exactly those commits, newest first, with their topic,
//! partition and offset; a group that never committed is said to have no
//! record, with how much was read; a principal who may not read
//! `__consumer_offsets` (alice on the cluster with an authorizer) is told so.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "groups_fixture/mod.rs"]
mod fixture;
mod screens_fixture;
mod support;

use std::time::{Duration, Instant};

use kscope::app::screens::commits::{self, Kind};
use kscope::app::screens::{self, Reach};
use kscope::app::{Action, AppState, Code, Effect, update};
use kscope::meta::{Cluster, MetadataSnapshot};

use screens_fixture::{keys, press, state};

/// `:group GROUP`, `H`: the query the model asks the worker for.
fn open(s: &mut AppState, snap: &MetadataSnapshot, group: &str) -> screens::Query {
    keys(s, snap, &format!(":group {group}"));
    press(s, snap, Code::Enter);
    asked(&keys(s, snap, "H")).expect("H asks for the commit history")
}

/// The commit-history query among `effects`, if asked.
fn asked(effects: &[Effect]) -> Option<screens::Query> {
    effects.iter().find_map(|e| match e {
        Effect::Query(q @ screens::Query::Commits(_)) => Some(q.clone()),
        _ => None,
    })
}

/// Carry out `query` as the worker does and hand the answer to the model.
async fn carry_out(
    s: &mut AppState,
    snap: &MetadataSnapshot,
    cluster: &Cluster,
    query: screens::Query,
) {
    let reach = Reach {
        cluster: Some(cluster.clone()),
        registry: None,
        groups: None,
    };
    let msg = screens::fetch(&reach, query)
        .expect("the cluster is in reach")
        .await;
    update(s, Action::Screen(msg), snap);
}

/// The held history's rows in the order the screen shows them.
fn shown(s: &AppState) -> Vec<commits::Entry> {
    let held = s.screens.commits.answer.as_ref().expect("an answer");
    let history = held.1.as_ref().as_ref().expect("read");
    s.view()
        .rows
        .iter()
        .map(|&i| history.entries[i].clone())
        .collect()
}

#[tokio::test]
async fn the_commit_history_shows_the_commits_newest_first() {
    let Some(env) = support::shared_cluster() else {
        return;
    };
    let cluster = fixture::cluster(&env).await;
    let topic = fixture::unique("commit-history");
    let group = fixture::unique("g-history");
    fixture::create_topic(&cluster, &topic, 3).await;
    let commits = [(0, 2), (1, 1), (0, 4), (2, 5), (1, 3)];
    for (partition, offset) in commits {
        fixture::commit(&cluster, &group, &topic, &[(partition, offset)]).await;
    }

    let snap = screens_fixture::cluster();
    let mut s = state(&snap, 150, 30);
    let mut query = open(&mut s, &snap, &group);
    // Committed means written to the log, so the first read should find
    // them; `r` reads again (the same query, a fresh request) until then.
    let deadline = Instant::now() + Duration::from_secs(30);
    let seen = loop {
        carry_out(&mut s, &snap, &cluster, query).await;
        let seen: Vec<(String, i32, i64)> = shown(&s)
            .into_iter()
            .filter_map(|e| match e.kind {
                Kind::Commit {
                    topic,
                    partition,
                    commit,
                } => Some((topic, partition, commit.offset)),
                _ => None,
            })
            .collect();
        if seen.len() >= commits.len() {
            break seen;
        }
        assert!(
            Instant::now() < deadline,
            "the five commits, read: {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
        query = asked(&keys(&mut s, &snap, "r")).expect("r reads again");
    };
    let newest_first: Vec<(String, i32, i64)> = commits
        .iter()
        .rev()
        .map(|&(p, o)| (topic.clone(), p, o))
        .collect();
    assert_eq!(seen, newest_first, "the commits, newest first");
    let rows = shown(&s);
    assert!(
        rows.windows(2).all(|w| w[0].offset > w[1].offset),
        "newest first in the log: {rows:#?}"
    );

    // A group that never committed: none found, with what was read.
    let never = fixture::unique("g-never");
    let query = open(&mut s, &snap, &never);
    carry_out(&mut s, &snap, &cluster, query).await;
    assert!(s.view().rows.is_empty());
    let held = s.screens.commits.answer.as_ref().expect("an answer");
    assert_eq!(held.0, never);
    let history = held.1.as_ref().as_ref().expect("read");
    assert!(history.entries.is_empty());
    let text = screens_fixture::render(&s, &snap);
    assert!(
        text.contains(&format!("no record of group '{never}'")) && text.contains("records read"),
        "{text}"
    );
}

#[tokio::test]
async fn a_principal_who_may_not_read_consumer_offsets_is_told_so_in_words() {
    let Some(acl) = support::acl_cluster() else {
        return;
    };
    // alice (SASL PLAIN) holds READ on her `alice-` groups and nothing on
    // `__consumer_offsets`.
    let config = kscope::meta::ClusterConfig {
        connection: kscope::conn::ConnectionConfig {
            sasl: Some(kscope::conn::SaslConfig {
                mechanism: kscope::conn::SaslMechanism::Plain,
                username: acl.get("KSCOPE_PLAIN_USER").to_owned(),
                password: kscope::conn::Secret::new(acl.get("KSCOPE_PLAIN_PASSWORD")),
                token_command: None,
            }),
            ..kscope::conn::ConnectionConfig::default()
        },
        ..kscope::meta::ClusterConfig::default()
    };
    let servers: Vec<String> = acl
        .get("KSCOPE_BOOTSTRAP_SASL_PLAINTEXT")
        .split(',')
        .map(str::to_owned)
        .collect();
    let alice = Cluster::connect(servers, config)
        .await
        .expect("connect as alice");
    let snap = screens_fixture::cluster();
    let mut s = state(&snap, 150, 20);
    let query = open(&mut s, &snap, &fixture::unique("alice-history"));
    carry_out(&mut s, &snap, &alice, query).await;
    let held = s.screens.commits.answer.as_ref().expect("an answer");
    let Err(said) = held.1.as_ref() else {
        panic!("alice read __consumer_offsets: {:?}", held.1);
    };
    assert!(
        said.message
            .starts_with("not authorized to read __consumer_offsets"),
        "{said}"
    );
    assert!(!said.is_transient(), "an ACL is final: {said:?}");
    let text = screens_fixture::render(&s, &snap);
    assert!(
        text.contains("not authorized to read __consumer_offsets"),
        "{text}"
    );
}
