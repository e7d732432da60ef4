//! `topic_config_changed` / `broker_config_changed`: what changed in the
//! configs set on a topic, on a broker, or as the cluster-wide broker
//! defaults, between two sweeps ([`super::config_sweep`]).
//!
//! A resource's first read is its baseline (configs set before kscope
//! looked, or given when a topic was created, are state, not news), as the
//! first snapshot is for the movement diff; so is the first read of a
//! topic recreated under its name (another topic id: `topic_deleted` and
//! `topic_created` say it). A resource that did not answer keeps what was
//! known of it; one no longer asked (deleted, unlisted) is forgotten
//! without an event. Memory: the overrides of each resource (a few entries
//! a topic), never its defaults. Secrets are kept and shown masked (see
//! [`super::config_overrides`]).
//!
//! Rate limited as the movement log is ([`EventGate`]): a script that sets
//! a config on 10k topics yields 10k events of one kind, and past the
//! kind's limit the rest are one counted `events_suppressed` record.

use std::collections::HashMap;
use std::time::SystemTime;

use super::config_overrides::{Kept, Overrides};
use super::config_sweep::{BrokerScope, Sweep};
use crate::meta::{EventGate, Limits, MovementEvent, MovementKind, TopicId};

/// The configs set on each resource, across sweeps.
#[derive(Debug, Default)]
pub struct ConfigWatch {
    /// Per topic: its id and overrides as last read.
    topics: HashMap<String, (TopicId, Overrides)>,
    /// Per broker (`None`: the cluster-wide defaults): its dynamic configs.
    brokers: HashMap<BrokerScope, Overrides>,
    /// The per-kind rate limit of what is said.
    gate: EventGate,
}

/// One change: the config, its value before and after (`None`: not set at
/// this level), and whether either is a secret.
struct Change {
    config: String,
    from: Option<String>,
    to: Option<String>,
    sensitive: bool,
}

fn changes(before: &Overrides, after: &Overrides) -> Vec<Change> {
    before
        .changes(after)
        .map(|(config, old, new)| Change {
            config: config.to_owned(),
            from: old.map(|v| v.shown().to_owned()),
            to: new.map(|v| v.shown().to_owned()),
            sensitive: old.is_some_and(Kept::masked) || new.is_some_and(Kept::masked),
        })
        .collect()
}

impl ConfigWatch {
    /// Nothing known yet; the movement log's default rate limits.
    pub fn new() -> ConfigWatch {
        ConfigWatch::default()
    }

    /// Nothing known yet; `limits`' rate limit.
    pub fn with_limits(limits: Limits) -> ConfigWatch {
        ConfigWatch {
            gate: EventGate::new(limits),
            ..ConfigWatch::default()
        }
    }

