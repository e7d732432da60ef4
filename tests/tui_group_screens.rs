//! The consumer-group screens without a cluster: whole-screen snapshots of
//! the groups list, a group's offsets and its members (narrow and wide), and
//! `update` tests — only what is on screen is polled, stale answers are
//! dropped, the selection follows its group, navigation in and out.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use kscope::app::failure::{Failure, Kind};
use kscope::app::screens::groups::{Msg as GroupMsg, Query as GroupQuery};
use kscope::app::screens::messages::effect::Effect as MessagesEffect;
use kscope::app::screens::{Msg, Query};
use kscope::app::{Action, AppState, Code, Effect, Screen, update};
use kscope::groups::{
    Assignment, GroupDescription, GroupDetail, GroupLag, GroupList, GroupListing, GroupState,
    GroupSummary, GroupType, Member, Overview, PartitionLag, Relisted, RequestCounts,
};
use kscope::meta::{MetadataSnapshot, TopicPartition};

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

fn lag(topic: &str, partitions: &[(i32, Option<i64>, i64)]) -> GroupLag {
    GroupLag::new(
        partitions
            .iter()
            .map(|&(partition, committed, end)| PartitionLag {
                topic: topic.into(),
                partition,
                committed,
                end: Some(end),
                start: None,
                reported: None,
            })
            .collect(),
    )
}

fn summary(
    name: &str,
    group_type: GroupType,
    state: GroupState,
    members: usize,
    lag: Option<GroupLag>,
) -> GroupSummary {
    let topics = lag.as_ref().map(GroupLag::topics).unwrap_or_default();
    GroupSummary {
        listing: GroupListing {
            group: name.to_owned(),
            group_type,
            state: state.clone(),
            protocol_type: "consumer".to_owned(),
            coordinator: 2,
        },
        members: Some(members),
        state,
        lag,
        topics,
        reconciling: None,
        error: None,
    }
}

/// Four groups; `analytics` lags by `behind` on orders.
fn overview(behind: i64) -> Overview {
    Overview {
        groups: vec![
            summary(
                "analytics",
                GroupType::Consumer,
                GroupState::Empty,
                0,
                Some(lag(
                    "orders",
                    &[(0, Some(100), 100 + behind), (1, None, 50)],
                )),
            ),
            summary(
                "billing",
                GroupType::Classic,
                GroupState::Stable,
                2,
                Some(lag("orders", &[(0, Some(190), 200), (1, Some(50), 50)])),
            ),
            summary(
                "inventory-sync",
                GroupType::Consumer,
                GroupState::Reconciling,
                3,
                Some(lag("payments", &[(0, Some(7), 9)])),
            ),
            summary("old-reports", GroupType::Classic, GroupState::Dead, 0, None),
        ],
        failed_brokers: Vec::new(),
        requests: RequestCounts::default(),
    }
}

fn member(id: &str, client: &str, current: &[i32], target: &[i32]) -> Member {
    let assignment =
        |ps: &[i32]| Assignment(BTreeMap::from([("payments".to_owned(), ps.to_vec())]));
    Member {
        member_id: id.to_owned(),
        client_id: client.to_owned(),
        client_host: "/127.0.0.1".to_owned(),
        member_epoch: Some(12),
        subscribed_topics: vec!["payments".to_owned()],
        assignment: assignment(current),
        target_assignment: Some(assignment(target)),
        ..Member::default()
    }
}

/// `inventory-sync` in detail: two members, one still reconciling.
fn detail(behind: i64) -> GroupDetail {
    GroupDetail {
        description: GroupDescription {
            group: "inventory-sync".to_owned(),
            group_type: GroupType::Consumer,
            state: GroupState::Reconciling,
            coordinator: 2,
            protocol_type: String::new(),
            assignor: "uniform".to_owned(),
            group_epoch: Some(12),
            assignment_epoch: Some(12),
            topology: None,
            members: vec![
                member("m-a", "inventory-1", &[0], &[0]),
                member("m-b", "inventory-2", &[1, 2], &[1]),
            ],
        },
        lag: lag(
            "payments",
            &[(0, Some(7), 9), (1, Some(20), 20 + behind), (2, None, 4)],
        ),
        oldest_unconsumed: BTreeMap::from([(
            TopicPartition::new("payments", 1),
            1_800_000_100_000 - 95_000,
        )]),
        oldest_unconsumed_left_out: 0,
    }
}

