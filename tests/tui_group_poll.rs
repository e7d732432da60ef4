//! The groups list at scale, without a cluster (`update` only): which groups
//! each round polls — the visible rows (state, members, lag) every interval, the whole
//! list every `REST_EVERY` intervals, or every interval when sorted by lag —
//! and that leaving the list drops it while the lag histories stay bounded.

use std::sync::Arc;
use std::time::Duration;

use kscope::app::group_poll::{REST_EVERY, sorted_by_lag};
use kscope::app::groups::HISTORY_SAMPLES;
use kscope::app::screens::groups::{Msg as GroupMsg, Query as GroupQuery};
use kscope::app::screens::{Msg, Query};
use kscope::app::{Action, AppState, Code, Effect, update};
use kscope::groups::{
    GroupLag, GroupList, GroupListing, GroupState, GroupSummary, GroupType, Overview, PartitionLag,
    Relisted, RequestCounts,
};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, state};

const GROUPS: usize = 10_000;
const INTERVAL: Duration = Duration::from_secs(5);

fn name(i: usize) -> String {
    format!("group-{i:05}")
}

/// Group `i` lags by `behind + i` on `orders` partition 0.
fn lag(i: usize, behind: i64) -> GroupLag {
    let end = 1000 + behind + i64::try_from(i).unwrap_or(0);
    GroupLag::new(vec![PartitionLag {
        topic: "orders".into(),
        partition: 0,
        committed: Some(1000),
        end: Some(end),
        start: Some(0),
        reported: None,
    }])
}

/// Group `i` as its row shows it: Empty, no members, lagging by `behind + i`.
fn summary(i: usize, behind: i64) -> GroupSummary {
    GroupSummary {
        listing: GroupListing {
            group: name(i),
            group_type: GroupType::Classic,
            state: GroupState::Empty,
            protocol_type: "consumer".to_owned(),
            coordinator: 1,
        },
        members: Some(0),
        state: GroupState::Empty,
        lag: Some(lag(i, behind)),
        topics: vec!["orders".into()],
        reconciling: None,
        error: None,
    }
}

fn overview(behind: i64) -> Overview {
    Overview {
        groups: (0..GROUPS).map(|i| summary(i, behind)).collect(),
        failed_brokers: Vec::new(),
        requests: RequestCounts::default(),
    }
}

fn whole(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|e| match e {
        Effect::Query(Query::Groups(GroupQuery::List { request })) => Some(*request),
        _ => None,
    })
}

fn lags(effects: &[Effect]) -> Option<(u64, Vec<String>)> {
    effects.iter().find_map(|e| match e {
        Effect::Query(Query::Groups(GroupQuery::Rows {
            request, groups, ..
        })) => Some((*request, groups.iter().map(|g| g.group.clone()).collect())),
        _ => None,
    })
}

fn advance(s: &mut AppState, snap: &MetadataSnapshot, by: Duration) -> Vec<Effect> {
    let now = s.now + by;
    let wall = s.wall + by;
    update(s, Action::Tick { now, wall }, snap)
}

fn answer_whole(s: &mut AppState, snap: &MetadataSnapshot, request: u64, behind: i64) {
    let result = Ok(Arc::new(overview(behind)));
    let action = Action::Screen(Msg::Groups(GroupMsg::List { request, result }));
    // What the run loop counts to give memory back to the OS.
    let held = s.held_rows();
    let brought = action.carried_rows();
    update(s, action, snap);
    assert_eq!(
        held + brought - s.held_rows(),
        if held == 0 { 0 } else { GROUPS },
        "a whole list landed: the one absorbed is let go (the loop gives it back to the OS)"
    );
}

/// Answer the visible rows `asked`, each as `row` makes it from its index.
fn answer_rows_with(
    s: &mut AppState,
    snap: &MetadataSnapshot,
    request: u64,
    asked: &[String],
    row: impl Fn(usize) -> GroupSummary,
) {
    let rows = asked
        .iter()
        .map(|g| row(g["group-".len()..].parse().unwrap_or(0)))
        .collect();
    let list = GroupList {
        groups: (0..GROUPS).map(|i| summary(i, 0).listing).collect(),
        failed: Vec::new(),
    };
    let result = Ok(Relisted { list, rows });
    update(
        s,
        Action::Screen(Msg::Groups(GroupMsg::Rows { request, result })),
        snap,
    );
}

fn answer_lags(
    s: &mut AppState,
    snap: &MetadataSnapshot,
    request: u64,
    asked: &[String],
    behind: i64,
) {
    answer_rows_with(s, snap, request, asked, |i| summary(i, behind));
}

