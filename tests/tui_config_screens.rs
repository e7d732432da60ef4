//! The config screens without a cluster: whole-screen snapshots of a
//! topic's configs and of one config's documentation and synonyms (narrow
//! and wide), and `update` tests — the key from Topics, Partitions and
//! Brokers, `:config`, only the resource on screen is asked for, stale
//! answers are dropped, `/` filters, Enter opens a config, Esc goes back.

use std::sync::Arc;

use kscope::app::failure::{Failure, Kind};
use kscope::app::screens::configs::{self, Config, Msg};
use kscope::app::screens::{self, Screen::Configs};
use kscope::app::{Action, AppState, Code, Effect, Screen, update};
use kscope::inspect::{ConfigEntry, ConfigResource, ConfigSource, ConfigType, Synonym};
use kscope::meta::MetadataSnapshot;

mod screens_fixture;

use screens_fixture::{cluster, keys, press, render, state};

fn entry(name: &str, value: Option<&str>, source: ConfigSource) -> ConfigEntry {
    ConfigEntry {
        name: name.to_owned(),
        value: value.map(str::to_owned),
        source,
        sensitive: false,
        read_only: false,
        kind: ConfigType::Long,
        documentation: None,
        synonyms: vec![Synonym {
            name: name.to_owned(),
            value: value.map(str::to_owned),
            source,
        }],
    }
}

/// The configs of `orders`: a dynamic retention with its synonym chain, a
/// default, a read-only static one, and a sensitive one.
fn orders_configs() -> Vec<ConfigEntry> {
    let retention = ConfigEntry {
        documentation: Some(
            "This configuration controls the maximum time we will retain a log before we will \
             discard old log segments to free up space if we are using the \"delete\" retention \
             policy."
                .to_owned(),
        ),
        synonyms: vec![
            Synonym {
                name: "retention.ms".to_owned(),
                value: Some("3600000".to_owned()),
                source: ConfigSource::DynamicTopic,
            },
            Synonym {
                name: "log.retention.hours".to_owned(),
                value: Some("168".to_owned()),
                source: ConfigSource::StaticBroker,
            },
            Synonym {
                name: "log.retention.hours".to_owned(),
                value: Some("168".to_owned()),
                source: ConfigSource::Default,
            },
        ],
        ..entry("retention.ms", Some("3600000"), ConfigSource::DynamicTopic)
    };
    let mut cleanup = entry("cleanup.policy", Some("delete"), ConfigSource::Default);
    cleanup.kind = ConfigType::List;
    let segment = ConfigEntry {
        read_only: true,
        ..entry(
            "segment.bytes",
            Some("1073741824"),
            ConfigSource::StaticBroker,
        )
    };
    let secret = ConfigEntry {
        sensitive: true,
        ..entry("sasl.jaas.config", None, ConfigSource::DynamicTopic)
    };
    vec![cleanup, retention, secret, segment]
}

/// The answer to `request` as the worker sends it.
fn answered(request: u64, result: Result<Vec<configs::Answer>, Failure>) -> Action {
    Action::Screen(screens::Msg::Configs(Msg::Answer { request, result }))
}

/// Whether `effects` ask for configs.
fn asks_configs(effects: &[Effect]) -> bool {
    effects
        .iter()
        .any(|e| matches!(e, Effect::Query(screens::Query::Configs(_))))
}

/// The configs screen of `of`.
fn configs_of(of: ConfigResource) -> Screen {
    Configs(Config::list(of))
}

/// Answer the config request in flight with the configs of `orders` for
/// every resource it asked for.
fn answer(state: &mut AppState, snap: &MetadataSnapshot) {
    let (request, _) = state.screens.configs.in_flight.expect("configs asked for");
    let result = state
        .screens
        .configs
        .asked
        .iter()
        .map(|r| (r.clone(), Ok(Arc::new(orders_configs()))))
        .collect();
    update(state, answered(request, Ok(result)), snap);
}

/// Open the configs of `orders` from the Topics screen with the key.
fn open_orders_configs(s: &mut AppState, snap: &MetadataSnapshot) {
    keys(s, snap, "/orders");
    press(s, snap, Code::Enter);
    keys(s, snap, "C");
    answer(s, snap);
}

fn both_widths(name: &str, setup: impl Fn(&mut AppState, &MetadataSnapshot)) {
    let snap = cluster();
    for (label, width, height) in [("narrow", 80, 18), ("wide", 150, 18)] {
        let mut s = state(&snap, width, height);
        setup(&mut s, &snap);
        insta::assert_snapshot!(format!("{name}_{label}"), render(&s, &snap));
    }
}

#[test]
fn topic_configs_screen() {
    both_widths("topic_configs", open_orders_configs);
}