fn advance(s: &mut AppState, snap: &MetadataSnapshot, by: Duration) -> Vec<Effect> {
    let now = s.now + by;
    let wall = s.wall + by;
    update(s, Action::Tick { now, wall }, snap)
}

/// The request of the whole list or of the visible rows, if asked.
fn list_request(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|e| match e {
        Effect::Query(Query::Groups(
            GroupQuery::List { request } | GroupQuery::Rows { request, .. },
        )) => Some(*request),
        _ => None,
    })
}

/// Answer the list request in `effects` from `overview`: the whole list, or
/// the visible rows asked. Whether there was one to answer.
fn answer(
    s: &mut AppState,
    snap: &MetadataSnapshot,
    effects: &[Effect],
    overview: Overview,
) -> bool {
    for effect in effects {
        match effect {
            Effect::Query(Query::Groups(GroupQuery::List { request })) => {
                let result = Ok(Arc::new(overview));
                update(
                    s,
                    Action::Screen(Msg::Groups(GroupMsg::List {
                        request: *request,
                        result,
                    })),
                    snap,
                );
                return true;
            }
            Effect::Query(Query::Groups(GroupQuery::Rows {
                request, groups, ..
            })) => {
                let rows = groups
                    .iter()
                    .filter_map(|asked| {
                        let row = overview.groups.iter().find(|g| g.listing == *asked)?;
                        Some(row.clone())
                    })
                    .collect();
                let list = GroupList {
                    groups: overview.groups.iter().map(|g| g.listing.clone()).collect(),
                    failed: overview.failed_brokers.clone(),
                };
                let result = Ok(Relisted { list, rows });
                update(
                    s,
                    Action::Screen(Msg::Groups(GroupMsg::Rows {
                        request: *request,
                        result,
                    })),
                    snap,
                );
                return true;
            }
            _ => {}
        }
    }
    false
}

fn detail_request(effects: &[Effect]) -> Option<(u64, String)> {
    effects.iter().find_map(|e| match e {
        Effect::Query(Query::Groups(GroupQuery::Detail { request, group })) => {
            Some((*request, group.clone()))
        }
        _ => None,
    })
}

/// Open `:groups` and answer it `rounds` times, 5 s apart, with `analytics`
/// falling further behind each time.
fn open_groups(s: &mut AppState, snap: &MetadataSnapshot, rounds: i64) {
    keys(s, snap, ":groups");
    let mut effects = press(s, snap, Code::Enter);
    for round in 1..=rounds {
        assert!(
            answer(s, snap, &effects, overview(round * 400)),
            "the list is asked for"
        );
        if round < rounds {
            effects = advance(s, snap, Duration::from_secs(5));
        }
    }
}

/// From the list, open `inventory-sync` and answer its detail `rounds` times.
fn open_detail(s: &mut AppState, snap: &MetadataSnapshot, rounds: i64) {
    keys(s, snap, "/inventory");
    press(s, snap, Code::Enter);
    let mut effects = press(s, snap, Code::Enter);
    for round in 1..=rounds {
        let (request, group) = detail_request(&effects).expect("the detail is asked for");
        assert_eq!(group, "inventory-sync");
        let result = Ok(Arc::new(detail(round * 30)));
        update(
            s,
            Action::Screen(Msg::Groups(GroupMsg::Detail { request, result })),
            snap,
        );
        if round < rounds {
            effects = advance(s, snap, Duration::from_secs(5));
        }
    }
}

fn both_widths(name: &str, setup: impl Fn(&mut AppState, &MetadataSnapshot)) {
    let snap = cluster();
    for (label, width, height) in [("narrow", 80, 20), ("wide", 150, 20)] {
        let mut s = state(&snap, width, height);
        setup(&mut s, &snap);
        insta::assert_snapshot!(format!("{name}_{label}"), render(&s, &snap));
    }
}

#[test]
fn groups_list_screen() {
    both_widths("groups", |s, snap| open_groups(s, snap, 3));
}

#[test]
fn group_offsets_screen() {
    both_widths("group_offsets", |s, snap| {
        open_groups(s, snap, 1);
        open_detail(s, snap, 3);
    });
}

