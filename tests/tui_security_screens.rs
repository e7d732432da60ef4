//! The security screens without a cluster: whole-screen snapshots (narrow
//! and wide) of the ACLs, a topic's ACLs, SCRAM users, client quotas, the
//! "not authorised" and "no authorizer" notices, and `update` tests — asked
//! for only while shown, `A` from a topic, `/` filters, stale answers
//! dropped.

use std::sync::Arc;

use kscope::app::screens::security::{self, Answer, Listing as Security, Msg, Query};
use kscope::app::screens::{self, Screen::Security as Shown};
use kscope::app::{Action, AppState, Code, Effect, update};
use kscope::inspect::{Acl, Acls, Error, Quota, ScramUser};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

fn acl(
    principal: &str,
    operation: &'static str,
    permission: &'static str,
    (resource_type, pattern_type, name): (&'static str, &'static str, &str),
) -> Acl {
    Acl {
        principal: principal.to_owned(),
        host: "*".to_owned(),
        operation,
        permission,
        resource_type,
        pattern_type,
        resource_name: name.to_owned(),
    }
}

fn acls() -> Vec<Acl> {
    vec![
        acl(
            "User:alice",
            "READ",
            "ALLOW",
            ("GROUP", "PREFIXED", "alice-"),
        ),
        acl(
            "User:alice",
            "READ",
            "ALLOW",
            ("TOPIC", "LITERAL", "orders"),
        ),
        acl(
            "User:alice",
            "WRITE",
            "DENY",
            ("TOPIC", "LITERAL", "orders"),
        ),
        acl(
            "User:alice",
            "DESCRIBE",
            "ALLOW",
            ("TOPIC", "PREFIXED", "orders"),
        ),
        acl(
            "User:CN=billing-service,OU=payments",
            "ALL",
            "ALLOW",
            ("TOPIC", "PREFIXED", "payments."),
        ),
    ]
}

fn users() -> Vec<ScramUser> {
    ["admin", "alice"]
        .into_iter()
        .map(|name| ScramUser {
            name: name.to_owned(),
            credentials: vec![("SCRAM-SHA-256", 4096), ("SCRAM-SHA-512", 8192)],
        })
        .collect()
}

fn quotas() -> Vec<Quota> {
    [
        ("client-id=<default>", "request_percentage", 200.0),
        ("user=alice", "consumer_byte_rate", 2_097_152.0),
        ("user=alice", "producer_byte_rate", 1_048_576.0),
        ("user=alice,client-id=reporting", "request_percentage", 50.0),
    ]
    .into_iter()
    .map(|(entity, key, value)| Quota {
        entity: entity.to_owned(),
        key: key.to_owned(),
        value,
    })
    .collect()
}

fn denied(what: &str) -> Error {
    Error::answer(what, 31, None).expect("an error code")
}

/// The answer to `request` as the worker sends it.
fn answered(request: u64, answer: Arc<Answer>) -> Action {
    Action::Screen(screens::Msg::Security(Msg::Answer { request, answer }))
}

fn request_of(effects: &[Effect]) -> Option<(u64, Security)> {
    effects.iter().find_map(|e| match e {
        Effect::Query(screens::Query::Security(Query { request, what })) => {
            Some((*request, what.clone()))
        }
        _ => None,
    })
}

/// Type `:command`, Enter, and answer what it asks with `answer`.
fn open_and_answer(
    s: &mut AppState,
    snap: &MetadataSnapshot,
    command: &str,
    answer: Answer,
) -> Security {
    keys(s, snap, command);
    let (request, what) = request_of(&press(s, snap, Code::Enter)).expect("asked for");
    let answer = Arc::new(answer);
    update(s, answered(request, answer), snap);
    what
}

/// A snapshot's name, the command that opens it and the answer it gets.
type Case = (&'static str, &'static str, fn() -> Answer);

#[test]
fn security_screens() {
    let snap = cluster();
    let cases: Vec<Case> = vec![
        ("acls", ":acls", || Answer::Acls(Ok(Acls::Listed(acls())))),
        ("topic_acls", ":acls orders", || {
            Answer::Acls(Ok(Acls::Listed(acls()[1..4].to_vec())))
        }),
        ("users", ":users", || Answer::users(Ok(users()))),
        ("quotas", ":quotas", || Answer::Quotas(Ok(quotas()))),
        ("acls_not_authorised", ":acls", || {
            Answer::Acls(Err(denied("describe acls")))
        }),
        ("acls_no_authorizer", ":acls", || {
            Answer::Acls(Ok(Acls::NoAuthorizer))
        }),
    ];
    for (name, command, answer) in cases {
        for (label, width, height) in [("narrow", 80, 14), ("wide", 150, 14)] {
            let mut s = state(&snap, width, height);
            open_and_answer(&mut s, &snap, command, answer());
            insta::assert_snapshot!(format!("{name}_{label}"), render(&s, &snap));
        }
    }
}

#[test]
fn a_topics_acls_open_from_topics_and_partitions_with_a() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    // The Topics screen starts on "lost" (sorted by name); go to "orders".
    keys(&mut s, &snap, "/orders");
    press(&mut s, &snap, Code::Enter);
    let (_, what) = request_of(&keys(&mut s, &snap, "A")).expect("asked for");
    assert_eq!(what, Security::TopicAcls("orders".to_owned()));
    assert_eq!(
        s.view().screen,
        Shown(Security::TopicAcls("orders".to_owned()))
    );
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, ":partitions payments");
    press(&mut s, &snap, Code::Enter);
    let (_, what) = request_of(&keys(&mut s, &snap, "A")).expect("asked for");
    assert_eq!(what, Security::TopicAcls("payments".to_owned()));
}

#[test]
fn asked_only_while_shown_filtered_and_stale_answers_dropped() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    keys(&mut s, &snap, ":acls");
    let (request, _) = request_of(&press(&mut s, &snap, Code::Enter)).expect("asked for");
    let stale = Arc::new(Answer::Acls(Ok(Acls::Listed(acls()))));
    update(&mut s, answered(request + 3, stale), &snap);
    assert!(s.view().rows.is_empty(), "a stale answer is dropped");
    let answer = Arc::new(Answer::Acls(Ok(Acls::Listed(acls()))));
    update(&mut s, answered(request, answer), &snap);
    assert_eq!(s.view().rows.len(), 5);
    keys(&mut s, &snap, "/DENY");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().rows.len(), 1, "the filter keeps the deny");
    let (now, wall) = (s.now + security::INTERVAL, s.wall);
    let effects = update(&mut s, Action::Tick { now, wall }, &snap);
    assert!(request_of(&effects).is_some(), "asked again while shown");
    press(&mut s, &snap, Code::Esc);
    press(&mut s, &snap, Code::Esc);
    let (now, wall) = (now + security::INTERVAL, wall);
    let effects = update(&mut s, Action::Tick { now, wall }, &snap);
    assert_eq!(request_of(&effects), None, "not asked once left");
}

#[test]
fn a_refusal_is_asked_again_only_at_the_interval() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    open_and_answer(
        &mut s,
        &snap,
        ":users",
        Answer::users(Err(denied("describe scram users"))),
    );
    let (now, wall) = (s.now + std::time::Duration::from_secs(1), s.wall);
    let effects = update(&mut s, Action::Tick { now, wall }, &snap);
    assert_eq!(request_of(&effects), None, "no storm of refused requests");
}