    /// Take in `sweep`, read at `at`: the changes since the last sweep,
    /// topics first (by name), then the broker defaults and each broker,
    /// rate limited.
    pub fn observe(&mut self, sweep: &Sweep, at: SystemTime) -> Vec<MovementEvent> {
        let mut events = Vec::new();
        self.topics
            .retain(|name, _| sweep.topics.contains_key(name));
        for (name, read) in &sweep.topics {
            let Some(read) = read else { continue };
            let held = self.topics.get(name);
            if let Some((id, before)) = held
                && (*id == read.id || id.is_nil() || read.id.is_nil())
            {
                for change in changes(before, &read.overrides) {
                    events.push(MovementEvent {
                        time: at,
                        topic: Some(name.clone()),
                        partition: None,
                        kind: MovementKind::TopicConfigChanged {
                            config: change.config,
                            from: change.from,
                            to: change.to,
                            sensitive: change.sensitive,
                        },
                    });
                }
            }
            let now = (read.id, read.overrides.clone());
            if let Some(held) = self.topics.get_mut(name) {
                *held = now;
            } else {
                self.topics.insert(name.clone(), now);
            }
        }
        self.brokers
            .retain(|scope, _| sweep.brokers.contains_key(scope));
        for (scope, read) in &sweep.brokers {
            let Some(read) = read else { continue };
            if let Some(before) = self.brokers.get(scope) {
                for change in changes(before, read) {
                    events.push(MovementEvent {
                        time: at,
                        topic: None,
                        partition: None,
                        kind: MovementKind::BrokerConfigChanged {
                            broker: *scope,
                            config: change.config,
                            from: change.from,
                            to: change.to,
                            sensitive: change.sensitive,
                        },
                    });
                }
            }
            self.brokers.insert(*scope, read.clone());
        }
        self.gate.admit(events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::config_overrides::MASK;
    use crate::inspect::config_source::ConfigSource;
    use crate::inspect::config_sweep::TopicConfigs;
    use crate::inspect::{ConfigEntry, ConfigType};

    fn entry(name: &str, value: Option<&str>, sensitive: bool) -> ConfigEntry {
        ConfigEntry {
            name: name.to_owned(),
            value: value.map(str::to_owned),
            source: ConfigSource::DynamicTopic,
            sensitive,
            read_only: false,
            kind: ConfigType::String,
            documentation: None,
            synonyms: Vec::new(),
        }
    }

    fn sweep(topics: &[(&str, u8, &[ConfigEntry])]) -> Sweep {
        let mut sweep = Sweep::default();
        for (name, id, entries) in topics {
            let read = TopicConfigs {
                id: TopicId::from_bytes([*id; 16]),
                min_isr: None,
                overrides: Overrides::topic(entries),
            };
            sweep.topics.insert((*name).to_owned(), Some(read));
        }
        sweep
    }

    fn said(events: &[MovementEvent]) -> Vec<(Option<&str>, &MovementKind)> {
        events
            .iter()
            .map(|e| (e.topic.as_deref(), &e.kind))
            .collect()
    }

    fn changed(config: &str, from: Option<&str>, to: Option<&str>) -> MovementKind {
        MovementKind::TopicConfigChanged {
            config: config.to_owned(),
            from: from.map(str::to_owned),
            to: to.map(str::to_owned),
            sensitive: false,
        }
    }

    #[test]
    fn the_first_read_is_a_baseline_then_each_change_is_one_event_with_old_and_new() {
        let at = SystemTime::UNIX_EPOCH;
        let mut watch = ConfigWatch::new();
        let week = [entry("retention.ms", Some("604800000"), false)];
        assert!(
            watch
                .observe(&sweep(&[("orders", 1, &week[..])]), at)
                .is_empty()
        );
        assert!(
            watch
                .observe(&sweep(&[("orders", 1, &week[..])]), at)
                .is_empty()
        );
        let day = [
            entry("cleanup.policy", Some("compact"), false),
            entry("retention.ms", Some("86400000"), false),
        ];
        let events = watch.observe(&sweep(&[("orders", 1, &day[..])]), at);
        assert_eq!(
            said(&events),
            [
                (
                    Some("orders"),
                    &changed("cleanup.policy", None, Some("compact"))
                ),
                (
                    Some("orders"),
                    &changed("retention.ms", Some("604800000"), Some("86400000"))
                ),
            ]
        );
        let unset = watch.observe(&sweep(&[("orders", 1, &[][..])]), at);
        assert_eq!(unset.len(), 2);
        assert_eq!(
            unset[1].kind,
            changed("retention.ms", Some("86400000"), None)
        );
        // A topic first read later: its baseline, however it is set.
        let events = watch.observe(&sweep(&[("orders", 1, &[][..]), ("new", 2, &day[..])]), at);
        assert!(events.is_empty(), "{events:?}");
    }

    #[test]
    fn a_recreated_topic_is_a_new_baseline_and_an_unread_one_keeps_what_was_known() {
        let at = SystemTime::UNIX_EPOCH;
        let mut watch = ConfigWatch::new();
        let week = [entry("retention.ms", Some("604800000"), false)];
        let day = [entry("retention.ms", Some("86400000"), false)];
        watch.observe(&sweep(&[("orders", 1, &week[..])]), at);
        assert!(
            watch
                .observe(&sweep(&[("orders", 2, &day[..])]), at)
                .is_empty(),
            "another topic id: a new baseline"
        );
        let mut unread = Sweep::default();
        unread.topics.insert("orders".to_owned(), None);
        assert!(watch.observe(&unread, at).is_empty());
        let events = watch.observe(&sweep(&[("orders", 2, &week[..])]), at);
        assert_eq!(events.len(), 1, "compared with the last read: {events:?}");
        // Gone from the sweep: forgotten, so its return is a baseline.
        assert!(watch.observe(&Sweep::default(), at).is_empty());
        assert!(
            watch
                .observe(&sweep(&[("orders", 2, &day[..])]), at)
                .is_empty()
        );
    }

    #[test]
    fn a_secret_is_masked_and_never_in_an_event_whatever_kafka_says_of_it() {
        let at = SystemTime::UNIX_EPOCH;
        let mut watch = ConfigWatch::new();
        let sweeps = [
            vec![],
            vec![
                entry(
                    "ssl.keystore.key",
                    Some("-----BEGIN PRIVATE hunter2"),
                    false,
                ),
                entry("custom.flagged", None, true),
            ],
            vec![
                entry(
                    "ssl.keystore.key",
                    Some("-----BEGIN PRIVATE swordfish"),
                    false,
                ),
                entry("custom.flagged", None, true),
            ],
            vec![],
        ]
        .into_iter()
        .map(|entries| sweep(&[("orders", 1, entries.as_slice())]));
        let mut events = Vec::new();
        for sweep in sweeps {
            events.extend(watch.observe(&sweep, at));
        }
        let text = format!("{events:?}");
        assert!(
            !text.contains("hunter2") && !text.contains("swordfish"),
            "{text}"
        );
        let shown: Vec<(&str, Option<&str>, Option<&str>, bool)> = events
            .iter()
            .filter_map(|e| match &e.kind {
                MovementKind::TopicConfigChanged {
                    config,
                    from,
                    to,
                    sensitive,
                } => Some((config.as_str(), from.as_deref(), to.as_deref(), *sensitive)),
                _ => None,
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("custom.flagged", None, Some(MASK), true),
                ("ssl.keystore.key", None, Some(MASK), true),
                ("ssl.keystore.key", Some(MASK), Some(MASK), true),
                ("custom.flagged", Some(MASK), None, true),
                ("ssl.keystore.key", Some(MASK), None, true),
            ],
            "set, changed (the value Kafka sent, compared unseen), unset"
        );
    }

    #[test]
    fn broker_and_default_configs_change_per_scope_and_storms_are_folded() {
        let at = SystemTime::UNIX_EPOCH;
        let limits = Limits {
            per_kind: 2,
            ..Limits::default()
        };
        let mut watch = ConfigWatch::with_limits(limits);
        let brokers = |threads: &str| {
            let mut sweep = Sweep::default();
            let set = [ConfigEntry {
                source: ConfigSource::DynamicBroker,
                ..entry("log.cleaner.threads", Some(threads), false)
            }];
            let default = [ConfigEntry {
                source: ConfigSource::DynamicDefaultBroker,
                ..entry("log.cleaner.threads", Some(threads), false)
            }];
            sweep
                .brokers
                .insert(None, Some(Overrides::broker_defaults(&default)));
            for id in 1..=3 {
                sweep
                    .brokers
                    .insert(Some(id), Some(Overrides::broker(&set)));
            }
            sweep
        };
        assert!(watch.observe(&brokers("1"), at).is_empty());
        let events = watch.observe(&brokers("2"), at);
        let scopes: Vec<Option<Option<i32>>> = events
            .iter()
            .map(|e| match &e.kind {
                MovementKind::BrokerConfigChanged { broker, .. } => Some(*broker),
                _ => None,
            })
            .collect();
        assert_eq!(scopes, [Some(None), Some(Some(1)), None]);
        assert!(matches!(
            events[2].kind,
            MovementKind::EventsSuppressed {
                suppressed: "broker_config_changed",
                count: 2,
                ..
            }
        ));
    }
}