/// The offsets' last row (a partition never committed to), which the
/// snapshots' 20 lines no longer reach beside two recent events.
#[test]
fn a_partition_without_a_commit_says_so_on_the_offsets() {
    let snap = cluster();
    let mut s = state(&snap, 150, 30);
    open_groups(&mut s, &snap, 1);
    open_detail(&mut s, &snap, 3);
    let screen = render(&s, &snap);
    let row = screen
        .lines()
        .find(|l| l.contains("payments             2"))
        .unwrap_or_else(|| panic!("no row for partition 2:\n{screen}"));
    assert!(
        row.contains("no commit") && row.contains("inventory-2"),
        "{row}"
    );
}

#[test]
fn group_members_screen() {
    both_widths("group_members", |s, snap| {
        open_groups(s, snap, 1);
        open_detail(s, snap, 1);
        keys(s, snap, "m");
    });
}

#[test]
fn only_what_is_on_screen_is_polled() {
    let snap = cluster();
    let mut s = state(&snap, 100, 30);
    let idle = advance(&mut s, &snap, Duration::from_mins(1));
    assert_eq!(
        list_request(&idle),
        None,
        "topics screen: no group requests"
    );

    open_groups(&mut s, &snap, 1);
    let soon = advance(&mut s, &snap, Duration::from_secs(2));
    assert_eq!(list_request(&soon), None, "not due before the interval");
    let due = advance(&mut s, &snap, Duration::from_secs(3));
    assert!(list_request(&due).is_some(), "due after the interval");
    let waiting = advance(&mut s, &snap, Duration::from_secs(6));
    assert_eq!(
        list_request(&waiting),
        None,
        "one request in flight at a time"
    );
    assert!(answer(&mut s, &snap, &due, overview(10)));

    let effects = press(&mut s, &snap, Code::Esc);
    assert!(s.view().screen.is_topics());
    let later = advance(&mut s, &snap, Duration::from_mins(1));
    assert_eq!(list_request(&effects), None);
    assert_eq!(
        list_request(&later),
        None,
        "the list is not polled once left"
    );

    keys(&mut s, &snap, ":group billing");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(
        detail_request(&effects).map(|(_, g)| g),
        Some("billing".to_owned())
    );
    assert_eq!(
        list_request(&effects),
        None,
        "a group's detail needs no list"
    );
}

#[test]
fn stale_and_failed_answers_keep_what_is_shown() {
    let snap = cluster();
    let mut s = state(&snap, 100, 30);
    keys(&mut s, &snap, ":groups");
    let effects = press(&mut s, &snap, Code::Enter);
    let request = list_request(&effects).expect("asked");
    let stale = Ok(Arc::new(overview(1)));
    update(
        &mut s,
        Action::Screen(Msg::Groups(GroupMsg::List {
            request: request + 100,
            result: stale,
        })),
        &snap,
    );
    assert!(
        s.screens.groups.overview.is_none(),
        "an answer to no request is dropped"
    );
    assert!(render(&s, &snap).contains("loading consumer groups"));

    let result = Ok(Arc::new(overview(1)));
    update(
        &mut s,
        Action::Screen(Msg::Groups(GroupMsg::List { request, result })),
        &snap,
    );
    assert_eq!(s.view().rows.len(), 4);

    let effects = press(&mut s, &snap, Code::Char('r'));
    let request = list_request(&effects).expect("r asks again at once");
    let result = Err(Failure::new(
        Kind::Transient,
        "broker 2: connection refused",
    ));
    update(
        &mut s,
        Action::Screen(Msg::Groups(GroupMsg::List { request, result })),
        &snap,
    );
    assert_eq!(s.view().rows.len(), 4, "the last list stays on screen");
    let screen = render(&s, &snap);
    assert!(
        screen.contains("failed: broker 2: connection refused"),
        "{screen}"
    );
    assert!(screen.contains("analytics"), "{screen}");
}