#[test]
fn config_entry_screen() {
    both_widths("config_entry", |s, snap| {
        open_orders_configs(s, snap);
        keys(s, snap, "j");
        press(s, snap, Code::Enter);
    });
}

#[test]
fn the_key_opens_the_selected_topics_configs_and_asks_for_them_only() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    keys(&mut s, &snap, "/orders");
    press(&mut s, &snap, Code::Enter);
    let effects = keys(&mut s, &snap, "C");
    let orders = ConfigResource::Topic("orders".to_owned());
    assert_eq!(s.view().screen, configs_of(orders.clone()));
    // The Topics screen already asked for the visible topic's configs: that
    // answer serves the config screen too.
    assert!(!asks_configs(&effects), "{effects:?}");
    let asked = &s.screens.configs.asked;
    assert!(asked.contains(&orders), "{asked:?}");
    // Nothing more is asked while the answer is awaited.
    let again = update(
        &mut s,
        Action::Resize {
            width: 100,
            height: 20,
        },
        &snap,
    );
    assert!(!asks_configs(&again));
    // A stale answer (another request id) is dropped.
    let stale = Ok(vec![(orders.clone(), Ok(Arc::new(orders_configs())))]);
    update(&mut s, answered(99, stale), &snap);
    assert!(s.view().rows.is_empty(), "stale answer dropped");
    answer(&mut s, &snap);
    assert_eq!(s.view().rows.len(), 4);

    // `/` filters on name, value and source.
    keys(&mut s, &snap, "/dynamic");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().rows.len(), 2, "retention.ms and sasl.jaas.config");
    let screen = render(&s, &snap);
    assert!(screen.contains("******"), "sensitive masked:\n{screen}");
    assert!(!screen.contains("cleanup.policy"), "{screen}");

    // Enter opens the selected config; Esc goes back to the list, then
    // clears the filter, then back to Topics.
    press(&mut s, &snap, Code::Enter);
    assert_eq!(
        s.view().screen,
        Configs(Config::entry(orders.clone(), "retention.ms".to_owned()))
    );
    assert_eq!(s.view().rows.len(), 3, "the synonym chain");
    press(&mut s, &snap, Code::Esc);
    assert_eq!(s.view().screen, configs_of(orders));
    press(&mut s, &snap, Code::Esc);
    assert_eq!(s.view().rows.len(), 4, "filter cleared");
    press(&mut s, &snap, Code::Esc);
    assert_eq!(s.view().screen, Screen::topics());
    assert_eq!(s.view().rows.len(), 1, "the Topics filter kept");
}

#[test]
fn the_key_works_from_partitions_and_brokers_and_the_command_line() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    keys(&mut s, &snap, "jj");
    press(&mut s, &snap, Code::Enter);
    keys(&mut s, &snap, "C");
    assert_eq!(
        s.view().screen,
        configs_of(ConfigResource::Topic("payments".to_owned()))
    );
    keys(&mut s, &snap, ":brokers");
    press(&mut s, &snap, Code::Enter);
    keys(&mut s, &snap, "jC");
    assert_eq!(s.view().screen, configs_of(ConfigResource::Broker(2)));
    keys(&mut s, &snap, ":config defaults");
    press(&mut s, &snap, Code::Enter);
    assert_eq!(s.view().screen, configs_of(ConfigResource::BrokerDefaults));
    keys(&mut s, &snap, ":config broker x");
    press(&mut s, &snap, Code::Enter);
    assert!(
        s.notice.as_deref().is_some_and(|n| n.contains("usage")),
        "{:?}",
        s.notice
    );
}

#[test]
fn a_failed_answer_keeps_the_last_entries_and_says_why() {
    let snap = cluster();
    let mut s = state(&snap, 100, 20);
    open_orders_configs(&mut s, &snap);
    let orders = ConfigResource::Topic("orders".to_owned());
    // Time passes: the configs are asked for again.
    let (now, wall) = (s.now + configs::INTERVAL, s.wall);
    let effects = update(&mut s, Action::Tick { now, wall }, &snap);
    let request = effects
        .iter()
        .find_map(|e| match e {
            Effect::Query(screens::Query::Configs(q)) => Some(q.request),
            _ => None,
        })
        .expect("asked again after the interval");
    let timed_out = Failure::new(Kind::Transient, "broker 1: timed out");
    let failed = Ok(vec![(orders, Err(timed_out))]);
    update(&mut s, answered(request, failed), &snap);
    assert_eq!(s.view().rows.len(), 4, "the last entries stay");
    let screen = render(&s, &snap);
    assert!(screen.contains("failed: broker 1: timed out"), "{screen}");
}
