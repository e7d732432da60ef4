//! The configs set on a resource, as kscope keeps them to see them change:
//! only the entries set at the resource's own level (topic-level, dynamic
//! for a broker or for every broker), never Kafka's defaults, so a cluster
//! of 10k topics with a few overrides each keeps a few entries a topic.
//!
//! A secret is never kept in clear. Kafka marks its secrets sensitive
//! (`IsSensitive`) and sends no value for them; as a backstop, a name that
//! says secret ([`secret_name`]: `password`, `secret`, `jaas`,
//! `credential`, or key material such as `ssl.keystore.key`) is treated the
//! same whatever Kafka says. What is kept of a secret is a keyed hash
//! ([`Kept::Masked`], the key random per process, never printed), so that a
//! secret Kafka does send can be seen to change without being kept; one
//! Kafka hides can only be seen set or unset. Shown, a secret is
//! [`MASK`].

use std::hash::BuildHasher;
use std::sync::OnceLock;

use super::config_source::ConfigSource;
use super::configs::ConfigEntry;

/// What a secret value is shown as (the config screens' mask).
pub const MASK: &str = "******";

/// One config value as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    /// A value that is no secret.
    Clear(Box<str>),
    /// A secret: a keyed hash of what Kafka sent (nothing, for a value it
    /// hides), to compare with, never to show.
    Masked(u64),
}

impl Kept {
    /// `value` of config `name`, masked when `sensitive` (Kafka says so) or
    /// when the name says it is a secret.
    pub fn of(name: &str, value: Option<&str>, sensitive: bool) -> Kept {
        if sensitive || secret_name(name) {
            Kept::Masked(keyed_hash(value))
        } else {
            Kept::Clear(value.unwrap_or_default().into())
        }
    }

    /// As shown: the value, or [`MASK`].
    pub fn shown(&self) -> &str {
        match self {
            Kept::Clear(value) => value,
            Kept::Masked(_) => MASK,
        }
    }

    /// Whether it is masked.
    pub fn masked(&self) -> bool {
        matches!(self, Kept::Masked(_))
    }
}

/// Whether config `name` holds a secret by its name alone: a password, a
/// secret, a JAAS config (it embeds credentials), a credential, or key
/// material (`ssl.keystore.key`, `delegation.token.master.key`: a last
/// segment `key`). Listener-prefixed names
/// (`listener.name.sasl_ssl.plain.sasl.jaas.config`) included.
pub fn secret_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["password", "secret", "jaas", "credential"]
        .iter()
        .any(|word| name.contains(word))
        || name.rsplit('.').next() == Some("key")
}

/// A hash of `value` under a key drawn once per process.
fn keyed_hash(value: Option<&str>) -> u64 {
    static KEY: OnceLock<std::collections::hash_map::RandomState> = OnceLock::new();
    KEY.get_or_init(std::collections::hash_map::RandomState::new)
        .hash_one(value)
}

/// The configs set at a resource's own level, sorted by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides(Box<[(Box<str>, Kept)]>);

impl Overrides {
    /// The entries of `entries` (sorted by name, as `configs` returns
    /// them) whose source `keep` accepts, secrets masked.
    pub fn of(entries: &[ConfigEntry], keep: impl Fn(ConfigSource) -> bool) -> Overrides {
        let mut kept: Vec<(Box<str>, Kept)> = entries
            .iter()
            .filter(|e| keep(e.source))
            .map(|e| {
                let value = Kept::of(&e.name, e.value.as_deref(), e.sensitive);
                (e.name.as_str().into(), value)
            })
            .collect();
        kept.sort_by(|a, b| a.0.cmp(&b.0));
        Overrides(kept.into_boxed_slice())
    }

    /// The overrides of a topic: its topic-level configs.
    pub fn topic(entries: &[ConfigEntry]) -> Overrides {
        Overrides::of(entries, |source| source == ConfigSource::DynamicTopic)
    }

    /// The dynamic configs of one broker (set for it alone).
    pub fn broker(entries: &[ConfigEntry]) -> Overrides {
        Overrides::of(entries, |source| source == ConfigSource::DynamicBroker)
    }

    /// The cluster-wide dynamic broker defaults.
    pub fn broker_defaults(entries: &[ConfigEntry]) -> Overrides {
        Overrides::of(entries, |source| {
            source == ConfigSource::DynamicDefaultBroker
        })
    }