/// `:groups`, answered with the whole list.
fn open(s: &mut AppState, snap: &MetadataSnapshot) {
    keys(s, snap, ":groups");
    let effects = press(s, snap, Code::Enter);
    let request = whole(&effects).expect("the whole list is asked for first");
    answer_whole(s, snap, request, 0);
    assert_eq!(s.view().rows.len(), GROUPS);
}

fn shown(s: &AppState) -> Vec<String> {
    let view = s.view();
    let overview = s.screens.groups.overview.as_ref().expect("listed");
    view.rows[view.offset..(view.offset + s.page()).min(view.rows.len())]
        .iter()
        .map(|&i| overview.groups[i].listing.group.clone())
        .collect()
}

#[test]
fn each_round_asks_the_visible_rows_and_the_whole_list_every_rest_rounds() {
    let snap = cluster();
    let mut s = state(&snap, 120, 30);
    open(&mut s, &snap);
    let first_page: Vec<String> = (0..s.page()).map(name).collect();
    assert!(!first_page.is_empty() && first_page.len() < 40);
    assert_eq!(shown(&s), first_page);
    for round in 1..REST_EVERY {
        let effects = advance(&mut s, &snap, INTERVAL);
        assert_eq!(whole(&effects), None, "round {round}: not the whole list");
        let (request, asked) = lags(&effects).expect("the visible rows are due");
        assert_eq!(
            asked, first_page,
            "round {round}: exactly the rows on screen"
        );
        answer_lags(&mut s, &snap, request, &asked, i64::from(round));
    }
    let effects = advance(&mut s, &snap, INTERVAL);
    let request = whole(&effects).expect("the whole list every REST_EVERY rounds");
    assert_eq!(lags(&effects), None, "one of the two per round");
    answer_whole(&mut s, &snap, request, 0);

    // Scrolled to the end: the next round asks the rows now on screen.
    keys(&mut s, &snap, "G");
    let effects = advance(&mut s, &snap, INTERVAL);
    let (_, asked) = lags(&effects).expect("the visible rows are due");
    assert_eq!(asked, shown(&s));
    assert_eq!(asked.last().map(String::as_str), Some("group-09999"));
}

#[test]
fn sorted_by_lag_the_whole_list_is_asked_every_interval() {
    let snap = cluster();
    let mut s = state(&snap, 120, 30);
    open(&mut s, &snap);
    for _ in 0..10 {
        if sorted_by_lag(s.view()) {
            break;
        }
        keys(&mut s, &snap, "s");
    }
    assert!(sorted_by_lag(s.view()), "s reaches the LAG column");
    for round in 0..3 {
        let effects = advance(&mut s, &snap, INTERVAL);
        let request = whole(&effects).expect("every interval when sorted by lag");
        assert_eq!(lags(&effects), None);
        answer_whole(&mut s, &snap, request, round);
    }
}

#[test]
fn a_lag_answer_updates_its_rows_and_their_histories_only() {
    let snap = cluster();
    let mut s = state(&snap, 120, 30);
    open(&mut s, &snap);
    let effects = advance(&mut s, &snap, INTERVAL);
    let (request, asked) = lags(&effects).expect("due");
    answer_lags(&mut s, &snap, request, &asked, 500);
    let overview = s.screens.groups.overview.as_ref().expect("listed");
    let total = |i: usize| {
        overview.groups[i]
            .lag
            .as_ref()
            .and_then(|l| l.totals.total())
    };
    assert_eq!(total(0), Some(500), "a visible row has the new lag");
    assert_eq!(
        total(GROUPS - 1),
        Some(9999),
        "a row off screen kept its lag"
    );
    let samples = |g: &str| {
        s.screens
            .groups
            .histories
            .get(g)
            .map_or(0, |h| h.samples().len())
    };
    assert_eq!(samples("group-00000"), 2);
    assert_eq!(samples("group-09999"), 1);
}

