//! The groups module through the dispatch: what it plans on top and while
//! hidden (from what [`Seen`] says of the stack), and its fetch lanes.

use std::any::TypeId;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use super::super::{Msg as ScreenMsg, Query as ScreenQuery, Screen, Stores};
use super::*;
use crate::columns::fixtures::billing;
use crate::groups::{Overview, RequestCounts};

/// What the stack shows: `top` on top of `below`, `L` as given.
struct Shows<'a> {
    top: Option<&'a Screen>,
    below: Vec<TypeId>,
    follow_lag: bool,
}

fn seen<'a>(top: Option<&'a Screen>, below: &[&Screen], follow_lag: bool) -> Shows<'a> {
    Shows {
        top,
        below: below.iter().map(|s| s.module_id()).collect(),
        follow_lag,
    }
}

impl Shows<'_> {
    /// Every store's plan with this stack, as `update` asks it.
    fn plan(&self, stores: &mut Stores, ids: &mut RequestIds, connected: bool) -> Vec<ScreenQuery> {
        let seen = Seen {
            top: self.top.map(Screen::module_id),
            below: &self.below,
            follow_lag: self.follow_lag,
            ..Seen::at(Instant::now())
        };
        stores.plan(self.top, &seen, ids, connected)
    }
}

/// The groups queries of one plan.
fn asked(stores: &mut Stores, ids: &mut RequestIds, shows: &Shows) -> Vec<Query> {
    shows
        .plan(stores, ids, true)
        .into_iter()
        .filter_map(|q| match q {
            ScreenQuery::Groups(q) => Some(q),
            _ => None,
        })
        .collect()
}

/// A list landed for `request`.
fn land(stores: &mut Stores, request: u64) {
    let result = Ok(Arc::new(Overview {
        groups: vec![billing()],
        failed_brokers: Vec::new(),
        requests: RequestCounts::default(),
    }));
    let clock = Clock {
        now: Instant::now(),
        now_ms: 0,
        wall: SystemTime::now(),
    };
    stores.receive(ScreenMsg::Groups(Msg::List { request, result }), clock);
}

#[test]
fn hidden_the_list_loads_under_topics_with_l_stays_below_a_group_screen_else_goes() {
    let topics = Screen::Topics(super::super::topics::List);
    let list = Screen::Groups(Shown::List { topic: None });
    let brokers = Screen::Brokers(super::super::brokers::List);
    let mut stores = Stores::default();
    let mut ids = RequestIds::default();

    assert!(
        asked(&mut stores, &mut ids, &seen(Some(&topics), &[], false)).is_empty(),
        "Topics without L asks nothing"
    );
    let lag = asked(&mut stores, &mut ids, &seen(Some(&topics), &[], true));
    let [Query::List { request }] = lag.as_slice() else {
        panic!("L on Topics asks for the list, not {lag:?}");
    };
    land(&mut stores, *request);
    assert!(stores.groups.overview.is_some(), "the list landed");

    asked(&mut stores, &mut ids, &seen(Some(&brokers), &[&list], false));
    assert!(
        stores.groups.overview.is_some(),
        "a group screen further down keeps it"
    );
    asked(&mut stores, &mut ids, &seen(Some(&brokers), &[&topics], false));
    assert!(stores.groups.overview.is_none(), "nothing shows it: dropped");
    assert!(
        stores.groups.histories.contains_key("billing"),
        "the histories stay"
    );
    assert!(
        asked(&mut stores, &mut ids, &seen(Some(&brokers), &[], true)).is_empty(),
        "L keeps it loading under Topics only"
    );
}

#[test]
fn on_top_the_list_is_asked_and_nothing_while_disconnected() {
    let list = Screen::Groups(Shown::List { topic: None });
    let offsets = Screen::Groups(Shown::Offsets("billing".to_owned()));
    let mut stores = Stores::default();
    let mut ids = RequestIds::default();
    let top = seen(Some(&list), &[], false);
    assert!(top.plan(&mut stores, &mut ids, false).is_empty(), "not connected");
    let first = asked(&mut stores, &mut ids, &top);
    assert!(matches!(first.as_slice(), [Query::List { .. }]), "{first:?}");
    let detail = asked(&mut stores, &mut ids, &seen(Some(&offsets), &[&list], false));
    assert!(
        matches!(detail.as_slice(), [Query::Detail { group, .. }] if group == "billing"),
        "{detail:?}"
    );
}

#[test]
fn the_list_rows_and_a_detail_are_fetched_side_by_side() {
    let lane = |q: Query| ScreenQuery::Groups(q).lane();
    let list = lane(Query::List { request: 1 });
    let rows = lane(Query::Rows {
        request: 2,
        groups: Vec::new(),
        topics: plan::GroupTopics::new(),
    });
    let detail = lane(Query::Detail {
        request: 3,
        group: "billing".to_owned(),
    });
    assert!(list != rows && rows != detail && list != detail);
    assert_eq!(list, lane(Query::List { request: 9 }), "a newer list replaces");
    let cluster = ScreenQuery::Cluster(super::super::cluster::Query { request: 1 }).lane();
    assert_ne!(cluster, list, "another module's fetch is another lane");
}