#[test]
fn empty_and_dead_groups_toggle_and_a_topic_lists_its_consumers() {
    let snap = cluster();
    let mut s = state(&snap, 100, 30);
    open_groups(&mut s, &snap, 1);
    keys(&mut s, &snap, "e");
    let screen = render(&s, &snap);
    assert!(
        !screen.contains("analytics") && !screen.contains("old-reports"),
        "{screen}"
    );
    assert!(
        screen.contains("billing") && screen.contains("Empty/Dead hidden"),
        "{screen}"
    );
    keys(&mut s, &snap, "e");
    assert_eq!(s.view().rows.len(), 4);

    // Back on Topics, `c` on `payments` lists the groups consuming it (the
    // list was dropped when left: it is asked for again at once).
    press(&mut s, &snap, Code::Esc);
    assert!(
        s.screens.groups.overview.is_none(),
        "dropped once no screen shows it"
    );
    keys(&mut s, &snap, "/payments");
    press(&mut s, &snap, Code::Enter);
    let effects = keys(&mut s, &snap, "c");
    assert!(
        answer(&mut s, &snap, &effects, overview(400)),
        "asked again"
    );
    assert_eq!(s.view().screen, Screen::groups(Some("payments".to_owned())));
    let screen = render(&s, &snap);
    assert!(
        screen.contains("groups consuming 'payments' [1/1]"),
        "{screen}"
    );
    assert!(
        screen.contains("inventory-sync") && !screen.contains("billing"),
        "{screen}"
    );
}

#[test]
fn the_selection_follows_its_group_when_lag_reorders_the_list() {
    let snap = cluster();
    let mut s = state(&snap, 100, 30);
    open_groups(&mut s, &snap, 1);
    // Sort by lag, largest first: analytics (400) then billing (10).
    for _ in 0..5 {
        keys(&mut s, &snap, "s");
    }
    keys(&mut s, &snap, "S");
    keys(&mut s, &snap, "j");
    let selected = |s: &AppState| {
        let view = s.view();
        let overview = s.screens.groups.overview.as_ref().expect("listed");
        overview.groups[view.rows[view.selected]]
            .listing
            .group
            .clone()
    };
    assert_eq!(selected(&s), "billing");
    // analytics catches up: billing now lags most and moves to the top.
    let effects = advance(&mut s, &snap, Duration::from_secs(5));
    let request = list_request(&effects).expect("due");
    let mut caught_up = overview(0);
    caught_up.groups[0].lag = Some(lag("orders", &[(0, Some(100), 100)]));
    let result = Ok(Arc::new(caught_up));
    update(
        &mut s,
        Action::Screen(Msg::Groups(GroupMsg::List { request, result })),
        &snap,
    );
    assert_eq!(s.view().selected, 0);
    assert_eq!(selected(&s), "billing", "the cursor stayed on its group");
}

#[test]
fn drill_from_group_to_members_to_a_topic_and_back() {
    let snap = cluster();
    let mut s = state(&snap, 100, 30);
    open_groups(&mut s, &snap, 1);
    open_detail(&mut s, &snap, 1);
    keys(&mut s, &snap, "m");
    assert_eq!(s.view().screen, Screen::members("inventory-sync"));
    let screen = render(&s, &snap);
    assert!(screen.contains("1 reconciling"), "{screen}");
    assert!(
        screen.contains("payments:1,2") && screen.contains("payments:1 "),
        "{screen}"
    );
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, "j");
    let effects = press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().screen, Screen::partitions("payments"));
    assert!(effects.contains(&Effect::WatchTopics(vec!["payments".to_owned()])));
    let view = s.view();
    assert_eq!(
        s.screens
            .partitions
            .partition("payments", view.rows[view.selected]),
        Some(1),
        "opened on the row of the partition the group's row was on"
    );
    press(&mut s, &snap, Code::Esc);
    assert_eq!(
        s.view().selected,
        1,
        "the group's offsets keep their selection"
    );
    press(&mut s, &snap, Code::Esc);
    press(&mut s, &snap, Code::Esc);
    assert_eq!(
        s.view().screen,
        Screen::groups(None),
        "Esc clears the filter, then goes back"
    );
}