#[test]
fn a_visible_group_that_became_stable_shows_its_state_and_members_next_round() {
    let snap = cluster();
    let mut s = state(&snap, 120, 30);
    open(&mut s, &snap);
    let effects = advance(&mut s, &snap, INTERVAL);
    let (request, asked) = lags(&effects).expect("the visible rows are due");
    answer_rows_with(&mut s, &snap, request, &asked, |i| {
        let mut row = summary(i, 3);
        if i == 1 {
            row.state = GroupState::Stable;
            row.members = Some(2);
        }
        row
    });
    let overview = s.screens.groups.overview.as_ref().expect("listed");
    assert_eq!(overview.groups[1].state, GroupState::Stable);
    assert_eq!(overview.groups[1].members, Some(2));
    assert_eq!(overview.groups[0].state, GroupState::Empty);

    // A row whose lag could not be read keeps the lag it showed, with why.
    let effects = advance(&mut s, &snap, INTERVAL);
    let (request, asked) = lags(&effects).expect("due again");
    answer_rows_with(&mut s, &snap, request, &asked, |i| {
        let mut row = summary(i, 9);
        if i == 0 {
            row.lag = None;
            row.error = Some("offsets unavailable".to_owned());
        }
        row
    });
    let overview = s.screens.groups.overview.as_ref().expect("listed");
    let row = &overview.groups[0];
    assert_eq!(row.lag.as_ref().and_then(|l| l.totals.total()), Some(3));
    assert_eq!(row.error.as_deref(), Some("offsets unavailable"));
    assert_eq!(
        overview.groups[1]
            .lag
            .as_ref()
            .and_then(|l| l.totals.total()),
        Some(10)
    );
}

#[test]
fn a_group_created_after_the_list_was_read_shows_up_next_round_even_filtered_out() {
    let snap = cluster();
    let mut s = state(&snap, 120, 30);
    open(&mut s, &snap);
    keys(&mut s, &snap, "/brand-new");
    press(&mut s, &snap, Code::Enter);
    assert!(s.view().rows.is_empty(), "no group matches yet");
    let effects = advance(&mut s, &snap, INTERVAL);
    let (request, asked) = lags(&effects).expect("the listing is read with no row visible");
    assert!(asked.is_empty());
    let mut listings: Vec<GroupListing> = (1..GROUPS).map(|i| summary(i, 0).listing).collect();
    let mut created = summary(0, 0).listing;
    created.group = "brand-new".to_owned();
    created.state = GroupState::Stable;
    listings.push(created);
    listings.sort_by(|a, b| a.group.cmp(&b.group));
    let list = GroupList {
        groups: listings,
        failed: Vec::new(),
    };
    let result = Ok(Relisted {
        list,
        rows: Vec::new(),
    });
    update(
        &mut s,
        Action::Screen(Msg::Groups(GroupMsg::Rows { request, result })),
        &snap,
    );
    assert_eq!(shown(&s), ["brand-new"], "the new group is listed");
    let overview = s.screens.groups.overview.as_ref().expect("listed");
    assert_eq!(
        overview.groups.len(),
        GROUPS,
        "group-00000 went, brand-new came"
    );
    assert!(!s.screens.groups.histories.contains_key("group-00000"));

    // The next round describes it: it is a visible row now.
    let effects = advance(&mut s, &snap, INTERVAL);
    let (_, asked) = lags(&effects).expect("due again");
    assert_eq!(asked, ["brand-new"]);
}

#[test]
fn leaving_the_list_drops_it_and_the_histories_stay_bounded() {
    let snap = cluster();
    let mut s = state(&snap, 120, 30);
    open(&mut s, &snap);
    for round in 0..(2 * HISTORY_SAMPLES) {
        let effects = advance(&mut s, &snap, INTERVAL);
        let behind = i64::try_from(round).unwrap_or(0);
        if let Some(request) = whole(&effects) {
            answer_whole(&mut s, &snap, request, behind);
        } else {
            let (request, asked) = lags(&effects).expect("one or the other is due");
            answer_lags(&mut s, &snap, request, &asked, behind);
        }
    }
    let visible = s.screens.groups.histories.get("group-00000").expect("kept");
    assert_eq!(visible.samples().len(), HISTORY_SAMPLES, "bounded");
    let rest = s.screens.groups.histories.get("group-09999").expect("kept");
    assert!(
        rest.samples().len() < HISTORY_SAMPLES / 2,
        "sampled at the rest cadence"
    );

    let held = s.held_rows();
    press(&mut s, &snap, Code::Esc);
    assert!(
        s.screens.groups.overview.is_none(),
        "the list is dropped once left"
    );
    assert_eq!(
        held - s.held_rows(),
        GROUPS,
        "and its rows are let go (the run loop gives their memory back)"
    );
    let effects = advance(&mut s, &snap, Duration::from_mins(2));
    assert_eq!(s.held_rows(), 0, "nothing more to give back");
    assert_eq!(whole(&effects), None);
    assert_eq!(lags(&effects), None);
    assert_eq!(
        s.screens.groups.histories.len(),
        GROUPS,
        "the session's histories stay"
    );
    assert!(
        s.screens
            .groups
            .histories
            .values()
            .all(|h| h.samples().len() <= HISTORY_SAMPLES)
    );

    keys(&mut s, &snap, ":groups");
    let effects = press(&mut s, &snap, Code::Enter);
    assert!(whole(&effects).is_some(), "asked again at once");
}