    /// Every override, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Kept)> {
        self.0.iter().map(|(name, kept)| (&**name, kept))
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What changed from `self` to `after`, by name: `(name, before,
    /// after)`, `None` where the config is not set at this level.
    pub fn changes<'a>(
        &'a self,
        after: &'a Overrides,
    ) -> impl Iterator<Item = (&'a str, Option<&'a Kept>, Option<&'a Kept>)> {
        let (mut b, mut a) = (self.0.iter().peekable(), after.0.iter().peekable());
        std::iter::from_fn(move || {
            loop {
                let next = match (b.peek(), a.peek()) {
                    (None, None) => return None,
                    (Some(_), None) => b.next().map(|(n, v)| (n, Some(v), None)),
                    (None, Some(_)) => a.next().map(|(n, v)| (n, None, Some(v))),
                    (Some((bn, _)), Some((an, _))) => match bn.cmp(an) {
                        std::cmp::Ordering::Less => b.next().map(|(n, v)| (n, Some(v), None)),
                        std::cmp::Ordering::Greater => a.next().map(|(n, v)| (n, None, Some(v))),
                        std::cmp::Ordering::Equal => {
                            let (Some((n, old)), Some((_, new))) = (b.next(), a.next()) else {
                                return None;
                            };
                            (old != new).then_some((n, Some(old), Some(new)))
                        }
                    },
                };
                if let Some((name, old, new)) = next {
                    return Some((&**name, old, new));
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::ConfigType;

    fn entry(name: &str, value: Option<&str>, source: ConfigSource) -> ConfigEntry {
        ConfigEntry {
            name: name.to_owned(),
            value: value.map(str::to_owned),
            source,
            sensitive: false,
            read_only: false,
            kind: ConfigType::String,
            documentation: None,
            synonyms: Vec::new(),
        }
    }

    #[test]
    fn secret_names_are_known_by_their_words_and_key_material_by_its_last_segment() {
        for name in [
            "ssl.key.password",
            "ssl.keystore.key",
            "sasl.jaas.config",
            "listener.name.sasl_ssl.plain.sasl.jaas.config",
            "password.encoder.secret",
            "delegation.token.master.key",
            "sasl.oauthbearer.client.credentials.client.secret",
            "SSL.TRUSTSTORE.PASSWORD",
        ] {
            assert!(secret_name(name), "{name}");
        }
        for name in [
            "retention.ms",
            "ssl.keystore.certificate.chain",
            "ssl.keystore.type",
            "message.timestamp.type",
            "ssl.endpoint.identification.algorithm",
        ] {
            assert!(!secret_name(name), "{name}");
        }
    }

    #[test]
    fn only_the_own_level_is_kept_and_a_secret_never_in_clear() {
        let mut flagged = entry("custom.sensitive", None, ConfigSource::DynamicTopic);
        flagged.sensitive = true;
        let entries = [
            entry("cleanup.policy", Some("delete"), ConfigSource::Default),
            entry("retention.ms", Some("1000"), ConfigSource::DynamicTopic),
            entry("min.insync.replicas", Some("2"), ConfigSource::StaticBroker),
            entry(
                "ssl.key.password",
                Some("hunter2"),
                ConfigSource::DynamicTopic,
            ),
            flagged,
        ];
        let kept = Overrides::topic(&entries);
        let names: Vec<&str> = kept.iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            ["custom.sensitive", "retention.ms", "ssl.key.password"]
        );
        let shown: Vec<&str> = kept.iter().map(|(_, v)| v.shown()).collect();
        assert_eq!(shown, [MASK, "1000", MASK]);
        assert!(!format!("{kept:?}").contains("hunter2"), "{kept:?}");
    }

    #[test]
    fn changes_are_set_unset_and_changed_by_name_and_a_secret_changes_unseen() {
        let before = Overrides::topic(&[
            entry("a", Some("1"), ConfigSource::DynamicTopic),
            entry("b", Some("2"), ConfigSource::DynamicTopic),
            entry("c", Some("3"), ConfigSource::DynamicTopic),
            entry("ssl.key.password", Some("old"), ConfigSource::DynamicTopic),
        ]);
        let after = Overrides::topic(&[
            entry("b", Some("2"), ConfigSource::DynamicTopic),
            entry("c", Some("4"), ConfigSource::DynamicTopic),
            entry("d", Some("5"), ConfigSource::DynamicTopic),
            entry("ssl.key.password", Some("new"), ConfigSource::DynamicTopic),
        ]);
        let seen: Vec<(&str, Option<&str>, Option<&str>)> = before
            .changes(&after)
            .map(|(n, b, a)| (n, b.map(Kept::shown), a.map(Kept::shown)))
            .collect();
        assert_eq!(
            seen,
            [
                ("a", Some("1"), None),
                ("c", Some("3"), Some("4")),
                ("d", None, Some("5")),
                ("ssl.key.password", Some(MASK), Some(MASK)),
            ]
        );
        assert_eq!(after.changes(&after).count(), 0);
    }
}