#[test]
fn v_opens_a_partitions_records_at_the_committed_offset() {
    let snap = cluster();
    let mut s = state(&snap, 100, 30);
    open_groups(&mut s, &snap, 1);
    open_detail(&mut s, &snap, 1);
    let effects = keys(&mut s, &snap, "v");
    assert!(
        effects.iter().any(|e| matches!(e,
            Effect::Messages(MessagesEffect::Browse { topic, partition: Some(0), start: kscope::browse::Start::Offset(7), .. })
                if topic == "payments")),
        "{effects:?}"
    );
    assert!(s.view().screen.is_records());
    // The records arrive from the committed offset on, and more after: the
    // selection stays on the record the group reads next, held still, and
    // the title says so (following would carry it off to the newest).
    let session = screens_fixture::browse_session(&effects).expect("a session");
    let screen = render(&s, &snap);
    assert!(
        screen.contains("reads offset 7 next (waiting for"),
        "{screen}"
    );
    let batch = |from: i64| {
        (from..from + 5)
            .map(|o| screens_fixture::record(0, o, None, Some(b"v")))
            .collect()
    };
    screens_fixture::feed(&mut s, &snap, session, batch(7));
    screens_fixture::feed(&mut s, &snap, session, batch(12));
    let selected = kscope::app::screens::messages::selected(&s).map(|r| r.offset);
    assert_eq!(selected, Some(7), "on the group's next record");
    assert!(s.screens.messages.paused, "held still");
    let screen = render(&s, &snap);
    assert!(
        screen.contains("group 'inventory-sync' reads offset 7 next ·"),
        "{screen}"
    );
    assert!(screen.contains("PAUSED, 5 n"), "{screen}");
    press(&mut s, &snap, Code::Esc);
    keys(&mut s, &snap, "jj");
    let effects = keys(&mut s, &snap, "v");
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Messages(MessagesEffect::Browse { .. }))),
        "no committed offset on partition 2: {effects:?}"
    );
    assert!(
        s.notice
            .as_deref()
            .is_some_and(|n| n.contains("no committed offset")),
        "{:?}",
        s.notice
    );
}

/// The display column where `needle` starts in `line`.
fn column_of(line: &str, needle: &str) -> Option<usize> {
    use unicode_width::UnicodeWidthStr;
    line.find(needle).map(|at| line[..at].width())
}

#[test]
fn hostile_group_ids_are_shown_escaped_with_columns_aligned() {
    let snap = cluster();
    let mut s = state(&snap, 120, 20);
    keys(&mut s, &snap, ":groups");
    let effects = press(&mut s, &snap, Code::Enter);
    let request = list_request(&effects).expect("the list is asked for");
    let ids = [
        ("clear\x1b[2J\x1b[Hgrp", "clear\\x1b[2J\\x1b[Hgrp"),
        ("nl\nline2-grp", "nl\\nline2-grp"),
        ("rtl\u{202e}grp", "rtl\\u{202e}grp"),
        ("注文グループ", "注文グループ"),
    ];
    let mut hostile = overview(0);
    hostile.groups = ids
        .iter()
        .map(|(raw, _)| summary(raw, GroupType::Classic, GroupState::Empty, 0, None))
        .collect();
    let result = Ok(Arc::new(hostile));
    update(
        &mut s,
        Action::Screen(Msg::Groups(GroupMsg::List { request, result })),
        &snap,
    );
    let screen = render(&s, &snap);
    assert!(!screen.contains(['\x1b', '\u{202e}']), "{screen:?}");
    let header = screen
        .lines()
        .find(|l| l.contains("GROUP"))
        .expect("the table header");
    let type_column = column_of(header, "TYPE").expect("a TYPE header");
    for (_, shown) in ids {
        let line = screen
            .lines()
            .find(|l| l.contains(shown))
            .unwrap_or_else(|| panic!("{shown} shown on one line:\n{screen}"));
        assert_eq!(
            column_of(line, "classic"),
            Some(type_column),
            "{shown}:\n{screen}"
        );
    }
}

#[test]
fn k_narrows_the_list_to_one_group_type_in_turn() {
    let snap = cluster();
    let mut s = state(&snap, 150, 30);
    open_groups(&mut s, &snap, 1);
    let listed = |s: &AppState| -> Vec<String> {
        let overview = s.screens.groups.overview.as_ref().expect("the list");
        s.view()
            .rows
            .iter()
            .map(|&i| overview.groups[i].listing.group.clone())
            .collect()
    };
    assert_eq!(listed(&s).len(), 4);
    press(&mut s, &snap, Code::Char('K'));
    assert_eq!(listed(&s), ["billing", "old-reports"], "classic only");
    assert!(render(&s, &snap).contains("type classic only"));
    press(&mut s, &snap, Code::Char('K'));
    assert_eq!(listed(&s), ["analytics", "inventory-sync"], "consumer only");
    press(&mut s, &snap, Code::Char('K'));
    assert!(listed(&s).is_empty(), "no share group here");
    press(&mut s, &snap, Code::Char('K'));
    press(&mut s, &snap, Code::Char('K'));
    assert_eq!(listed(&s).len(), 4, "every type again");
    assert!(!render(&s, &snap).contains("only"));
}
